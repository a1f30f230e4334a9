package extract

import (
	"fmt"
	"strings"
	"sync"

	"github.com/PuerkitoBio/goquery"
	"github.com/andybalholm/cascadia"
	"golang.org/x/net/html"

	"notifio/internal/model"
)

// compiled are the user's selectors, checked.
type compiled struct {
	item, link string
	fields     fieldSel
}

// compileSelectors checks the user's selectors; nil when there are none. The
// error names the selector and what is wrong with it.
func compileSelectors(s model.PageSelectors) (*compiled, error) {
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
	for _, f := range []struct{ name, v string }{{"item", s.Item}, {"link", s.Link}, {"title", s.Title}, {"price", s.Price}} {
		if f.v == "" {
			continue
		}
		if _, err := cascadia.ParseGroup(f.v); err != nil {
			return nil, fmt.Errorf("the %s selector %q is not valid CSS: %v", f.name, f.v, err)
		}
	}
	return &compiled{item: s.Item, link: s.Link, fields: fieldSel{Title: s.Title, Price: s.Price}}, nil
}

// ValidateSelectors reports whether the user's selectors can be used, in words
// the user understands (the selector named, the CSS parser's reason): call it
// when a search is saved, so a bad selector never reaches a poll.
func ValidateSelectors(s model.PageSelectors) error {
	_, err := compileSelectors(s)
	return err
}

// bySelectors extracts with the user's selectors: each item match is one
// listing; link/title/price are matched inside it (the item itself may be the
// link), and whatever they leave open is read as automatic extraction reads it.
func (pg *page) bySelectors(c *compiled) model.PageResult {
	items := pg.doc.FindMatcher(matcher(c.item))
	cards := pg.itemCards(items, c.link)
	return model.PageResult{Method: model.MethodSelectors, Container: items.Length() > 0, Listings: pg.readCards(cards, c.fields)}
}

// itemCards finds each item's link: the link selector inside it, else the
// item itself when it links, else its first link to somewhere other than this
// page. Items without one are not listings.
func (pg *page) itemCards(items *goquery.Selection, link string) []card {
	var out []card
	items.Each(func(_ int, it *goquery.Selection) {
		n := it.Get(0)
		cands := []*goquery.Selection{it}
		if link != "" {
			cands = []*goquery.Selection{it.FindMatcher(matcher(link)).AddSelection(it.FilterMatcher(matcher(link)))}
		}
		for _, s := range cands {
			for _, e := range s.AddSelection(s.FindMatcher(matcher("a[href], [data-href], [data-url], [data-link], [onclick]"))).Nodes {
				if u, ok := linkOf(e, pg.base); ok && !samePage(u, pg.url) {
					out = append(out, card{node: n, link: e, url: u})
					return
				}
			}
		}
	})
	return out
}

// compiledSel holds every selector compiled so far (profiles', users', our
// own): goquery compiles a selector string on every Find.
var compiledSel sync.Map

// matcher is sel compiled once. sel must be valid (checked when a search is
// saved, or written by us); an invalid one matches nothing.
func matcher(sel string) goquery.Matcher {
	if m, ok := compiledSel.Load(sel); ok {
		return m.(goquery.Matcher)
	}
	var m goquery.Matcher = nothing{}
	if c, err := cascadia.Compile(sel); err == nil {
		m = c
	}
	compiledSel.Store(sel, m)
	return m
}

// nothing matches no element.
type nothing struct{}

func (nothing) Match(*html.Node) bool               { return false }
func (nothing) MatchAll(*html.Node) []*html.Node    { return nil }
func (nothing) Filter(ns []*html.Node) []*html.Node { return nil }
