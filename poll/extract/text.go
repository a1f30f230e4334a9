package extract

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
	"golang.org/x/text/encoding/charmap"
)

// This file is the one reader of text a user sees on a card: what a browser
// shows, not what .Text() returns (hidden duplicates, screen-reader labels,
// struck-through old prices, scripts and icon ligatures are left out).

// text is the visible text of n on one line.
func text(n *html.Node) string { return (*skipMemo)(nil).text(n) }

// skipMemo remembers which elements skipText left out, for reading the cards
// of a page many ways without judging their elements each time (a page may
// give every element a long inline style), what each class attribute says
// (the cards of a list repeat theirs), and the lines of each element read (a
// card's are asked for by its reader, the ad and badge checks and the units).
// A nil memo remembers nothing. Not safe for concurrent use.
type skipMemo struct {
	skipped    map[*html.Node]bool
	classes    map[string]classTraits
	classHints map[string][]string // see hints
	read       map[*html.Node][]string
	amounts    map[amountKey]string // see amount
}

func newSkipMemo() *skipMemo {
	return &skipMemo{skipped: map[*html.Node]bool{}, classes: map[string]classTraits{}, classHints: map[string][]string{}, read: map[*html.Node][]string{}, amounts: map[amountKey]string{}}
}

func (m *skipMemo) skip(n *html.Node) bool {
	if m == nil {
		return skipText(n)
	}
	if len(n.Attr) == 0 {
		return skipTextAs(n, classTraits{}) // judged by its tag alone: not worth a map entry
	}
	v, ok := m.skipped[n]
	if !ok {
		v = skipTextAs(n, m.classOf(n))
		m.skipped[n] = v
	}
	return v
}

// classOf is what n's class attribute says, judged once per distinct value.
func (m *skipMemo) classOf(n *html.Node) classTraits {
	class := attrOf(n, "class")
	if m == nil {
		return judgeClass(class)
	}
	t, ok := m.classes[class]
	if !ok {
		t = judgeClass(class)
		m.classes[class] = t
	}
	return t
}

// lines returns the visible text of n as the lines a browser lays out: a block
// element or <br> ends a line, inline elements join ("98 m<sup>2</sup>" is one
// line). Each line is cleaned (see clean); empty lines are dropped. Read once
// per element when m remembers (the slice is shared: callers do not change
// it); a nil m judges every element again.
func (m *skipMemo) lines(n *html.Node) []string {
	if m == nil {
		return readLines(n, m)
	}
	ls, ok := m.read[n]
	if !ok {
		ls = slices.Clip(readLines(n, m))
		m.read[n] = ls
	}
	return ls
}

// priceIn, sizeIn and roomsIn are findPrice, findSize and findRooms of a
// line, read once per distinct line when m remembers: a card's lines are
// searched for its price, its facts, its title and a badge, and the same
// line may be asked the same several times.
func (m *skipMemo) priceIn(s string) string { return m.amount(findPrice, 'p', s) }
func (m *skipMemo) sizeIn(s string) string  { return m.amount(findSize, 's', s) }
func (m *skipMemo) roomsIn(s string) string { return m.amount(findRooms, 'r', s) }

// amountKey is a line and which amount was looked for in it.
type amountKey struct {
	kind byte
	line string
}

func (m *skipMemo) amount(find func(string) string, kind byte, s string) string {
	if m == nil {
		return find(s)
	}
	k := amountKey{kind, s}
	a, ok := m.amounts[k]
	if !ok {
		a = find(s)
		m.amounts[k] = a
	}
	return a
}

func readLines(n *html.Node, m *skipMemo) []string {
	var out []string
	var cur line
	flush := func() {
		if s := cur.end(); s != "" {
			out = append(out, s)
		}
	}
	// crossed is an element's edge since the last text (see apart).
	crossed := false
	var walk func(*html.Node)
	walk = func(c *html.Node) {
		switch c.Type {
		case html.TextNode:
			if crossed && apart(cur.last(), c.Data) {
				cur.space = true
			}
			cur.add(c.Data)
			crossed = false
			return
		case html.ElementNode:
			if m.skip(c) {
				return
			}
		case html.DocumentNode:
		default:
			return
		}
		isBlock := c.Type == html.ElementNode && blockElement(c)
		if isBlock {
			flush()
		}
		// a superscript belongs to what stands before it: "m<sup>2</sup>" is one word
		edge := c.DataAtom != atom.Sup && c.DataAtom != atom.Sub
		crossed = edge
		for k := c.FirstChild; k != nil; k = k.NextSibling {
			walk(k)
		}
		crossed = crossed || edge
		if isBlock {
			flush()
		}
	}
	walk(n)
	flush()
	return out
}

