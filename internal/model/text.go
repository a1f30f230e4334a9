package model

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// SanitizeLine makes s one line of at most max characters: control, formatting
// (e.g. bidi overrides) and line/paragraph separator characters become spaces,
// runs of white space collapse, invalid UTF-8 is replaced, and an overlong result
// is cut with "…".
func SanitizeLine(s string, max int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Zl, r) || unicode.Is(unicode.Zp, r) {
			return ' '
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	return Truncate(s, max)
}

// Truncate cuts s to at most max characters, ending in "…" when it was cut.
func Truncate(s string, max int) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:max-1])) + "…"
}
