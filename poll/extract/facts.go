package extract

import (
	"regexp"
	"strings"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// This file reads a card's labelled facts: "Zimmer 3", "Wohnfläche 150 m²",
// "Kaltmiete: 800,00 €" — as dt/dd pairs, as a label and a value in one small
// element, as a label in a title/aria-label attribute, or as "Label: value".

// facts maps a lower-case label to the value shown beside it.
type facts map[string]string

var (
	priceLabels = []string{"kaltmiete", "nettokaltmiete", "kaufpreis", "miete", "mietpreis", "preis", "price", "rent", "monthly rent", "cena", "prix", "prezzo", "precio", "warmmiete", "gesamtmiete", "nutzungsgebühr", "nutzungsentgelt"}
	sizeLabels  = []string{"wohnfläche", "fläche", "größe", "living area", "living space", "size", "area", "wfl", "surface", "powierzchnia"}
	roomLabels  = []string{"zimmer", "zimmeranzahl", "anzahl zimmer", "räume", "rooms", "zi", "pokoje", "zimmerzahl"}
	placeLabels = []string{"adresse", "address", "lage", "ort", "standort", "location", "anschrift", "stadtteil", "bezirk"}
	titleLabels = []string{"objekt", "titel", "title", "bezeichnung", "angebot", "wohnung", "name"}
)

// get returns the value of the first label of the list that the card shows.
func (f facts) get(labels []string) string {
	for _, l := range labels {
		if v, ok := f[l]; ok {
			return v
		}
	}
	return ""
}

// factsOf collects the labelled facts of a card; the innermost pair wins. A
// table row's cells are labelled by the table's column headings.
func factsOf(n *html.Node, m *skipMemo) facts {
	f := facts{}
	if n.DataAtom == atom.Tr {
		columnFacts(n, f)
	}
	// walk sums up what e holds: only small elements (a label and its value)
	// are read as a fact, so a card is not read once per level.
	var walk func(*html.Node) span
	walk = func(e *html.Node) span {
		if e.Type == html.TextNode {
			return span{textLen: len(e.Data), amount: amountSign(e.Data), colon: strings.Contains(e.Data, ":")}
		}
		if e.Type != html.ElementNode || m.skip(e) {
			return span{}
		}
		in := span{elements: 1}
		for c := e.FirstChild; c != nil; c = c.NextSibling {
			in.add(walk(c))
		}
		sp := in
		sp.breaks = sp.breaks || blockElement(e)
		if in.elements > maxFactElements {
			return sp
		}
		if e.DataAtom == atom.Dt {
			if dd := nextElementSibling(e); dd != nil && dd.DataAtom == atom.Dd {
				f.add(m.text(e), m.text(dd))
			}
			return sp
		}
		if mayHoldFact(e, in.colon) {
			f.read(e, m, in.linesMayHoldFact())
		}
		return sp
	}
	walk(n)
	return f
}

// span sums up a visible subtree for factsOf.
type span struct {
	elements int  // elements, its root included
	textLen  int  // bytes of text, white space included
	amount   bool // a digit or a currency sign in the text
	colon    bool // a ':' in the text
	breaks   bool // an element that starts a line (blockElement)
}

func (s *span) add(c span) {
	s.elements += c.elements
	s.textLen += c.textLen
	s.amount = s.amount || c.amount
	s.colon = s.colon || c.colon
	s.breaks = s.breaks || c.breaks
}

// amountSign reports a digit, "€" or "$": what label leaves to values, so a
// text without one is a value only when it is longer than a label can be.
// (The set is split so that ContainsAny takes its ASCII path: with "€" in
// the set it compared every rune of the text with every sign.)
func amountSign(s string) bool {
	return strings.ContainsAny(s, "0123456789$") || strings.Contains(s, "€")
}

// linesMayHoldFact: the lines of an element holding s can give a fact (see
// facts.read): its text can hold a value (see label), and it is two lines
// (something inside starts a line) or "Label: value".
func (s span) linesMayHoldFact() bool {
	return (s.amount || s.textLen > maxLabelLen) && (s.breaks || s.colon)
}

// columnFacts labels a row's cells with the headings of their columns; a
// heading's unit ("Nutzungsgebühr (€)", "Fläche (m²)") is its bare amounts'.
func columnFacts(tr *html.Node, f facts) {
	hr := headRow(tr)
	if hr == nil {
		return
	}
	heads := goquery.NewDocumentFromNode(hr).FindMatcher(matcher("th"))
	i := 0
	for c := tr.FirstChild; c != nil; c = c.NextSibling {
		if c.DataAtom != atom.Td && c.DataAtom != atom.Th {
			continue
		}
		head := text(heads.Get(min(i, heads.Length()-1)))
		unit := reHeadUnit.FindStringSubmatch(head)
		if unit != nil {
			head = strings.Replace(head, unit[0], "", 1)
		}
		if k, v := label(head), text(c); i < heads.Length() && k != "" && v != "" && f[k] == "" {
			if unit != nil && bareAmount(v) {
				v += " " + unit[1]
			}
			f[k] = v
		}
		i++
	}
}

// reHeadUnit is a column heading's unit in brackets: "(€)", "[m²]".
var reHeadUnit = regexp.MustCompile(`\s*[(\[]\s*([^()\[\]]{1,5}?)\s*[)\]]`)

// headRow is the first row of headings of the table around n (nil when none).
func headRow(n *html.Node) *html.Node {
	table := tableOf(n)
	if table == nil {
		return nil
	}
	rows := goquery.NewDocumentFromNode(table).FindMatcher(matcher("tr")).FilterFunction(func(_ int, s *goquery.Selection) bool {
		return s.FindMatcher(matcher("th")).Length() > 0
	})
	if rows.Length() == 0 {
		return nil
	}
	return rows.Get(0)
}

// tableOf is the table around n (nil when none).
func tableOf(n *html.Node) *html.Node {
	for p := n.Parent; p != nil; p = p.Parent {
		if p.DataAtom == atom.Table {
			return p
		}
	}
	return nil
}

// mayHoldFact: a label in an attribute, a label element beside a value (one
// to three children), or a "Label: value" text of its own (colon: e's text
// holds one, as the walk that sized it found).
func mayHoldFact(e *html.Node, colon bool) bool {
	if attrOf(e, "title") != "" || attrOf(e, "aria-label") != "" {
		return true
	}
	kids := 0
	for c := e.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			kids++
		}
	}
	if kids == 0 {
		return colon
	}
	return kids <= 3
}