// line is the line readLines is reading. Most lines are one text node's and
// are read as they are, without a copy; a line of several texts is joined in
// buf, one buffer for all the lines of an element. Whitespace between texts
// is kept as one space (clean folds it so anyway) and none at a line's ends:
// the indentation between blocks makes no string at all.
type line struct {
	one   string // the first text
	buf   []byte // the texts joined, once there are two
	n     int    // texts in the line
	space bool   // a space is due before the next text
}

func (l *line) add(s string) {
	if strings.TrimSpace(s) == "" {
		l.space = l.n > 0
		return
	}
	switch l.n {
	case 0:
		l.one = s
	case 1:
		l.buf = append(l.buf[:0], l.one...)
		fallthrough
	default:
		if l.space {
			l.buf = append(l.buf, ' ')
		}
		l.buf = append(l.buf, s...)
	}
	l.n++
	l.space = false
}

// last is the line's last character; a space when one is due or the line is
// empty.
func (l *line) last() rune {
	if l.n == 0 || l.space {
		return ' '
	}
	if l.n == 1 {
		r, _ := utf8.DecodeLastRuneInString(l.one)
		return r
	}
	r, _ := utf8.DecodeLastRune(l.buf)
	return r
}

// end returns the line read, cleaned ("" for none), and starts the next.
func (l *line) end() string {
	var s string
	switch {
	case l.n == 1:
		s = clean(l.one)
	case l.n > 1:
		s = clean(string(l.buf))
	}
	l.n, l.space = 0, false
	return s
}

func (m *skipMemo) text(n *html.Node) string {
	if n == nil {
		return ""
	}
	return strings.Join(m.lines(n), " ")
}

// ownText is the visible text of n's own text children (not of its elements).
func ownText(n *html.Node) string {
	var b strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
			b.WriteByte(' ')
		}
	}
	return clean(b.String())
}

// skipText reports whether an element's content is not text a user reads:
// scripts and styles, hidden elements, struck-through prices, icon glyphs.
func skipText(n *html.Node) bool { return skipTextAs(n, judgeClass(attrOf(n, "class"))) }

// skipTextAs is skipText of an element whose class says ct.
func skipTextAs(n *html.Node, ct classTraits) bool {
	switch n.DataAtom {
	case atom.Script, atom.Style, atom.Noscript, atom.Template, atom.Svg, atom.Head, atom.Title,
		atom.Select, atom.Option, atom.Iframe, atom.Object, atom.Input, atom.Textarea:
		return true
	}
	return hiddenAs(n, ct.hides) || struckAs(n, ct.strikes) || iconGlyphAs(n, ct.icon)
}

// classTraits is what a class attribute says about an element's text.
type classTraits struct {
	hides   bool   // see hidingClass
	strikes bool   // a struck-through old price (struckWords)
	icon    bool   // an icon font's class
	sig     uint64 // the classes as part of a group key (classSig)
}

func judgeClass(class string) classTraits {
	lower := strings.ToLower(class)
	return classTraits{
		hides:   hidingClass(class),
		strikes: struckText(lower),
		icon:    strings.Contains(lower, "icon") || strings.Contains(lower, "material-symbols") || strings.HasPrefix(lower, "fa"),
		sig:     classesSig(class),
	}
}

// hiddenAs reports whether the page hides n from the user: the hidden
// attribute, display:none / visibility:hidden, or a class that hides it
// (classHides: see hidingClass — hidden, d-none, sr-only, visually-hidden,
// print-only …, unless another class shows it again at a wider screen).
func hiddenAs(n *html.Node, classHides bool) bool {
	if n.Type != html.ElementNode {
		return false
	}
	if classHides {
		return true
	}
	for _, a := range n.Attr {
		switch a.Key {
		case "hidden":
			return true
		case "style":
			s := strings.ReplaceAll(strings.ToLower(a.Val), " ", "")
			if (strings.Contains(s, "display:none") || strings.Contains(s, "visibility:hidden")) && !expandable(n) {
				return true
			}
		}
	}
	return false
}

