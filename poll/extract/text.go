package extract

import (
	"bytes"
	"strings"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// fold trims s, folds every run of white space (including no-break and other
// Unicode spaces) into one ASCII space, drops invisible characters (soft hyphen,
// zero-width space, BOM) and repairs double-encoded UTF-8 where detectable.
func fold(s string) string {
	if foldClean(s) {
		return s
	}
	return foldSlow(s)
}

// foldClean reports whether fold leaves s as it is: single spaces between
// words and none at either end, no other white space or invisible character,
// valid UTF-8 and nothing repairMojibake would repair (German text is full of
// C3 bytes, "ä", "ü", "ß", and almost never mojibake: folding it to a copy of
// itself was most of the allocations of small pages).
func foldClean[T string | []byte](s T) bool {
	prevSpace := true
	c3 := false
	for i := 0; i < len(s); {
		c := s[i]
		if c > ' ' && c < utf8.RuneSelf { // most bytes: not white space, not to decode
			prevSpace = false
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			// German letters (ä, ö, ü, ß: C3 and a continuation byte,
			// U+00C0..U+00FF), the signs of C2 A1..BF but the soft
			// hyphen (£, §, °, ²: U+00A1..U+00BF) and the euro sign's
			// row (E2 82 xx, U+2080..U+20BF) hold no space and nothing
			// invisible: not decoded. (Lone or misplaced bytes go on to
			// the decoder.)
			if c == 0xC3 && i+1 < len(s) && s[i+1]&0xC0 == 0x80 {
				c3, prevSpace = true, false
				i += 2
				continue
			}
			if c == 0xC2 && i+1 < len(s) && s[i+1] >= 0xA1 && s[i+1] <= 0xBF && s[i+1] != 0xAD {
				prevSpace = false
				i += 2
				continue
			}
			if c == 0xE2 && i+2 < len(s) && s[i+1] == 0x82 && s[i+2]&0xC0 == 0x80 {
				prevSpace = false
				i += 3
				continue
			}
			c3 = c3 || c == 0xC3
			var buf [utf8.UTFMax]byte
			r, size := utf8.DecodeRune(buf[:copy(buf[:], s[i:])])
			if r == utf8.RuneError && size == 1 {
				return false
			}
			switch {
			case r == '\u00ad' || r == '\u200b' || r == '\u200c' || r == '\u200d' || r == '\u2060' || r == '\ufeff':
				return false // dropped
			case unicode.IsSpace(r) || r == '\u00a0' || r == '\u202f' || r == '\u2007':
				return false // folded into a space
			}
			prevSpace = false
			i += size
			continue
		}
		sp := c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
		if sp && (prevSpace || c != ' ') {
			return false
		}
		prevSpace = sp
		i++
	}
	// Every lead character of mojibake (U+00C2..U+00F4) is encoded C3 xx.
	return len(s) == 0 || !prevSpace && !(c3 && mayBeMojibake(s))
}

// mayBeMojibake is repairOnce's quick check: a lead character (U+00C2..U+00F4)
// followed by one that stands for a continuation byte. Without one,
// repairMojibake returns s as it is.
//
// The lead characters are the bytes C3 82..C3 B4, and a C3 byte always starts
// a character (it is no continuation byte): only the character after such a
// pair is decoded.
func mayBeMojibake[T string | []byte](s T) bool {
	for i := 0; i+2 < len(s); i++ {
		if s[i] != 0xC3 || s[i+1] < 0x82 || s[i+1] > 0xB4 {
			continue
		}
		var buf [utf8.UTFMax]byte
		r, _ := utf8.DecodeRune(buf[:copy(buf[:], s[i+2:])])
		if r >= utf8.RuneSelf { // (mojiByte maps no ASCII)
			if b, ok := mojiByte(r); ok && b >= 0x80 && b <= 0xBF {
				return true
			}
		}
	}
	return false
}

func foldSlow[T string | []byte](s T) string {
	bp := getBuf()
	b := foldAppend((*bp)[:0], s)
	t := repairMojibake(string(b))
	putBuf(bp, b)
	return t
}

// foldAppend appends fold(s) to dst, but for the mojibake repair. dst may be
// s[:0] when s is valid UTF-8: the folded text is never longer then.
func foldAppend[T string | []byte](dst []byte, s T) []byte {
	start := len(dst)
	pending := false
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch c {
			case ' ', '\t', '\n', '\r', '\f', '\v':
				pending = len(dst) > start
				continue
			}
			if pending {
				dst = append(dst, ' ')
				pending = false
			}
			dst = append(dst, c)
			continue
		}
		var buf [utf8.UTFMax]byte
		r, size := utf8.DecodeRune(buf[:copy(buf[:], s[i:])])
		i += size
		switch {
		case r == '\u00ad' || r == '\u200b' || r == '\u200c' || r == '\u200d' || r == '\u2060' || r == '\ufeff':
			continue
		case unicode.IsSpace(r) || r == '\u00a0' || r == '\u202f' || r == '\u2007':
			pending = len(dst) > start
			continue
		}
		if pending {
			dst = append(dst, ' ')
			pending = false
		}
		dst = utf8.AppendRune(dst, r)
	}
	return dst
}

