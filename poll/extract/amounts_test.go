package extract

import (
	"os"
	"path/filepath"
	"testing"

	"notifio/internal/model"
)

// Every way a page is read hands sizes and rooms over as numbers beside
// their text — the cards, the user's own selectors (Advanced, or "show me
// one") and the page's data — so the filters never read the text again.
func TestSizeAndRoomsHandedOverAsNumbers(t *testing.T) {
	body, err := os.ReadFile(filepath.Join(fixtureDir, "rules", "facts.html"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]float64{"4201": {68, 3}, "4202": {95, 4}, "4203": {54, 2.5}, "4204": {50, 2.5}}
	for _, sel := range []model.PageSelectors{{}, {Item: "li.item", Title: "h2"}} {
		r, err := Extract(body, mustURL("https://www.hannover-wohnen.de/suche"), sel)
		if err != nil {
			t.Fatal(err)
		}
		if sel.Item != "" && r.Method != model.MethodSelectors {
			t.Fatalf("the selectors were not used: method %s", r.Method)
		}
		if len(r.Listings) != len(want) {
			t.Fatalf("%s: %d listings, want %d", r.Method, len(r.Listings), len(want))
		}
		for _, l := range r.Listings {
			if got := [2]float64{l.SizeValue, l.RoomsValue}; got != want[l.ID] {
				t.Errorf("%s: %s (%q, %q) handed over as %v, want %v", r.Method, l.ID, l.Size, l.Rooms, got, want[l.ID])
			}
		}
	}
	page := `<html><head><script>window.__STATE__ = {"results":[` +
		`{"id":"7001","title":"Zwei Zimmer am Park","url":"/expose/7001","price":"850 €","rooms":2,"livingSpace":54.5},` +
		`{"id":"7002","title":"Dachgeschoss mit Blick","url":"/expose/7002","price":"1.120 €","rooms":3}]};` +
		`</script></head><body><div id=app></div></body></html>`
	r, err := Extract([]byte(page), mustURL("https://www.stadt-wohnen.de/suche"), model.PageSelectors{})
	if err != nil || len(r.Listings) != 2 {
		t.Fatalf("data: %d listings, %v", len(r.Listings), err)
	}
	for i, w := range [][2]float64{{54.5, 2}, {0, 3}} {
		if l := r.Listings[i]; [2]float64{l.SizeValue, l.RoomsValue} != w {
			t.Errorf("%s: %s (%q, %q) handed over as %v, %v; want %v", r.Method, l.ID, l.Size, l.Rooms, l.SizeValue, l.RoomsValue, w)
		}
	}
}
