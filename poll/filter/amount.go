package filter

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// MaxRooms and MaxSize bound what a filter may ask for: no flat has 500
// rooms, and a number that large is a price or a size typed in the wrong box.
const (
	MaxRooms = 50
	MaxSize  = 100000 // m²
)

// reTyped is an amount as a person types it: digits with "." "," or space
// between groups, an optional "k" (thousand) or "Mio" (million), and a
// currency sign or code around it.
var reTyped = regexp.MustCompile(`^(?i)(?:€|eur|chf|\$|£)?\s*([0-9][0-9., \x{a0}]*)\s*(k|tsd\.?|mio\.?)?\s*(?:€|eur|chf|\$|£)?$`)

// ParseAmount reads a filter amount the user typed: "1200", "1.200",
// "1,200", "1 200", "1200 €", "2,5", "1.200,50", "2k", "1,2 Mio". "" is 0 (no
// limit). What could mean two things ("1.2.3", "1,2,3", "1.20.000") is
// refused in words, never guessed.
func ParseAmount(s string) (float64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, nil
	}
	if strings.HasPrefix(s, "-") {
		return 0, errors.New("an amount below zero means nothing here; give 0 or leave it empty for no limit")
	}
	m := reTyped.FindStringSubmatch(s)
	if m == nil {
		return 0, fmt.Errorf("%q is not an amount; write a number such as 1200, 1.200, 2,5 or 2k (0 for no limit)", clip(s))
	}
	v, err := readNumber(strings.TrimSpace(m[1]))
	if err != nil {
		return 0, fmt.Errorf("%q: %w", clip(s), err)
	}
	switch strings.ToLower(strings.TrimSuffix(m[2], ".")) {
	case "k", "tsd":
		v *= 1e3
	case "mio":
		v *= 1e6
	}
	if math.IsInf(v, 0) || v > 1e12 {
		return 0, fmt.Errorf("%q is too large to be a limit", clip(s))
	}
	return v, nil
}

// errAmbiguous is ParseAmount's answer to a number that can be read more than
// one way ("1.2.3": thousands or decimals?).
var errAmbiguous = errors.New("this can be read more than one way: write whole amounts as 1200 or 1.200 (groups of three digits) and decimals as 2,5")

// readNumber reads digits grouped by one separator and, at the end, a
// decimal part after the other one (or after a lone separator not followed
// by exactly three digits): "1.200" and "1,200" are 1200, "2,5" and "2.5"
// are 2.5, "1.200,50" and "1,200.50" are 1200.5.
func readNumber(s string) (float64, error) {
	s = strings.NewReplacer("\u00a0", " ").Replace(s)
	intPart, frac := s, ""
	if i := strings.LastIndexAny(s, ".,"); i >= 0 {
		sep, rest := s[i], s[i+1:]
		other := map[byte]string{'.': ",", ',': "."}[sep]
		groupsOnly := len(rest) == 3 && !strings.Contains(s[:i], other)
		if !groupsOnly {
			intPart, frac = s[:i], rest
			if strings.Contains(intPart, string(sep)) {
				return 0, errAmbiguous
			}
		}
	}
	digits, err := ungroup(intPart)
	if err != nil {
		return 0, err
	}
	if frac != "" && strings.ContainsAny(frac, " ") {
		return 0, errors.New("the decimals contain a space")
	}
	v, err := strconv.ParseFloat(digits+"."+frac+"0", 64)
	if err != nil {
		return 0, fmt.Errorf("not a number: %w", err)
	}
	return v, nil
}

// ungroup takes the thousands separators out of the whole part: one kind of
// separator, every group after the first exactly three digits.
func ungroup(s string) (string, error) {
	seps := strings.Map(func(r rune) rune {
		if r == '.' || r == ',' || r == ' ' {
			return r
		}
		return -1
	}, s)
	if seps == "" {
		return s, nil
	}
	if strings.Trim(seps, seps[:1]) != "" {
		return "", errAmbiguous
	}
	groups := strings.Split(s, seps[:1])
	if len(groups[0]) == 0 || len(groups[0]) > 3 {
		return "", errAmbiguous
	}
	for _, g := range groups[1:] {
		if len(g) != 3 {
			return "", errAmbiguous
		}
	}
	return strings.Join(groups, ""), nil
}

// clip keeps an echoed input short.
func clip(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:39]) + "…"
	}
	return s
}
