package model

import (
	"regexp"
	"strconv"
	"strings"
)

// groupSpaces are the marks other than "." and "," that group thousands
// ("1'250", "1’250", "1 250", with a no-break or thin space).
var groupSpaces = strings.NewReplacer("\u00a0", " ", "\u202f", " ", "\u2009", " ", "'", " ", "\u2019", " ")

// ShownNumber reads a number as a page shows it: "1.250", "1,250", "1 250",
// "1.250,50", "1250.5", "54,5". A separator followed by exactly three digits
// groups thousands; the last other one is the decimal point. It is the one
// reader of shown amounts: extraction reads prices with it, and sizes and
// rooms through ShownAmount. A string with no digits is 0.
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

// reShownAmount is the first amount of a text: digits, groups of three, a
// decimal part.
var reShownAmount = regexp.MustCompile(`\d+(?:[.,\x{a0} ]\d{3})*(?:[.,]\d+)?`)

// ShownAmount reads the first amount of a text a page shows, with
// ShownNumber's rule: "54 m²" is 54, "ca. 1.170 m²" 1170, "2,5 Zi." 2.5, a
// range ("2 - 3 Zimmer") its lower end; 0 when the text shows none. It is the
// one reading of a listing's size and rooms: extraction hands the values over
// (PageListing.SizeValue, RoomsValue) and storage fills them in listings
// stored before they existed; the filters read only the values.
func ShownAmount(s string) float64 {
	m := reShownAmount.FindString(s)
	if m == "" {
		return 0
	}
	return ShownNumber(m)
}
