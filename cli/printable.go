package cli

import (
	"strings"
	"unicode"
)

// printable returns stored text (names, titles, URLs, a server's words) safe to
// print in a terminal table: terminal escape sequences (CSI, OSC and the other
// ESC forms) are dropped whole, every other control or bidirectional-override
// character, tabs and line breaks included, becomes a space, so one field never
// moves the cursor, recolours the terminal or breaks a table's rows.
func printable(s string) string {
	if !strings.ContainsFunc(s, unsafeRune) {
		return s
	}
	var b strings.Builder
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == 0x1b || r == 0x9b: // ESC, or the one-character CSI
			i = skipEscape(rs, i)
		case unsafeRune(r):
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// skipEscape returns the index of the last rune of the escape sequence that
// starts at rs[i].
func skipEscape(rs []rune, i int) int {
	csi := rs[i] == 0x9b
	if !csi {
		if i+1 >= len(rs) {
			return i
		}
		switch rs[i+1] {
		case '[':
			csi, i = true, i+1
		case ']', 'P', '_', '^': // OSC, DCS, APC, PM: up to BEL or ST (ESC \)
			for j := i + 2; j < len(rs); j++ {
				if rs[j] == 0x07 || rs[j] == 0x9c {
					return j
				}
				if rs[j] == 0x1b && j+1 < len(rs) && rs[j+1] == '\\' {
					return j + 1
				}
			}
			return len(rs) - 1
		default: // a two-character escape such as ESC c
			return i + 1
		}
	}
	for j := i + 1; j < len(rs); j++ { // parameters and intermediates, then the final byte
		if rs[j] >= 0x40 && rs[j] <= 0x7e {
			return j
		}
	}
	return len(rs) - 1
}

// unsafeRune reports a character a table must not print as is.
func unsafeRune(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) || r == '\u2028' || r == '\u2029'
}
