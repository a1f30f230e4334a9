package model

import (
	"strconv"
	"strings"
)

// groupSpaces are the marks other than "." and "," that group thousands
// ("1'250", "1’250", "1 250", with a no-break or thin space).
var groupSpaces = strings.NewReplacer("\u00a0", " ", "\u202f", " ", "\u2009", " ", "'", " ", "\u2019", " ")

// ShownNumber reads a number as a page shows it: "1.250", "1,250", "1 250",
// "1.250,50", "1250.5", "54,5". A separator followed by exactly three digits
// groups thousands; the last other one is the decimal point. It is the one
// reader of shown amounts: extraction reads prices with it, the filters
// sizes and rooms. A string with no digits is 0.
func ShownNumber(m string) float64 {
	m = strings.TrimRight(strings.TrimRight(groupSpaces.Replace(m), "-–"), ".,")
	lastSep := strings.LastIndexAny(m, ".,")
	intPart, frac := m, ""
	if lastSep >= 0 && len(m)-lastSep-1 != 3 {
		intPart, frac = m[:lastSep], m[lastSep+1:]
	}
	intPart = strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, intPart)
	v, err := strconv.ParseFloat(intPart+"."+frac+"0", 64)
	if err != nil {
		return 0
	}
	return v
}
