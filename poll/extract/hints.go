package extract

import (
	"slices"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// This file names a card's elements by their attributes: the words of a
// class, itemprop, data-testid or id that say what an element holds (a title,
// a price, a place), which the field readers look for first.

var (
	titleHint    = hintSet("title", "titel", "headline", "heading", "subject", "name")
	notTitleHint = hintSet("subtitle", "username", "agent", "agency", "broker", "company", "provider", "publisher", "realtor", "makler", "user")
	priceHint    = hintSet("price", "prices", "preis", "kaufpreis", "mietpreis", "miete", "kaltmiete", "rent", "cost", "betrag", "amount")
	notPriceHint = hintSet("old", "before", "previous", "sqm", "m2", "qm", "label", "finanzierung", "rate", "monthly", "strike")
	placeHint    = hintSet("location", "address", "adress", "addr", "place", "city", "district", "region", "geo", "standort", "ort", "lage", "locality", "marker", "pin")
	addressHint  = hintSet("address", "adress", "addr", "adresse", "street", "strasse")
)

// hints are the words of the attributes that name what an element holds
// (class, itemprop, data-testid, id; an <address> is an address), split at punctuation and camelCase —
// "SearchResultCardContent-module__5Ax9ZW__price" holds "price" — of those
// any hint set knows (nil when none). The class's words come from m, judged
// once per page (a card's classes repeat on every card).
func hints(n *html.Node, m *skipMemo) []string {
	words := slices.Clip(m.hintsOfClass(attrOf(n, "class"))) // shared: append copies it
	for _, key := range []string{"itemprop", "data-testid", "data-test", "data-qa", "id"} {
		words = appendHintWords(words, attrOf(n, key))
	}
	if n.DataAtom == atom.Address && !slices.Contains(words, "address") {
		words = append(words, "address") // the element names what it holds
	}
	return words
}

// hintsOfClass is appendHintWords of a class attribute, once per page.
func (m *skipMemo) hintsOfClass(class string) []string {
	if m == nil {
		return appendHintWords(nil, class)
	}
	words, ok := m.classHints[class]
	if !ok {
		words = appendHintWords(nil, class)
		m.classHints[class] = words
	}
	return words
}

// appendHintWords appends the words of v that a hint set knows.
func appendHintWords(words []string, v string) []string {
	start := -1
	for i := 0; i <= len(v); i++ {
		letter := i < len(v) && (v[i] >= 'a' && v[i] <= 'z' || v[i] >= 'A' && v[i] <= 'Z')
		upper := letter && v[i] <= 'Z'
		if start >= 0 && (!letter || upper && v[i-1] >= 'a') {
			if w := strings.ToLower(v[start:i]); hintVocabulary[w] && !slices.Contains(words, w) {
				words = append(words, w)
			}
			start = -1
		}
		if letter && start < 0 {
			start = i
		}
	}
	return words
}

// hintVocabulary is every word a hint set knows: only those are kept.
var hintVocabulary = func() map[string]bool {
	all := map[string]bool{}
	for _, h := range []hintWords{titleHint, notTitleHint, priceHint, notPriceHint, placeHint, addressHint} {
		for w := range h {
			all[w] = true
		}
	}
	return all
}()

// named is an element of a card whose attributes name what it holds.
type named struct {
	node  *html.Node
	words []string
}

// namedIn lists a card's elements that have hint words, in document order.
func namedIn(n *html.Node, m *skipMemo) []named {
	var out []named
	var walk func(*html.Node)
	walk = func(e *html.Node) {
		if e.Type != html.ElementNode {
			return
		}
		ct := m.classOf(e)
		icon := e.DataAtom == atom.Svg || iconGlyphAs(e, ct.icon)
		if m.skip(e) && !(icon && !hiddenAs(e, ct.hides)) {
			return
		}
		if w := hints(e, m); len(w) > 0 {
			out = append(out, named{e, w})
		}
		if icon {
			return // an icon names what stands beside it; it holds no text
		}
		for c := e.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return out
}

// hintSet matches hint words.
type hintWords map[string]bool

func hintSet(words ...string) hintWords {
	h := hintWords{}
	for _, w := range words {
		h[w] = true
	}
	return h
}

// in reports whether any of an element's hint words is in the set.
func (h hintWords) in(words []string) bool {
	return slices.ContainsFunc(words, func(w string) bool { return h[w] })
}