// foldInto folds raw text in place when it can (valid UTF-8), else into
// other; the result is fold(string(raw)) but for the mojibake repair.
func foldInto(raw, other []byte) []byte {
	if foldClean(raw) {
		return raw
	}
	if utf8.Valid(raw) {
		return foldAppend(raw[:0], raw)
	}
	return foldAppend(other[:0], raw)
}

// appendLower appends strings.ToLower(string(s)) to dst.
func appendLower[T string | []byte](dst []byte, s T) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			dst = append(dst, c)
			i++
			continue
		}
		var buf [utf8.UTFMax]byte
		r, size := utf8.DecodeRune(buf[:copy(buf[:], s[i:])])
		i += size
		dst = utf8.AppendRune(dst, unicode.ToLower(r))
	}
	return dst
}

// lowerText is strings.ToLower(text(n)) + " ".
func lowerText(n *html.Node) string {
	raw, other, lower := getBuf(), getBuf(), getBuf()
	r := appendText((*raw)[:0], n)
	f := foldInto(r, *other)
	if bytes.IndexByte(f, 0xC3) >= 0 {
		f = append((*other)[:0], repairMojibake(string(f))...)
	}
	l := append(appendLower((*lower)[:0], f), ' ')
	out := string(l)
	putBuf(raw, r)
	putBuf(lower, l)
	putBuf(other, *other)
	return out
}

// scratch holds a few buffers for building texts, taken and given back with
// one atomic operation each (the many short texts of a page made sync.Pool's
// cost show).
var scratch [4]atomic.Pointer[[]byte]

func getBuf() *[]byte {
	for i := range scratch {
		if b := scratch[i].Swap(nil); b != nil {
			return b
		}
	}
	b := make([]byte, 0, 512)
	return &b
}

// putBuf gives bp back, with b (a use of it, maybe grown) as its contents.
func putBuf(bp *[]byte, b []byte) {
	if cap(b) > 1<<20 {
		return // a huge page's: not kept
	}
	if cap(b) >= cap(*bp) {
		*bp = b[:0]
	} else {
		*bp = (*bp)[:0]
	}
	for i := range scratch {
		if scratch[i].CompareAndSwap(nil, bp) {
			return
		}
	}
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
	if strings.IndexByte(s, 0xC3) < 0 {
		return s // no lead character (U+00C2..U+00F4 are encoded C3 82..C3 B4)
	}
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
	if !mayBeMojibake(s) {
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

// trimmedLen is len(strings.TrimSpace(s)), without looking further when s
// starts with ASCII other than white space and ends with it or with another
// character that is not white space ("415,50 €": most texts).
func trimmedLen(s string) int {
	if s != "" {
		if c, d := s[0], s[len(s)-1]; c > ' ' && c < utf8.RuneSelf {
			if d > ' ' && d < utf8.RuneSelf {
				return len(s)
			}
			if d >= utf8.RuneSelf {
				if r, size := utf8.DecodeLastRuneInString(s); size > 1 && !unicode.IsSpace(r) {
					return len(s)
				}
			}
		}
	}
	return len(strings.TrimSpace(s))
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
			if hidesDisplay(a.Val) {
				return true
			}
		}
	}
	return false
}

