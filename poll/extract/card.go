package extract

import (
	"cmp"
	"net/url"
	"regexp"
	"strings"
	"unicode"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"notifio/internal/model"
)

// This file reads one card: its title, price, size, rooms, location, picture
// and promotion, the same way for every site. A profile or the user's
// selectors may name an element for a field; what they leave open is read here
// (title.go, prices.go, sizes.go, places.go, paid.go; hints.go names a card's
// elements by their attributes).

// reDistance is a distance after a place ("Köln (12 km)"): not part of it.
var reDistance = regexp.MustCompile(`\s*\(?\s*(?:ca\.\s*)?\d+(?:[.,]\d+)?\s?km\s*\)?$`)

// fieldSel names elements of a card for fields; "" means read it generically.
type fieldSel struct {
	Title, Price, Location, Size, Rooms string
	Promoted                            string // cards that are paid highlights of a result
	// LocationAfter: the location is what follows the first occurrence of
	// this in the location element ("3er WG | Köln Ehrenfeld | …" after "|").
	LocationAfter string
}

// readCard reads the listing of one card whose URL is known; memo is the
// page's (see skipMemo).
func readCard(c card, base *url.URL, fs fieldSel, memo *skipMemo) model.PageListing {
	s := goquery.NewDocumentFromNode(c.node).Selection
	f := factsOf(c.node, memo)
	nm := namedIn(c.node, memo)
	c.lines = memo.lines(c.node)
	l := model.PageListing{URL: c.url.String()}
	l.Title = withoutBadge(pick(s, fs.Title, func() string { return cardTitle(s, c, f, nm, memo) }))
	l.Price = pick(s, fs.Price, func() string {
		if p := cardPrice(c.lines, f, nm, memo); p != "" {
			return p
		}
		return findPrice(clean(linkLabel(s, c))) // "… - Sassenberg - 2.474.300 € - 532 m²"
	})
	if fs.Price != "" {
		l.Price = cmp.Or(findPrice(l.Price), l.Price)
	}
	l.PriceValue, l.Currency = priceValue(l.Price)
	l.Location = pick(s, fs.Location, func() string { return cardLocation(c.lines, f, nm, l.Title, memo) })
	if _, after, ok := strings.Cut(l.Location, fs.LocationAfter); ok && fs.LocationAfter != "" {
		l.Location = after
	}
	if strings.Contains(l.Location, "km") {
		l.Location = reDistance.ReplaceAllString(l.Location, "")
	}
	l.Location = strings.TrimSpace(l.Location)
	fl := factLines(c.lines, l.Title, memo)
	l.Size = pick(s, fs.Size, func() string { return cardSize(fl, f, memo) })
	l.Rooms = pick(s, fs.Rooms, func() string { return cardRooms(fl, f, memo) })
	l.Image = cardImage(c.node, base)
	l.Promoted = promoted(c.node, memo) || fs.Promoted != "" && s.IsMatcher(matcher(fs.Promoted))
	return l
}

// pick reads a field with the named selector, else generically.
func pick(s *goquery.Selection, sel string, generic func() string) string {
	if sel == "" {
		return generic()
	}
	if m := s.FindMatcher(matcher(sel)).First(); m.Length() > 0 {
		return text(m.Get(0))
	}
	return ""
}

// letters counts the letters of s.
func letters(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			n++
		}
	}
	return n
}

// cardImage: the first picture of the card (lazy-loading attributes first).
func cardImage(card *html.Node, base *url.URL) string {
	img := firstInside(card, atom.Img)
	if img == nil {
		return ""
	}
	for _, key := range []string{"data-src", "data-lazy-src", "data-original", "src"} {
		if v := attrOf(img, key); hasAttr(img, key) && !strings.HasPrefix(v, "data:") {
			if u, ok := resolveLink(base, v); ok {
				return u.String()
			}
		}
	}
	return ""
}

// eachInside calls fn for each element under n (n itself left out), in
// document order. A card's few elements are walked directly, with no
// selector and no Selection made for the nodes wanted (this runs for every
// card).
func eachInside(n *html.Node, fn func(*html.Node)) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			fn(c)
			eachInside(c, fn)
		}
	}
}

// firstInside is the first element of the atom a under n (n itself left
// out), in document order; nil for none (see eachInside).
func firstInside(n *html.Node, a atom.Atom) *html.Node {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		if c.DataAtom == a {
			return c
		}
		if f := firstInside(c, a); f != nil {
			return f
		}
	}
	return nil
}