// expandable reports a panel the user opens with a click (Alpine's x-show,
// Vue's v-show): its content is the card's, only folded away.
func expandable(n *html.Node) bool {
	return slices.ContainsFunc(n.Attr, func(a html.Attribute) bool { return a.Key == "x-show" || a.Key == "v-show" || a.Key == "x-collapse" })
}

// hidingClasses hide an element on a desktop browser.
var hidingClasses = map[string]bool{
	"hidden": true, "d-none": true, "display-none": true, "is-hidden": true, "invisible": true,
	"sr-only": true, "visually-hidden": true, "visuallyhidden": true, "screen-reader-text": true,
	"screenreader-only": true, "a11y-hidden": true, "printonly": true, "print-only": true, "visible-print": true,
	"mobile-only": true, "show-mobile": true, "hidden-desktop": true, "panel-hidden": true,
	// phones only (Bootstrap 3, 4, Tailwind): hidden on a desktop's screen
	"visible-xs": true, "visible-xs-block": true, "visible-xs-inline": true, "visible-xs-inline-block": true,
	"d-sm-none": true, "d-md-none": true, "d-lg-none": true, "sm:hidden": true, "md:hidden": true, "lg:hidden": true,
	"hide": true, "u-hidden": true, "offscreen": true,
}

// hidingClass: one of the classes hides the element (matched as written:
// "hidden", not "Hidden") and none shows it again at a wider screen.
func hidingClass(class string) bool {
	classes := strings.Fields(class)
	return slices.ContainsFunc(classes, func(c string) bool { return hidingClasses[c] }) && !slices.ContainsFunc(classes, showsAtBreakpoint)
}

// showsAtBreakpoint: "md:block", "lg:flex" (Tailwind), "d-md-block" (Bootstrap).
func showsAtBreakpoint(c string) bool {
	return slices.ContainsFunc([]string{"block", "flex", "grid", "inline", "inline-block", "inline-flex", "table", "contents"}, func(d string) bool {
		return strings.HasSuffix(c, ":"+d) || strings.HasPrefix(c, "d-") && strings.HasSuffix(c, "-"+d) && c != "d-"+d
	})
}

// (aria-hidden is not hidden: it hides text from screen readers, which read an
// accessible name instead, while everyone else sees it — Facebook's titles.)

// struckAs reports whether n shows a struck-through (old) price: by its tag,
// its class (classStrikes) or its style.
func struckAs(n *html.Node, classStrikes bool) bool {
	switch n.DataAtom {
	case atom.S, atom.Del, atom.Strike:
		return true
	}
	if classStrikes {
		return true
	}
	style := attrOf(n, "style") // most elements have none: no words to look for
	return style != "" && struckText(strings.ToLower(style))
}

// struckText: a lower-case class or style that marks a struck-through price.
func struckText(v string) bool { return containsAny(v, struckWords) }

// containsAny reports whether s holds one of the words.
func containsAny(s string, words []string) bool {
	return slices.ContainsFunc(words, func(w string) bool { return strings.Contains(s, w) })
}

// struckWords mark a struck-through old price in a class or style.
var struckWords = []string{"old-price", "old_price", "oldprice", "price-old", "price--old", "strike", "line-through", "was-price", "previous-price", "price-before", "crossed"}

// iconGlyphAs reports an icon-font element (iconClass: its class is an icon
// font's) whose text is a ligature name ("adresse", "location_on"), not words
// for the user.
func iconGlyphAs(n *html.Node, iconClass bool) bool {
	if !iconClass || n.DataAtom != atom.Span && n.DataAtom != atom.I {
		return false
	}
	t := strings.TrimSpace(ownText(n))
	return t == "" || !strings.ContainsAny(t, " 0123456789")
}

// blockElement reports whether n renders on its own line.
func blockElement(n *html.Node) bool {
	switch n.DataAtom {
	case atom.Div, atom.P, atom.Li, atom.Ul, atom.Ol, atom.Br, atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6,
		atom.Tr, atom.Td, atom.Th, atom.Table, atom.Section, atom.Article, atom.Header, atom.Footer, atom.Dd, atom.Dt,
		atom.Dl, atom.Img, atom.Figure, atom.Figcaption, atom.Aside, atom.Main, atom.Nav, atom.Address, atom.Hr, atom.Button:
		return true
	}
	return false
}

