package filter

import (
	"errors"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Fold makes text comparable the way a reader compares it: lower case, accents
// and umlauts off ("Küche" → "kuche", "Séjour" → "sejour"), ß as ss, and every
// run of punctuation or space one space.
func Fold(s string) string {
	var b strings.Builder
	space := true // no leading space
	for _, r := range norm.NFD.String(s) {
		switch {
		case unicode.Is(unicode.Mn, r):
			continue // the accent of the letter before
		case r == 'ß' || r == 'ẞ':
			b.WriteString("ss")
			space = false
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(unicode.ToLower(r))
			space = false
		default:
			if !space {
				b.WriteByte(' ')
				space = true
			}
		}
	}
	return strings.TrimRight(b.String(), " ")
}

// containsWord reports whether the folded word or phrase w appears in the
// folded text. It is a substring test on purpose: in German "balkon" must find
// "Südbalkon".
func containsWord(text, w string) bool { return strings.Contains(text, w) }

// ErrUnclosedQuote is ParseWords' error for a phrase whose closing quote is missing.
var ErrUnclosedQuote = errors.New("a quoted phrase has no closing quote")

// ParseWords splits what the user typed into words and "quoted phrases":
// `balkon "ruhige lage", garten` → balkon, ruhige lage, garten. Commas count as
// spaces; typographic quotes („…“, “…”) as straight ones.
func ParseWords(s string) ([]string, error) {
	s = strings.NewReplacer("„", `"`, "“", `"`, "”", `"`).Replace(s)
	var out []string
	var cur strings.Builder
	quoted := false
	flush := func() {
		if w := strings.Join(strings.Fields(cur.String()), " "); w != "" {
			out = append(out, w)
		}
		cur.Reset()
	}
	for _, r := range s {
		switch {
		case r == '"':
			flush()
			quoted = !quoted
		case !quoted && (r == ',' || unicode.IsSpace(r)):
			flush()
		default:
			cur.WriteRune(r)
		}
	}
	if quoted {
		return nil, ErrUnclosedQuote
	}
	flush()
	return out, nil
}

// FormatWords is ParseWords' inverse: phrases with a space are quoted.
func FormatWords(words []string) string {
	parts := make([]string, len(words))
	for i, w := range words {
		if strings.ContainsAny(w, " \t,") {
			w = `"` + w + `"`
		}
		parts[i] = w
	}
	return strings.Join(parts, " ")
}
