package extract

import (
	"math/bits"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// currencies maps what a page shows to an ISO 4217 code, longest first.
var currencies = [...]struct{ sign, code string }{
	{"EUR", "EUR"}, {"Euro", "EUR"}, {"euro", "EUR"}, {"€", "EUR"},
	{"CHF", "CHF"},
	{"GBP", "GBP"}, {"£", "GBP"},
	{"USD", "USD"}, {"US$", "USD"}, {"$", "USD"},
	{"PLN", "PLN"}, {"zł", "PLN"},
	{"CZK", "CZK"}, {"Kč", "CZK"},
	{"SEK", "SEK"}, {"DKK", "DKK"}, {"NOK", "NOK"}, {"kr", "SEK"},
}

// findNumber finds a number as shown on a page: digits with thousands separators
// ('.', ',', ' ', '\”, no-break spaces) and an optional decimal part. It is
// what the regexp \d(?:[\d.,'’\x{00a0}\x{202f} ]*\d)? finds (leftmost-first):
// from the first digit to the last digit of the run of such characters after it.
func findNumber(s string) string {
	i := 0
	for i < len(s) && (s[i] < '0' || s[i] > '9') {
		i++
	}
	if i == len(s) {
		return ""
	}
	end := i + 1
	for j := i + 1; j < len(s); {
		c := s[j]
		if c >= '0' && c <= '9' {
			j++
			end = j
			continue
		}
		if c == '.' || c == ',' || c == '\'' || c == ' ' {
			j++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[j:])
		if r != '’' && r != '\u00a0' && r != '\u202f' {
			break
		}
		j += size
	}
	return s[i:end]
}

// parsePrice parses a price as shown: "1.250 €" → 1250 EUR, "€1,250" → 1250,
// "1.250,50 €" → 1250.5, "VB" / "auf Anfrage" → 0. The currency is "" when the
// text shows none.
func parsePrice(s string) (float64, string) {
	cur := currencyOf(s)
	m := findNumber(s)
	if m == "" {
		return 0, cur
	}
	return parseNumber(m), cur
}

// currencyOf returns the ISO code of the currency s shows, "" if none.
func currencyOf(s string) string {
	// Where each sign first occurs (strings.Index of each), in one pass;
	// bytes that start no sign are passed over by a table lookup (every
	// card text goes through here). found marks the signs found: only they
	// are looked at after, in the list's order.
	var at [len(currencies)]int
	var found uint32
	for i := 0; i < len(s); i++ {
		if !currencyLead[s[i]] {
			continue
		}
		for _, k := range currencyByLead[s[i]] {
			if found&(1<<k) == 0 && strings.HasPrefix(s[i:], currencies[k].sign) {
				at[k], found = i, found|1<<k
			}
		}
	}
	for ; found != 0; found &= found - 1 {
		k := bits.TrailingZeros32(found)
		c, i := currencies[k], at[k]
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

// currencyByLead lists, for each byte, the currencies whose sign starts with
// it; currencyLead marks the bytes that start one.
var (
	currencyByLead = func() (t [256][]uint8) {
		for k, c := range currencies {
			t[c.sign[0]] = append(t[c.sign[0]], uint8(k))
		}
		return t
	}()
	currencyLead = func() (t [256]bool) {
		for _, c := range currencies {
			t[c.sign[0]] = true
		}
		return t
	}()
)

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
// Spaces and apostrophes always group thousands. m is what findNumber finds
// (digits, separators, a digit at both ends).
//
// Every card's price goes through here, so it works without allocating: the
// digits are gathered on the stack, and a number of up to 15 digits with at
// most 22 decimals is computed as strconv does on its exact path (one
// correctly rounded division of exact values, so the same float64);
// TestParseNumberMatchesStrconv holds it to the strings.Map + ParseFloat
// version it replaces.
func parseNumber(m string) float64 {
	// Where the last '.' and ',' are, and how many of each, counted in bytes
	// once the grouping characters are left out.
	lastDot, lastComma, dots, commas, n := -1, -1, 0, 0, 0
	for i := 0; i < len(m); {
		if size := groupingAt(m, i); size > 0 {
			i += size
			continue
		}
		switch m[i] {
		case '.':
			lastDot, dots = n, dots+1
		case ',':
			lastComma, commas = n, commas+1
		}
		n++
		i++
	}
	dec := -1 // place of the decimal separator among the n kept bytes
	switch {
	case lastDot >= 0 && lastComma >= 0:
		dec = max(lastDot, lastComma)
	case dots == 1 && n-lastDot-1 != 3:
		dec = lastDot
	case commas == 1 && n-lastComma-1 != 3:
		dec = lastComma
	}
	var buf [64]byte
	digits := buf[:0]
	var mant uint64
	nd, frac := 0, 0 // significant digits, digits after the separator
	for i, k := 0, 0; i < len(m); {
		if size := groupingAt(m, i); size > 0 {
			i += size
			continue
		}
		switch c := m[i]; {
		case c >= '0' && c <= '9':
			digits = append(digits, c)
			if mant > 0 || c != '0' {
				nd++
			}
			mant = mant*10 + uint64(c-'0') // (meaningless past 15 digits, and then unused)
			if dec >= 0 && k > dec {
				frac++
			}
		case k == dec:
			digits = append(digits, '.')
		}
		k++
		i++
	}
	if nd <= 15 && frac <= 22 {
		return float64(mant) / float64pow10[frac]
	}
	v, err := strconv.ParseFloat(strings.TrimSuffix(string(digits), "."), 64)
	if err != nil {
		return 0
	}
	return v
}

// groupingAt returns the length of the character at s[i] when it only groups
// thousands (a space, an apostrophe, a no-break space), else 0.
func groupingAt(s string, i int) int {
	switch c := s[i]; {
	case c == ' ' || c == '\'':
		return 1
	case c < utf8.RuneSelf:
		return 0
	}
	switch r, size := utf8.DecodeRuneInString(s[i:]); r {
	case '\u00a0', '\u202f', '’':
		return size
	}
	return 0
}

// float64pow10 are the powers of ten a float64 holds exactly.
var float64pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
	1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// looksLikePrice reports whether s (short text) shows an amount with a currency.
func looksLikePrice(s string) bool {
	return hasDigit(s) && currencyOf(s) != "" // a number: findNumber(s) != ""
}

var m2Re = regexp.MustCompile(`(\d\s*)m2\b`)

// findSize finds square metres: what the regexp
// (?i)\d+(?:[.,]\d+)?\s*(?:m²|m2|qm|sqm|sq\.? ?ft|m\x{00b2}) finds, "" if nothing.
func findSize(s string) string { return findAmount(s, sizeUnit) }

// findRooms finds a room count: what the regexp
// (?i)\d+(?:[.,]\d+)?\s*(?:Zi\b\.?|Zimmer\b|Zi\.|Räume\b|rooms?\b|bedrooms?\b|hab\.|habitaciones\b|locali\b|Zr\.?)
// finds, "" if nothing.
func findRooms(s string) string { return findAmount(s, roomsUnit) }

// findAmount finds the leftmost \d+(?:[.,]\d+)?\s* followed by a unit that
// unit (given s and the offset after the spaces) ends, as the regexp engine
// would: a start inside a run of digits ends where the run's start does.
func findAmount(s string, unit func(string, int) int) string {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) || i > 0 && isDigit(s[i-1]) {
			continue
		}
		j := digitsAt(s, i)
		if j+1 < len(s) && (s[j] == '.' || s[j] == ',') && isDigit(s[j+1]) {
			j = digitsAt(s, j+1)
		}
		for j < len(s) && (s[j] == ' ' || s[j] == '\t' || s[j] == '\n' || s[j] == '\f' || s[j] == '\r') {
			j++
		}
		if end := unit(s, j); end >= 0 {
			return s[i:end]
		}
	}
	return ""
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// sizeUnit: m²|m2|qm|sqm|sq\.? ?ft, case-insensitively.
func sizeUnit(s string, q int) int {
	if e := foldAt(s, q, "m"); e >= 0 {
		if strings.HasPrefix(s[e:], "²") {
			return e + len("²")
		}
		if e < len(s) && s[e] == '2' {
			return e + 1
		}
	}
	if e := foldAt(s, q, "qm"); e >= 0 {
		return e
	}
	if e := foldAt(s, q, "sqm"); e >= 0 {
		return e
	}
	if e := foldAt(s, q, "sq"); e >= 0 {
		if e < len(s) && s[e] == '.' {
			e++
		}
		if e < len(s) && s[e] == ' ' {
			e++
		}
		return foldAt(s, e, "ft")
	}
	return -1
}

// roomsUnit: Zi\b\.?|Zimmer\b|Zi\.|Räume\b|rooms?\b|bedrooms?\b|hab\.|habitaciones\b|locali\b|Zr\.?, case-insensitively.
func roomsUnit(s string, q int) int {
	if e := foldAt(s, q, "zi"); e >= 0 && wordBoundary(s, e) {
		if e < len(s) && s[e] == '.' {
			e++
		}
		return e
	}
	if e := foldAt(s, q, "zimmer"); e >= 0 && wordBoundary(s, e) {
		return e
	}
	if e := foldAt(s, q, "zi."); e >= 0 {
		return e
	}
	if e := foldAt(s, q, "r"); e >= 0 && (strings.HasPrefix(s[e:], "ä") || strings.HasPrefix(s[e:], "Ä")) {
		if e := foldAt(s, e+len("ä"), "ume"); e >= 0 && wordBoundary(s, e) {
			return e
		}
	}
	for _, w := range []string{"room", "bedroom"} {
		if e := foldAt(s, q, w); e >= 0 {
			if es := foldAt(s, e, "s"); es >= 0 && wordBoundary(s, es) {
				return es
			}
			if wordBoundary(s, e) {
				return e
			}
		}
	}
	if e := foldAt(s, q, "hab."); e >= 0 {
		return e
	}
	for _, w := range []string{"habitaciones", "locali"} {
		if e := foldAt(s, q, w); e >= 0 && wordBoundary(s, e) {
			return e
		}
	}
	if e := foldAt(s, q, "zr"); e >= 0 {
		if e < len(s) && s[e] == '.' {
			e++
		}
		return e
	}
	return -1
}

// foldAt matches pat (lower-case ASCII) at s[q:] as (?i) does (s also
// matches ſ, which folds to it); it returns the end, or -1.
func foldAt(s string, q int, pat string) int {
	for k := 0; k < len(pat); k++ {
		c := pat[k]
		switch {
		case c == 's' && strings.HasPrefix(s[q:], "ſ"):
			q += len("ſ")
		case q < len(s) && (s[q] == c || c >= 'a' && c <= 'z' && s[q] == c-'a'+'A'):
			q++
		default:
			return -1
		}
	}
	return q
}

// wordBoundary is \b at s[p]: an ASCII word character on one side only.
func wordBoundary(s string, p int) bool {
	return p > 0 && isWordByte(s[p-1]) != (p < len(s) && isWordByte(s[p]))
}

func isWordByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

// normSize writes square metres as "m²" ("98 m2" from "98 m<sup>2</sup>").
func normSize(s string) string {
	if !strings.Contains(s, "m2") {
		return s
	}
	return m2Re.ReplaceAllString(s, "${1}m²")
}

// mayBeSize is a quick test before sizeRe: whether t contains "m²", "m2",
// "qm" or "sq", in one pass (a search for each was most of reading a card's
// size).
func mayBeSize(t string) bool {
	for i := 0; i+1 < len(t); i++ {
		switch t[i] {
		case 'm':
			if c := t[i+1]; c == '2' || c == 0xC2 && i+2 < len(t) && t[i+2] == 0xB2 { // (² is C2 B2)
				return true
			}
		case 'q':
			if t[i+1] == 'm' {
				return true
			}
		case 's':
			if t[i+1] == 'q' {
				return true
			}
		}
	}
	return false
}

// mayBeRooms is a quick test before roomsRe: whether t contains one of
// roomWords (in one pass rather than one search per word).
func mayBeRooms(t string) bool {
	for i := 0; i < len(t); i++ {
		r := t[i:]
		switch t[i] {
		case 'Z':
			if len(r) >= 2 && (r[1] == 'i' || r[1] == 'I' || r[1] == 'r') {
				return true
			}
		case 'z':
			if len(r) >= 2 && r[1] == 'i' {
				return true
			}
		case 'o':
			if strings.HasPrefix(r, "oom") {
				return true
			}
		case 'O':
			if strings.HasPrefix(r, "OOM") {
				return true
			}
		case 'R':
			if strings.HasPrefix(r, "Räume") {
				return true
			}
		case 'h':
			if strings.HasPrefix(r, "hab") {
				return true
			}
		case 'l':
			if strings.HasPrefix(r, "locali") {
				return true
			}
		}
	}
	return false
}

// roomWords are the words mayBeRooms looks for.
var roomWords = []string{"Zi", "zi", "ZI", "oom", "OOM", "Räume", "hab", "locali", "Zr"}
