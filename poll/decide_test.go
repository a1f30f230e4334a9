package poll

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"notifio/internal/model"
)

// priceSite is a loopback site whose listings and prices the test sets.
type priceSite struct {
	mu     sync.Mutex
	ids    []string
	prices map[string]int
}

func (p *priceSite) set(id string, price int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !slices.Contains(p.ids, id) {
		p.ids = append([]string{id}, p.ids...)
	}
	p.prices[id] = price
}

func (p *priceSite) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var cards strings.Builder
	for _, id := range p.ids {
		fmt.Fprintf(&cards, `<article class="card"><a href="/expose/%s"><h2>Flat %s mit Balkon</h2></a><p class="price">%d €</p><p>54 m² · 2 Zimmer</p></article>`, id, id, p.prices[id])
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprintf(w, `<!doctype html><html><head><title>Wohnungen</title></head><body><main id="results">%s</main></body></html>`, cards.String())
}

func newPriceSite(t *testing.T) (*priceSite, string) {
	p := &priceSite{prices: map[string]int{}}
	// Two fixed listings so the page is a list from the start.
	p.set("a1", 900)
	p.set("a2", 910)
	return p, serveOn(t, "127.0.0.1", p).URL
}

// Above --max-price: held, no alert; the price drops under it: one alert
// saying the price dropped, and none again on the next poll.
func TestHeldBackThenPriceDropAlertsOnce(t *testing.T) {
	h := newHarness(t, "")
	site, url := newPriceSite(t)
	s, err := h.svc.AddSearch(context.Background(), model.SearchInput{Name: "Kreuzberg", URL: url + "/s", Interval: time.Minute,
		Filters: model.Filters{MaxPrice: 1000}})
	if err != nil {
		t.Fatal(err)
	}
	h.runFor(5 * time.Second) // baseline
	site.set("x", 1200)
	h.runFor(70 * time.Second)
	if n := len(h.outbox()); n != 0 {
		t.Fatalf("a listing above the max price queued %d alerts", n)
	}
	held, _ := h.db.HeldListings(s.ID)
	if len(held) != 1 || !strings.Contains(held[0].Held, "more than your 1.000") {
		t.Fatalf("held = %+v", held)
	}
	site.set("x", 950)
	h.runFor(70 * time.Second)
	items := h.outbox()
	if len(items) != 1 || items[0].Event != model.EventPriceDrop || items[0].Listings[0].OldPrice != "1200 €" {
		t.Fatalf("outbox = %+v; want one price drop from 1200 €", items)
	}
	h.runFor(70 * time.Second)
	if n := len(h.outbox()); n != 1 {
		t.Errorf("the drop was announced again: %d items", n)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if !slices.Contains(h.notes, "Price dropped on Kreuzberg") {
		t.Errorf("desktop notes = %q", h.notes)
	}
}

// The dry run says which listings pass and why the others do not.
func TestTestSearchJudgesListings(t *testing.T) {
	h := newHarness(t, "")
	site, url := newPriceSite(t)
	site.set("x", 1200)
	dr, err := h.svc.TestSearch(context.Background(), model.SearchInput{URL: url + "/s", Filters: model.Filters{MaxPrice: 1000}})
	if err != nil {
		t.Fatal(err)
	}
	if len(dr.Judged) != len(dr.Listings) || len(dr.Listings) != 3 {
		t.Fatalf("%d listings, %d verdicts", len(dr.Listings), len(dr.Judged))
	}
	for i, l := range dr.Listings {
		if held := dr.Judged[i].Held; (l.Price == "1200 €") != (held != "") {
			t.Errorf("%s (%s): held %q", l.ID, l.Price, held)
		}
	}
}