// clean makes page text safe and tidy: control characters (terminal escapes)
// and invisible characters dropped, white space folded, mojibake repaired.
func clean(s string) string {
	if t := strings.TrimSpace(s); plainText(t) {
		return t // the common case: a phrase indented in the page's source
	}
	return fold(s)
}

// fold is clean of a text that may not be clean: mojibake repaired, then
// rune by rune.
func fold(s string) string {
	s = repairMojibake(s)
	var b strings.Builder
	space := false
	for _, r := range s {
		switch {
		case r == '\u00ad' || r == '\u200b' || r == '\u200c' || r == '\u200d' || r == '\ufeff' || r == '\u2060':
			continue // soft hyphen, zero-width characters
		case unicode.IsSpace(r) || r == '\u00a0' || r == '\u202f':
			space = b.Len() > 0
			continue
		case unicode.IsControl(r) || r == utf8.RuneError:
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// plainText reports text clean already: printable characters (ASCII, letters,
// signs such as "²", "–", "€", "·"), single ASCII spaces, none at either end,
// and nothing that could be mojibake (most of a page's texts): clean would
// give it back as it is.
func plainText(s string) bool {
	if s == "" || s[0] == ' ' || s[len(s)-1] == ' ' {
		return s == ""
	}
	ascii := true
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c < ' ' || c > '~' || c == ' ' && s[i+1] == ' ' {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError || !unicode.IsGraphic(r) || unicode.IsSpace(r) {
			return false // invalid UTF-8, a space, or a control or invisible character (soft hyphen, zero width)
		}
		ascii = false
		i += size
	}
	return ascii || !mayBeMojibake(s)
}

// repairMojibake undoes UTF-8 that was decoded as Windows-1252 and encoded
// again ("MÃ¼nchen" → "München", "â‚¬" → "€"): the text written back as
// Windows-1252 must be valid UTF-8, so correct text is left alone.
func repairMojibake(s string) string {
	if !mayBeMojibake(s) {
		return s
	}
	b := make([]byte, 0, len(s))
	for _, r := range s {
		c := byteOf(r)
		if c == 0 {
			return s // a character Windows-1252 has not: no mojibake
		}
		b = append(b, c)
	}
	if !utf8.Valid(b) {
		return s
	}
	return string(b)
}

// mayBeMojibake is a quick look for the start of a run: a character of
// Â…ß or à…ï (C3 82–AF), then one that Windows-1252 has for a byte 80–BF
// (C2 80–BF, or Š, ƒ, ˆ, € … which start with C5, C6, CB or E2). "Mädchen"
// and "Straße" have none.
func mayBeMojibake(s string) bool {
	for i := 0; i+2 < len(s); i++ {
		if s[i] == 0xC3 && s[i+1] >= 0x82 && s[i+1] <= 0xAF {
			switch s[i+2] {
			case 0xC2, 0xC5, 0xC6, 0xCB, 0xE2:
				return true
			}
		}
	}
	return false
}

// byteOf is the byte Windows-1252 writes as r (a C1 control stands for
// itself, as Latin-1 writes it), 0 for none.
func byteOf(r rune) byte {
	if b, ok := charmap.Windows1252.EncodeRune(r); ok {
		return b
	}
	if r >= 0x80 && r < 0xA0 {
		return byte(r)
	}
	return 0
}

// attrOf returns n's attribute key, "" when absent.
func attrOf(n *html.Node, key string) string {
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

// hasAttr reports whether n has the attribute key (its value may be empty).
func hasAttr(n *html.Node, key string) bool {
	return slices.ContainsFunc(n.Attr, func(a html.Attribute) bool { return a.Key == key })
}

// truncate shortens s to n runes with an ellipsis.
func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// apart reports whether the texts of two elements side by side (a, the
// first one's last character; after, the second's text) are read apart
// though no space is written between them: where a number meets a word or
// another number ("€ 2.350,00" "28 nov", "2 Beds" "1 Bath"), as a flex row
// shows them; two words stay one ("Dach" "terrasse").
func apart(a rune, after string) bool {
	b, _ := utf8.DecodeRuneInString(after)
	alnum := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	return alnum(a) && alnum(b) && (unicode.IsDigit(a) || unicode.IsDigit(b))
}