// reSpokenFact is a fact a title or aria-label words whole, the label before
// or after the value ("Wohnfläche 95 m²", "4 Zimmer"): the element's own text
// may glue the two ("Zimmer4").
var reSpokenFact = regexp.MustCompile(`^(\pL[\pL. ]*?)?\s*(\d+(?:[.,]\d+)?(?:\s?m²)?)\s*(\pL[\pL.]*)?$`)

// spokenFact matches reSpokenFact (nil when a holds no number, without
// running the pattern: most such attributes are words).
func spokenFact(a string) []string {
	if !hasDigit(a) {
		return nil
	}
	return reSpokenFact.FindStringSubmatch(a)
}

const (
	maxFactElements = 8  // the most elements a label-and-value pair spans
	maxLabelLen     = 30 // the longest label, in bytes
)

// read takes the fact one small element shows: a label in its title or
// aria-label, a label line and a value line, or "Label: value" (its lines
// only when readLines: see span.linesMayHoldFact).
func (f facts) read(e *html.Node, m *skipMemo, readLines bool) {
	for _, key := range []string{"title", "aria-label"} {
		if a := attrOf(e, key); a != "" && e.DataAtom != atom.A {
			if v := m.text(e); v != "" && len(v) < 40 {
				f.add(strings.TrimSuffix(strings.TrimSpace(strings.ReplaceAll(a, v, "")), ":"), v)
			}
			if sf := spokenFact(a); sf != nil {
				f.add(sf[1]+sf[3], sf[2]) // what a screen reader says: "4 Zimmer"
			}
		}
	}
	if !readLines {
		return
	}
	ls := m.lines(e)
	switch {
	case len(ls) == 2:
		if label(ls[0]) != "" {
			f.add(ls[0], ls[1])
		} else if label(ls[1]) != "" {
			f.add(ls[1], ls[0])
		}
	case len(ls) == 1:
		if k, v, ok := strings.Cut(ls[0], ": "); ok {
			f.add(k, v)
		}
	}
}

// add records a label's value unless a smaller element gave it already.
func (f facts) add(lbl, value string) {
	k := label(lbl)
	value = strings.TrimSpace(value)
	if k == "" || value == "" || label(value) != "" {
		return
	}
	if _, ok := f[k]; !ok {
		f[k] = value
	}
}

// label normalises text that can be a fact's label ("Wohnfläche ca.:" →
// "wohnfläche"), "" when the text holds a digit or is too long for a label.
func label(s string) string {
	if hasDigit(s) {
		return "" // as amountSign below says, before the text is cleaned and lower-cased
	}
	s = strings.ToLower(clean(s))
	s = strings.TrimSuffix(s, ":")
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(s, " ca."), " ca"))
	s = strings.TrimSuffix(s, ".")
	if s == "" || len(s) > maxLabelLen || amountSign(s) {
		return ""
	}
	return s
}

func nextElementSibling(n *html.Node) *html.Node {
	for c := n.NextSibling; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			return c
		}
	}
	return nil
}
