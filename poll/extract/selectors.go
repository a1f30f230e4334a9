package extract

import (
	"fmt"
	"strings"

	"github.com/andybalholm/cascadia"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// userSelectors are the user's compiled selectors.
type userSelectors struct {
	item, link, title, price cascadia.Selector
}

// compileSelectors compiles the user's selectors; nil when there are none. The
// error names the selector and what is wrong with it.
func compileSelectors(s Selectors) (*userSelectors, error) {
	s.Item, s.Link, s.Title, s.Price = strings.TrimSpace(s.Item), strings.TrimSpace(s.Link), strings.TrimSpace(s.Title), strings.TrimSpace(s.Price)
	if s.Item == "" {
		var set []string
		for _, f := range []struct{ name, v string }{{"link", s.Link}, {"title", s.Title}, {"price", s.Price}} {
			if f.v != "" {
				set = append(set, f.name)
			}
		}
		if len(set) > 0 {
			return nil, fmt.Errorf("the %s selector needs an item selector too: it is matched inside each item (set the item selector to the element that wraps one listing, e.g. \"li.result\")", strings.Join(set, "/"))
		}
		return nil, nil
	}
	var us userSelectors
	for _, f := range []struct {
		name string
		v    string
		dst  *cascadia.Selector
	}{{"item", s.Item, &us.item}, {"link", s.Link, &us.link}, {"title", s.Title, &us.title}, {"price", s.Price, &us.price}} {
		if f.v == "" {
			continue
		}
		c, err := cascadia.Compile(f.v)
		if err != nil {
			return nil, fmt.Errorf("the %s selector %q is not valid CSS: %v", f.name, f.v, err)
		}
		*f.dst = c
	}
	return &us, nil
}

// bySelectors extracts with the user's selectors: each item match is one
// listing; link/title/price are matched inside it (the item itself may be the
// link), and whatever they leave open is read as the generic cards are.
func (p *page) bySelectors(us *userSelectors) Result {
	r := Result{Method: MethodSelectors}
	items := qa(p.root, us.item)
	r.Container = len(items) > 0
	for _, it := range items {
		var a *html.Node
		if us.link != nil {
			if us.link.Match(it) {
				a = it
			} else {
				a = q(it, us.link)
			}
			if a != nil && a.DataAtom != atom.A {
				if inner := q(a, anyLink); inner != nil {
					a = inner
				}
			}
		}
		var u string
		var anc *anchor
		if a != nil {
			if uu, ok := p.res.resolve(attr(a, "href")); ok {
				anc = &anchor{n: a, ok: true, u: uu, canon: urlString(uu)}
			}
		} else {
			anc = p.firstLink(it)
		}
		if anc == nil {
			continue
		}
		u = anc.canon
		l := p.cardListing(it, anc)
		l.URL = u
		if us.title != nil {
			l.Title = text(matchSelf(it, us.title))
		}
		if us.price != nil {
			l.Price = text(matchSelf(it, us.price))
		}
		r.Listings = append(r.Listings, l)
	}
	return r
}

var anyLink = sel("a[href]")

// firstLink is the item itself when it is a link, else its first link to a
// URL on the page's site (not the page itself).
func (p *page) firstLink(it *html.Node) *anchor {
	cands := []*html.Node{}
	if it.DataAtom == atom.A && hasAttr(it, "href") {
		cands = append(cands, it)
	}
	cands = append(cands, qa(it, anyLink)...)
	for _, a := range cands {
		if u, ok := p.res.resolve(attr(a, "href")); ok && !p.selfLink(u) {
			return &anchor{n: a, ok: true, u: u, canon: urlString(u)}
		}
	}
	return nil
}

// matchSelf returns n when it matches m, else its first matching descendant.
func matchSelf(n *html.Node, m cascadia.Selector) *html.Node {
	if m.Match(n) {
		return n
	}
	return q(n, m)
}

// ValidateSelectors reports whether the user's selectors can be used, in words
// the user understands (the selector named, the CSS parser's reason): call it
// when a search is saved, so a bad selector never reaches a poll.
func ValidateSelectors(s Selectors) error {
	_, err := compileSelectors(s)
	return err
}
