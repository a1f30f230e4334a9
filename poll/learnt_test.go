package poll

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"notifio/internal/model"
)

// listSite serves a result list of cards behind a menu of many links, with a
// per-request token (no two pages byte-identical), drawn as the test sets it.
type listSite struct {
	mu      sync.Mutex
	cards   int
	list    string // the list's class
	path    string // the listings' path before the id
	priceUp int    // added to every price
	seq     atomic.Int64
}

func (s *listSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	cards, list, path, up := s.cards, s.list, s.path, s.priceUp
	s.mu.Unlock()
	var b strings.Builder
	fmt.Fprintf(&b, `<!doctype html><html><head><title>Wohnungen</title><meta name="csrf-token" content="%d"></head><body><nav><ul class="menu">`, s.seq.Add(1))
	for i := range 300 {
		fmt.Fprintf(&b, `<li><a href="/mieten/bezirk-%d">Bezirk %d</a></li>`, i, i)
	}
	fmt.Fprintf(&b, `</ul></nav><main><ul class="%s">`, list)
	for i := range cards {
		id := 100 + i
		fmt.Fprintf(&b, `<li class="card" data-id="%d"><h2><a href="%s%d">Wohnung %d am Park</a></h2><p class="price">%d €</p><p>%d m²</p></li>`, id, path, id, id, 900+10*i+up, 40+i)
	}
	b.WriteString(`</ul></main></body></html>`)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write([]byte(b.String()))
}

func (s *listSite) change(f func(s *listSite)) {
	s.mu.Lock()
	f(s)
	s.mu.Unlock()
}

// Through the real poll (loopback site, bbolt store): the second poll reads
// the list the first learnt; a new price on the same links is read that way
// and announced as a price drop; a layout change (the list gone, fewer
// cards, links of another shape) goes the full way, loses or repeats
// nothing, and the next poll reads the new list directly, after a restart
// too.
func TestPollReadsTheLearntList(t *testing.T) {
	h := newHarness(t, "")
	a := &listSite{cards: 10, list: "results", path: "/expose/"}
	srv := serveOn(t, "127.0.0.1", a)
	h.add("Kreuzberg", srv.URL+"/search", time.Minute)
	at := h.clock.Now()
	poll := func(want string) result {
		t.Helper()
		at = at.Add(2 * time.Minute)
		_, res := h.lastPoll(at)
		if res.ext.Method != want {
			t.Fatalf("poll at %s: method %s (%d listings), want %s", at.Format("15:04"), res.ext.Method, len(res.ext.Listings), want)
		}
		return res
	}
	if res := poll(model.MethodCards); len(res.ext.Listings) != 10 { // the baseline
		t.Fatalf("baseline: %d listings, want 10", len(res.ext.Listings))
	}
	poll(model.MethodLearnt)

	a.change(func(s *listSite) { s.priceUp = -100 })
	if res := poll(model.MethodLearnt); res.ext.Listings[0].PriceValue != 800 {
		t.Fatalf("a new price read from the learnt list: %v, want 800", res.ext.Listings[0].PriceValue)
	}
	items := h.outbox()
	if len(items) != 1 || items[0].Event != model.EventPriceDrop || len(items[0].Listings) != 10 {
		t.Fatalf("outbox = %+v, want one price-drop digest of the 10 listings", items)
	}

	for _, change := range []struct {
		name string
		f    func(s *listSite)
	}{
		{"the list gone", func(s *listSite) { s.list = "search-results" }},
		{"fewer cards", func(s *listSite) { s.cards = 9 }},
		{"other URL shape", func(s *listSite) { s.path = "/de/wohnung/expose/" }},
	} {
		a.change(change.f)
		res := poll(model.MethodCards)
		if len(res.ext.Listings) != a.cards {
			t.Fatalf("%s: %d listings, want %d", change.name, len(res.ext.Listings), a.cards)
		}
		poll(model.MethodLearnt)
	}
	if n := len(h.outbox()); n != 1 {
		t.Errorf("%d outbox items after the layout changes, want still the one price drop", n)
	}
	// The learnt list is kept over a restart (the page prints).
	h.svc.Close()
	h.svc = h.open()
	poll(model.MethodLearnt)
	a.change(func(s *listSite) { s.cards = 11 })
	if res := poll(model.MethodLearnt); len(res.ext.Listings) != 11 {
		t.Fatalf("a new listing: %d listings, want 11", len(res.ext.Listings))
	}
	if items := h.outbox(); len(items) != 2 || len(items[1].Listings) != 1 || !strings.Contains(items[1].Listings[0].Title, "Wohnung 110") {
		t.Fatalf("outbox = %+v, want a digest of Wohnung 110 after the price drop", items)
	}
}
