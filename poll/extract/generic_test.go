package extract

import (
	"bytes"
	"fmt"
	"net/url"
	"reflect"
	"regexp"
	"testing"

	"golang.org/x/net/html"
)

// referenceGeneric is generic as it was before withCards: the cards read in
// full whether they win or only enrich the structured data.
func (p *page) referenceGeneric() Result {
	p.scan()
	var r Result
	var cards []Listing
	cardsDone := false
	getCards := func() []Listing {
		if !cardsDone {
			cards, cardsDone = p.cards(), true
		}
		return cards
	}
	if ls, inList := p.jsonLD(); len(ls) >= 2 || len(ls) == 1 && inList {
		if cs := getCards(); supersedes(cs, ls) {
			r.Method, r.Listings = MethodCards, cs
		} else {
			r.Method, r.Listings = MethodJSONLD, enrich(ls, cs, true)
		}
	} else if ls, m := p.appState(); len(ls) >= 2 {
		if cs := getCards(); supersedes(cs, ls) {
			r.Method, r.Listings = MethodCards, cs
		} else {
			r.Method, r.Listings = m, enrich(ls, cs, false)
		}
	} else if cs := getCards(); len(cs) > 0 {
		r.Method, r.Listings = MethodCards, cs
	}
	r.Container = len(r.Listings) > 0
	return r
}

// jsonKey matches a member name in a page's scripts.
var jsonKey = regexp.MustCompile(`"[A-Za-z_@]+"\s*:`)

// TestGenericCardsReadForEnrichingMatchReadingAll: reading only the card fields
// enrich can use gives the same result as reading the cards in full, on every
// fixture and real page, on variants with one element removed, and on variants
// of the pages with scripts where one member name at a time is renamed (which
// leaves fields of the structured data empty, for the cards to fill, or makes
// the cards win).
func TestGenericCardsReadForEnrichingMatchReadingAll(t *testing.T) {
	bodies, urls := cardPages(t)
	checked, withData := 0, 0
	check := func(name string, body []byte, doc *html.Node, u *url.URL) {
		t.Helper()
		if doc == nil {
			doc = Parse(body)
		}
		p := newPage(doc, u)
		got := p.generic()
		p.release()
		q := newPage(doc, u)
		want := q.referenceGeneric()
		q.release()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %+v\nwant %+v", name, got, want)
		}
		checked++
		if want.Method != MethodCards && want.Method != "" {
			withData++
		}
	}
	for k, body := range bodies {
		u := urls[k]
		check(u.String(), body, nil, u)
		if len(body) < 50_000 { // (a real page's generic run is slow under -race)
			eachWithoutOneElement(body, variantLimit(body), func(i int, doc *html.Node) {
				check(fmt.Sprintf("%s without element %d", u, i), nil, doc, u)
			})
		}
		if !bytes.Contains(body, []byte("<script")) {
			continue
		}
		for j, loc := range jsonKey.FindAllIndex(body, -1) {
			if len(body) > 50_000 && j%25 != 0 {
				continue // a real page: a sample
			}
			v := append(append(append([]byte{}, body[:loc[0]+1]...), "zz_"...), body[loc[0]+1:]...)
			check(fmt.Sprintf("%s with member %q renamed", u, body[loc[0]:loc[1]]), v, nil, u)
		}
	}
	if withData == 0 {
		t.Fatal("no page went through structured data: the test checks nothing it is about")
	}
	t.Logf("%d pages and variants, %d settled by structured data", checked, withData)
}