// lowerContains reports whether strings.ToLower(s) contains one of subs
// (lower case), without lower-casing ASCII s (class names in CamelCase made
// it allocate for every element).
func lowerContains(s string, subs ...string) bool {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if !ascii {
		l := strings.ToLower(s)
		for _, sub := range subs {
			if strings.Contains(l, sub) {
				return true
			}
		}
		return false
	}
	for _, sub := range subs {
		if containsFoldASCII(s, sub) {
			return true
		}
	}
	return false
}

// containsFoldASCII reports whether ASCII s, lower-cased, contains sub.
func containsFoldASCII(s, sub string) bool {
	if sub == "" {
		return true
	}
	c0 := sub[0]
	for i := 0; i+len(sub) <= len(s); i++ {
		if lowerASCII(s[i]) != c0 {
			continue
		}
		j := 1
		for j < len(sub) && lowerASCII(s[i+j]) == sub[j] {
			j++
		}
		if j == len(sub) {
			return true
		}
	}
	return false
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// hidesDisplay reports whether a style attribute says display:none (spaces
// anywhere in it ignored, as strings.ReplaceAll(v, " ", "") would).
func hidesDisplay(v string) bool {
	const pat = "display:none"
	for i := strings.IndexByte(v, 'd'); i >= 0; {
		j, k := i, 0
		for k < len(pat) && j < len(v) {
			if v[j] == ' ' {
				j++
				continue
			}
			if v[j] != pat[k] {
				break
			}
			j++
			k++
		}
		if k == len(pat) {
			return true
		}
		next := strings.IndexByte(v[i+1:], 'd')
		if next < 0 {
			break
		}
		i += 1 + next
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
	if !mayMarkStruck(c) {
		return false // every mark below holds one of these
	}
	return lowerContains(c, "old-price", "old_price", "oldprice", "strike", "line-through", "was-price", "price-old", "previous-price")
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
	if t, ok := textShort(n); ok {
		return t
	}
	bp := getBuf()
	raw := appendText((*bp)[:0], n)
	var t string
	switch {
	case foldClean(raw):
		t = string(raw)
	case utf8.Valid(raw):
		t = repairMojibake(string(foldAppend(raw[:0], raw)))
	default:
		t = foldSlow(raw)
	}
	putBuf(bp, raw)
	return t
}

// textShort is text(n) when it is a text the tree holds as it is: n is a
// text, or elements each holding only the next down to one text
// (<h2><a>Title</a></h2>), that folding leaves as it is (with no mojibake
// either; the spaces blocks add are folded away). false otherwise.
func textShort(n *html.Node) (string, bool) {
	switch n.Type {
	case html.TextNode:
		if foldClean(n.Data) {
			return n.Data, true
		}
	case html.ElementNode:
		x := n
		for x.Type == html.ElementNode && x.FirstChild != nil && x.FirstChild == x.LastChild && !skipped(x) && !struck(x) {
			x = x.FirstChild
		}
		if x.Type == html.TextNode && foldClean(x.Data) {
			return x.Data, true
		}
	}
	return "", false
}

// textAtLeast reports whether len(text(n)) >= k, reading n's text only as
// far as it has to and building no string (the card search asks whether a
// link's text, often a whole table row's, is of some length). It counts what
// foldAppend would write; mojibake repair, which shortens text, changes it
// only from a lead character on (U+00C2..U+00F4, encoded C3 82..C3 B4) that
// a character standing for a continuation byte follows, never an ASCII one:
// up to the first lead character followed by a non-ASCII byte or by the
// end of its text node, or up to an invalid byte (the text joins its nodes'
// bytes: a character split by a tag is whole there), the count is exact, and
// from there on text decides.
// (German text has leads — ä, ß, Ä, Ö, Ü — followed by letters.)
func textAtLeast(n *html.Node, k int) bool {
	if k <= 0 {
		return true
	}
	if n == nil {
		return false
	}
	c := textCount{k: k}
	switch c.node(n) {
	case countReached:
		return true
	case countUnsure:
		return len(text(n)) >= k
	}
	return false
}

// textCount is textAtLeast's count of folded bytes.
type textCount struct {
	k, n    int
	pending bool // white space seen since the last character written
}

const (
	countGoing   = iota // under k so far
	countReached        // k bytes reached
	countUnsure         // a C3 byte came first: maybe mojibake
)

// node counts n's text as appendText gathers it.
func (c *textCount) node(n *html.Node) int {
	switch n.Type {
	case html.TextNode:
		return c.str(n.Data)
	case html.ElementNode:
		if skipped(n) || struck(n) {
			return countGoing
		}
	case html.DocumentNode:
	default:
		return countGoing
	}
	blk := n.Type == html.ElementNode && block(n)
	if blk {
		c.pending = c.n > 0
	}
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		if st := c.node(ch); st != countGoing {
			return st
		}
	}
	if blk {
		c.pending = c.n > 0
	}
	return countGoing
}

// str counts s as foldAppend writes it.
func (c *textCount) str(s string) int {
	for i := 0; i < len(s); {
		b := s[i]
		w := 1 // bytes written for the character
		if b < utf8.RuneSelf {
			i++
			switch b {
			case ' ', '\t', '\n', '\r', '\f', '\v':
				c.pending = c.n > 0
				continue
			}
		} else {
			if b == 0xC3 && i+1 < len(s) && s[i+1] >= 0x82 && s[i+1] <= 0xB4 && (i+2 >= len(s) || s[i+2] >= utf8.RuneSelf) {
				return countUnsure // (a lead character that may start mojibake)
			}
			if (b == 0xC3 && i+1 < len(s) && s[i+1]&0xC0 == 0x80) ||
				(b == 0xC2 && i+1 < len(s) && s[i+1] >= 0xA1 && s[i+1] <= 0xBF && s[i+1] != 0xAD) {
				// German letters and the signs of C2 A1..BF but the soft
				// hyphen: a character of two bytes, not decoded (see
				// foldClean).
				i, w = i+2, 2
			} else {
				r, size := utf8.DecodeRuneInString(s[i:])
				if r == utf8.RuneError && size == 1 {
					// An invalid byte: the text joins its nodes' bytes, so
					// it may be part of a character split by a tag.
					return countUnsure
				}
				i += size
				switch {
				case r == '\u00ad' || r == '\u200b' || r == '\u200c' || r == '\u200d' || r == '\u2060' || r == '\ufeff':
					continue
				case unicode.IsSpace(r) || r == '\u00a0' || r == '\u202f' || r == '\u2007':
					c.pending = c.n > 0
					continue
				}
				w = utf8.RuneLen(r) // (an invalid byte is written as U+FFFD)
			}
		}
		if c.pending {
			c.n++
			c.pending = false
		}
		if c.n += w; c.n >= c.k {
			return countReached
		}
	}
	return countGoing
}

func appendText(b []byte, n *html.Node) []byte {
	switch n.Type {
	case html.TextNode:
		return append(b, n.Data...)
	case html.ElementNode:
		if skipped(n) || struck(n) {
			return b
		}
	case html.DocumentNode:
	default:
		return b
	}
	blk := n.Type == html.ElementNode && block(n)
	if blk {
		b = append(b, ' ')
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		b = appendText(b, c)
	}
	if blk {
		b = append(b, ' ')
	}
	return b
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

// mayMarkStruck is lowerContains(c, "price", "strike", "line-through") in one
// pass over ASCII (texts test it on every element they cross).
func mayMarkStruck(c string) bool {
	for i := 0; i < len(c); i++ {
		b := c[i]
		if b >= utf8.RuneSelf {
			return lowerContains(c, "price", "strike", "line-through")
		}
		var w string
		switch b | 0x20 {
		case 'p':
			w = "price"
		case 's':
			w = "strike"
		case 'l':
			w = "line-through"
		default:
			continue
		}
		if len(c)-i >= len(w) && hasPrefixFoldASCII(c[i:], w) {
			return true
		}
	}
	return false
}

// hasPrefixFoldASCII reports whether s starts with w (lower-case ASCII) in any case.
func hasPrefixFoldASCII(s, w string) bool {
	for j := 0; j < len(w); j++ {
		if lowerASCII(s[j]) != w[j] {
			return false
		}
	}
	return true
}
