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

// referenceGeneric is generic reading every card in full, searching the
// cards whether or not a list may outnumber the structured data, and writing
// out the JSON-LD prices before the cards are read: what withCards must give
// reading only what decides, and writing out only the prices no card gives.
func (p *page) referenceGeneric() Result {
	p.scan()
	var r Result
	settle := func(ls []Listing, method string, idFromCard bool) {
		if cs := p.cards(); supersedes(cs, ls) {
			r.Method, r.Listings = MethodCards, cs
			return
		}
		gs := p.cardGroups()
		for _, pr := range p.listingCards(gs, ls) {
			c := p.cardListing(gs[pr.group].members[pr.member].n, p.link(pr.anchor))
			enrichOne(&ls[pr.listing], &c, idFromCard, false)
		}
		r.Method, r.Listings = method, ls
	}
	if ls, inList := p.jsonLD(); len(ls) >= 2 || len(ls) == 1 && inList {
		writeLDPrices(ls, p.ldPrices)
		settle(ls, MethodJSONLD, true)
	} else if ls, m := p.appState(); len(ls) >= 2 {
		settle(ls, m, false)
	} else if cs := p.cards(); len(cs) > 0 {
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
	// A list where a narrow majority of the cards carry an id: the cards
	// without one count only when they show a price, which is then read
	// though enrich does not want it (the listings' prices show their currency).
	mixed := []byte(mixedIDCardsPage)
	mu := mustURL("https://www.nordhaus.de/mieten/kiel")
	check("mixed-id cards page", mixed, nil, mu)
	q := newPage(Parse(mixed), mu)
	r := q.referenceGeneric()
	q.release()
	if r.Method == MethodCards || r.Method == "" || len(r.Listings) != 4 || r.Listings[3].Size != "61 m²" {
		t.Fatalf("mixed-id cards page: %+v; want 4 listings from the app state, the last with the size of its card (61 m²)", r)
	}
	if withData == 0 {
		t.Fatal("no page went through structured data: the test checks nothing it is about")
	}
	t.Logf("%d pages and variants, %d settled by structured data", checked, withData)
}

// mixedIDCardsPage has app-state listings whose prices show their currency
// and a card list where three of five cards carry an id in their URL: the
// card without one that shows a price counts (and gives the last listing its
// size), the one without a price does not.
const mixedIDCardsPage = `<!DOCTYPE html><html><head><title>Mieten in Kiel</title></head>
<body><div id="__next"><ul class="results">
<li><a href="/angebot/wohnung-1001">Zwei Zimmer am Hafen</a> <span>720 €</span></li>
<li><a href="/angebot/wohnung-1002">Dachgeschoss in Gaarden</a> <span>640 €</span></li>
<li><a href="/angebot/wohnung-1003">Altbau in der Wik</a> <span>810 €</span></li>
<li><a href="/angebot/schoene-altbauwohnung">Schöne Altbauwohnung</a> <span>900 €</span> <span>61 m²</span></li>
<li><a href="/angebot/so-finden-sie-ihre-wohnung">So finden Sie Ihre Wohnung</a></li>
</ul></div>
<script id="__NEXT_DATA__" type="application/json">{"props":{"pageProps":{"search":{"results":[
{"id":"w1001","title":"Zwei Zimmer am Hafen","url":"/angebot/wohnung-1001","price":{"amount":720,"currency":"EUR","formatted":"720 €"}},
{"id":"w1002","title":"Dachgeschoss in Gaarden","url":"/angebot/wohnung-1002","price":{"amount":640,"currency":"EUR","formatted":"640 €"}},
{"id":"w1003","title":"Altbau in der Wik","url":"/angebot/wohnung-1003","price":{"amount":810,"currency":"EUR","formatted":"810 €"}},
{"id":"w1004","title":"Schöne Altbauwohnung","url":"/angebot/schoene-altbauwohnung","price":{"amount":900,"currency":"EUR","formatted":"900 €"}}]}}}}</script>
</body></html>`
