package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// fold trims s, folds every run of white space (including no-break and other
// Unicode spaces) into one ASCII space, drops invisible characters (soft hyphen,
// zero-width space, BOM) and repairs double-encoded UTF-8 where detectable.
func fold(s string) string {
	clean := true
	prevSpace := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			clean = false
			break
		}
		sp := c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
		if sp && (prevSpace || c != ' ') {
			clean = false
			break
		}
		prevSpace = sp
	}
	if clean && !prevSpace {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	pending := false
	for _, r := range s {
		switch {
		case r == '\u00ad' || r == '\u200b' || r == '\u200c' || r == '\u200d' || r == '\u2060' || r == '\ufeff':
			continue
		case unicode.IsSpace(r) || r == '\u00a0' || r == '\u202f' || r == '\u2007':
			pending = b.Len() > 0
			continue
		}
		if pending {
			b.WriteByte(' ')
			pending = false
		}
		b.WriteRune(r)
	}
	return repairMojibake(b.String())
}

// cp1252 maps the Windows-1252 characters of bytes 0x80-0x9F to their byte.
var cp1252 = map[rune]byte{
	'€': 0x80, '‚': 0x82, 'ƒ': 0x83, '„': 0x84, '…': 0x85, '†': 0x86, '‡': 0x87,
	'ˆ': 0x88, '‰': 0x89, 'Š': 0x8A, '‹': 0x8B, 'Œ': 0x8C, 'Ž': 0x8E, '‘': 0x91,
	'’': 0x92, '“': 0x93, '”': 0x94, '•': 0x95, '–': 0x96, '—': 0x97, '˜': 0x98,
	'™': 0x99, 'š': 0x9A, '›': 0x9B, 'œ': 0x9C, 'ž': 0x9E, 'Ÿ': 0x9F,
}

// mojiByte returns the single byte r stands for when UTF-8 bytes were wrongly
// decoded as Windows-1252 / Latin-1.
func mojiByte(r rune) (byte, bool) {
	if r >= 0x80 && r <= 0xFF {
		return byte(r), true
	}
	b, ok := cp1252[r]
	return b, ok
}

// repairMojibake undoes UTF-8 that was decoded as Windows-1252 (or Latin-1) and
// encoded again ("MÃ¼nchen" → "München"). Only sequences that decode to valid
// multi-byte UTF-8 are replaced, so correct text is left alone.
func repairMojibake(s string) string {
	for range 2 { // text encoded twice over is repaired too
		r, changed := repairOnce(s)
		if !changed {
			break
		}
		s = r
	}
	return s
}

func repairOnce(s string) (string, bool) {
	// Quick check: a lead byte (U+00C2..U+00F4) followed by a continuation byte.
	found := false
	prevLead := false
	for _, r := range s {
		if prevLead {
			if b, ok := mojiByte(r); ok && b >= 0x80 && b <= 0xBF {
				found = true
				break
			}
		}
		prevLead = r >= 0xC2 && r <= 0xF4
	}
	if !found {
		return s, false
	}
	rs := []rune(s)
	var out strings.Builder
	out.Grow(len(s))
	changed := false
	buf := make([]byte, 0, 4)
	for i := 0; i < len(rs); {
		r := rs[i]
		if r >= 0xC2 && r <= 0xF4 {
			n := 2
			if r >= 0xE0 {
				n = 3
			}
			if r >= 0xF0 {
				n = 4
			}
			if i+n <= len(rs) {
				buf = buf[:0]
				buf = append(buf, byte(r))
				ok := true
				for _, c := range rs[i+1 : i+n] {
					b, m := mojiByte(c)
					if !m || b < 0x80 || b > 0xBF {
						ok = false
						break
					}
					buf = append(buf, b)
				}
				if ok {
					if dr, size := utf8.DecodeRune(buf); dr != utf8.RuneError && size == n {
						out.WriteRune(dr)
						i += n
						changed = true
						continue
					}
				}
			}
		}
		out.WriteRune(r)
		i++
	}
	return out.String(), changed
}

// skipped reports whether n's subtree carries no visible text.
func skipped(n *html.Node) bool {
	switch n.DataAtom {
	case atom.Script, atom.Style, atom.Template, atom.Noscript, atom.Svg, atom.Head, atom.Iframe, atom.Select:
		return true
	}
	for _, a := range n.Attr {
		switch a.Key {
		case "hidden":
			return true
		case "style":
			if strings.Contains(strings.ReplaceAll(a.Val, " ", ""), "display:none") {
				return true
			}
		}
	}
	return false
}

// struck reports whether n shows a struck-through (old) price.
func struck(n *html.Node) bool {
	switch n.DataAtom {
	case atom.S, atom.Del, atom.Strike:
		return true
	}
	c := attr(n, "class")
	if c == "" {
		return false
	}
	c = strings.ToLower(c)
	return strings.Contains(c, "old-price") || strings.Contains(c, "old_price") || strings.Contains(c, "oldprice") ||
		strings.Contains(c, "strike") || strings.Contains(c, "line-through") || strings.Contains(c, "was-price") ||
		strings.Contains(c, "price-old") || strings.Contains(c, "previous-price")
}

// block reports whether n renders on its own line (a word boundary around it).
func block(n *html.Node) bool {
	switch n.DataAtom {
	case atom.Div, atom.P, atom.Li, atom.Ul, atom.Ol, atom.Br, atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6,
		atom.Tr, atom.Td, atom.Th, atom.Table, atom.Section, atom.Article, atom.Header, atom.Footer, atom.Dd, atom.Dt,
		atom.Dl, atom.Img, atom.Figure, atom.Figcaption, atom.Aside, atom.Main, atom.Nav, atom.Address, atom.Hr:
		return true
	}
	return false
}

// text returns the folded visible text of n (scripts, styles, svg, hidden
// elements and struck-through prices left out; block elements separate words).
func text(n *html.Node) string {
	if n == nil {
		return ""
	}
	var b strings.Builder
	writeText(&b, n)
	return fold(b.String())
}

func writeText(b *strings.Builder, n *html.Node) {
	switch n.Type {
	case html.TextNode:
		b.WriteString(n.Data)
		return
	case html.ElementNode:
		if skipped(n) || struck(n) {
			return
		}
	case html.DocumentNode:
	default:
		return
	}
	blk := n.Type == html.ElementNode && block(n)
	if blk {
		b.WriteByte(' ')
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		writeText(b, c)
	}
	if blk {
		b.WriteByte(' ')
	}
}

// attr returns n's attribute key, "" when absent.
func attr(n *html.Node, key string) string {
	if n == nil {
		return ""
	}
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Key == key {
			return true
		}
	}
	return false
}

// hasClass reports whether n's class list contains c.
func hasClass(n *html.Node, c string) bool {
	for f := range strings.FieldsSeq(attr(n, "class")) {
		if f == c {
			return true
		}
	}
	return false
}

// nextElement is n's next element sibling.
func nextElement(n *html.Node) *html.Node {
	for s := n.NextSibling; s != nil; s = s.NextSibling {
		if s.Type == html.ElementNode {
			return s
		}
	}
	return nil
}

// truncate shortens s to at most n runes, marking the cut with "…".
func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	rs := []rune(s)
	return strings.TrimSpace(string(rs[:n-1])) + "…"
}
