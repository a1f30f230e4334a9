package poll

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"notifio/internal/model"
)

// flatSite is a loopback portal whose cards the test sets, with size and rooms.
type flatSite struct {
	mu    sync.Mutex
	cards []string
}

func (f *flatSite) add(id, title string, price int, size, rooms int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.cards = append([]string{fmt.Sprintf(`<article class="card"><a href="/expose/%s"><h2>%s</h2></a><p class="price">%d €</p><p class="facts">%d m² · %d Zimmer</p><p class="loc">Berlin</p></article>`,
		id, title, price, size, rooms)}, f.cards...)
}

func (f *flatSite) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprintf(w, `<!doctype html><html><head><title>Wohnungen</title></head><body><main id="results">%s</main></body></html>`, strings.Join(f.cards, ""))
}

// The same flat on two portals is one alert, "also on" the other; a listing
// with the same numbers but another title stays its own alert.
func TestSameFlatOnTwoPortalsOneAlert(t *testing.T) {
	h := newHarness(t, "")
	a, b := &flatSite{}, &flatSite{}
	a.add("a0", "Zimmer in WG, möbliert", 500, 15, 1)
	b.add("b0", "Ladenfläche im Erdgeschoss", 2500, 80, 3)
	urlA, urlB := serveOn(t, "127.0.0.1", a).URL, serveOn(t, "127.0.0.2", b).URL
	h.add("Portal A", urlA+"/s", time.Minute)
	h.add("Portal B", urlB+"/s", time.Minute)
	h.runFor(5 * time.Second) // baselines

	a.add("a1", "Schöne 2-Zimmer-Wohnung mit Balkon in Kreuzberg", 1100, 54, 2)
	h.runFor(70 * time.Second)
	b.add("b1", "SCHÖNE 2 Zimmer Wohnung mit Balkon in Kreuzberg!", 1100, 54, 2)
	b.add("b2", "Helle Wohnung im Hinterhaus, ruhig gelegen", 1100, 54, 2) // near miss
	h.runFor(70 * time.Second)

	items := h.outbox()
	if len(items) != 2 {
		t.Fatalf("%d alerts, want 2 (the flat once, the near miss once): %+v", len(items), items)
	}
	first, second := items[0].Listings, items[1].Listings
	if len(first) != 1 || len(first[0].AlsoOn) != 1 || first[0].AlsoOn[0].Site != "127.0.0.2" ||
		!strings.Contains(first[0].AlsoOn[0].Why, "nearly the same title") {
		t.Errorf("the first alert does not say also on the other portal: %+v", first)
	}
	if len(second) != 1 || !strings.Contains(second[0].Title, "Hinterhaus") {
		t.Errorf("the second alert should be the near miss alone: %+v", second)
	}
	var bs []model.Listing
	for _, s := range h.svc.Snapshot().Searches {
		if s.Name == "Portal B" {
			bs, _ = h.db.ListListings(s.ID)
		}
	}
	for _, l := range bs {
		if strings.Contains(l.Title, "SCHÖNE") && (l.SameAs == nil || l.SameAs.Why == "") {
			t.Errorf("the window cannot say why %q was matched: %+v", l.Title, l.SameAs)
		}
	}
}
