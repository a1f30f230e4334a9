package extract

import (
	"regexp"
	"strconv"
	"strings"
)

// currencies maps what a page shows to an ISO 4217 code, longest first.
var currencies = []struct{ sign, code string }{
	{"EUR", "EUR"}, {"Euro", "EUR"}, {"euro", "EUR"}, {"€", "EUR"},
	{"CHF", "CHF"},
	{"GBP", "GBP"}, {"£", "GBP"},
	{"USD", "USD"}, {"US$", "USD"}, {"$", "USD"},
	{"PLN", "PLN"}, {"zł", "PLN"},
	{"CZK", "CZK"}, {"Kč", "CZK"},
	{"SEK", "SEK"}, {"DKK", "DKK"}, {"NOK", "NOK"}, {"kr", "SEK"},
}

// numberRe finds a number as shown on a page: digits with thousands separators
// ('.', ',', ' ', '\”, no-break spaces) and an optional decimal part.
var numberRe = regexp.MustCompile(`\d(?:[\d.,'’\x{00a0}\x{202f} ]*\d)?`)

// parsePrice parses a price as shown: "1.250 €" → 1250 EUR, "€1,250" → 1250,
// "1.250,50 €" → 1250.5, "VB" / "auf Anfrage" → 0. The currency is "" when the
// text shows none.
func parsePrice(s string) (float64, string) {
	cur := currencyOf(s)
	m := numberRe.FindString(s)
	if m == "" {
		return 0, cur
	}
	return parseNumber(m), cur
}

// currencyOf returns the ISO code of the currency s shows, "" if none.
func currencyOf(s string) string {
	for _, c := range currencies {
		i := strings.Index(s, c.sign)
		if i < 0 {
			continue
		}
		if isLetters(c.sign) { // a word: must stand alone ("EUR", not "EURO-Pal")
			j := i + len(c.sign)
			if (i > 0 && isLetter(s[i-1])) || (j < len(s) && isLetter(s[j])) {
				continue
			}
		}
		return c.code
	}
	return ""
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isLetter(s[i]) {
			return false
		}
	}
	return true
}

// parseNumber reads a number with locale-dependent separators. The last of '.'
// and ',' is the decimal separator unless it is followed by exactly three digits
// and is the only kind of separator (then it groups thousands: "1.250", "1,250").
// Spaces and apostrophes always group thousands.
func parseNumber(m string) float64 {
	var digits strings.Builder
	// Split off groups separated by spaces / apostrophes: they only group.
	m = strings.Map(func(r rune) rune {
		switch r {
		case ' ', '\u00a0', '\u202f', '\'', '’':
			return -1
		}
		return r
	}, m)
	lastDot, lastComma := strings.LastIndexByte(m, '.'), strings.LastIndexByte(m, ',')
	dec := -1 // index of the decimal separator
	switch {
	case lastDot >= 0 && lastComma >= 0:
		dec = max(lastDot, lastComma)
	case lastDot >= 0 || lastComma >= 0:
		sep := max(lastDot, lastComma)
		ch := m[sep]
		if strings.Count(m, string(ch)) == 1 && len(m)-sep-1 != 3 {
			dec = sep
		}
	}
	for i := 0; i < len(m); i++ {
		c := m[i]
		switch {
		case c >= '0' && c <= '9':
			digits.WriteByte(c)
		case i == dec:
			digits.WriteByte('.')
		}
	}
	v, err := strconv.ParseFloat(strings.TrimSuffix(digits.String(), "."), 64)
	if err != nil {
		return 0
	}
	return v
}

// looksLikePrice reports whether s (short text) shows an amount with a currency.
func looksLikePrice(s string) bool {
	return currencyOf(s) != "" && numberRe.MatchString(s)
}

var (
	sizeRe  = regexp.MustCompile(`(?i)\d+(?:[.,]\d+)?\s*(?:m²|m2|qm|sqm|sq\.? ?ft|m\x{00b2})`)
	roomsRe = regexp.MustCompile(`(?i)\d+(?:[.,]\d+)?\s*(?:Zi\b\.?|Zimmer\b|Zi\.|Räume\b|rooms?\b|bedrooms?\b|hab\.|habitaciones\b|locali\b|Zr\.?)`)
	m2Re    = regexp.MustCompile(`(\d\s*)m2\b`)
)

// normSize writes square metres as "m²" ("98 m2" from "98 m<sup>2</sup>").
func normSize(s string) string {
	if !strings.Contains(s, "m2") {
		return s
	}
	return m2Re.ReplaceAllString(s, "${1}m²")
}

// mayBeSize is a quick test before sizeRe.
func mayBeSize(t string) bool {
	return strings.Contains(t, "m²") || strings.Contains(t, "m2") || strings.Contains(t, "qm") || strings.Contains(t, "sq") || strings.Contains(t, "m\u00b2")
}

// mayBeRooms is a quick test before roomsRe.
func mayBeRooms(t string) bool {
	for _, w := range []string{"Zi", "zi", "ZI", "oom", "OOM", "Räume", "hab", "locali", "Zr"} {
		if strings.Contains(t, w) {
			return true
		}
	}
	return false
}
