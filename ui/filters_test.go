package ui

import (
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"notifio/poll/filter"

	"notifio/internal/model"
)

// heldState is what the fake backend's held-back listings do in these tests.
var heldState struct {
	sync.Mutex
	passing []model.Listing
	shown   []string
}

func (f *fakeBackend) HeldNowPassing(string) ([]model.Listing, error) {
	heldState.Lock()
	defer heldState.Unlock()
	return heldState.passing, nil
}

func (f *fakeBackend) ShowHeld(_ string, ls []model.Listing) (int, error) {
	heldState.Lock()
	defer heldState.Unlock()
	for _, l := range ls {
		heldState.shown = append(heldState.shown, l.ID)
	}
	return len(ls), nil
}

func TestFiltersSectionSavesWhatTheUserTyped(t *testing.T) {
	h := newHarness(t, model.Snapshot{})
	e := h.u.searches.editor
	test.Tap(h.u.searches.add)
	test.Type(e.url, "https://www.kleinanzeigen.de/s-wohnung-mieten/berlin/c203l3331")
	e.filters.accordion.Open(0)
	test.Type(e.filters.maxPrice, "1.200")
	test.Type(e.filters.minRooms, "2,5")
	test.Type(e.filters.include, `Balkon "ruhige Lage"`)
	test.Type(e.filters.exclude, "WG")
	test.Tap(e.filters.hidePromoted)
	test.Tap(e.filters.priceRises)
	test.Tap(e.saveBtn)
	h.q.runNext(t)
	if len(h.b.added) != 1 {
		t.Fatalf("AddSearch calls = %d, problem %q", len(h.b.added), e.problem.Text)
	}
	want := model.Filters{MaxPrice: 1200, MinRooms: 2.5, Include: []string{"Balkon", "ruhige Lage"}, Exclude: []string{"WG"},
		HidePromoted: true, PriceRises: true}
	if got := h.b.added[0].Filters; !reflect.DeepEqual(got, want) {
		t.Errorf("saved filters %+v, want %+v", got, want)
	}
}

func TestFiltersSectionRefusesBadInput(t *testing.T) {
	for _, tc := range []struct {
		field func(*filterForm) *keyEntry
		typed string
		want  string
	}{
		{func(f *filterForm) *keyEntry { return f.maxPrice }, "abc", "“Price up to”: \"abc\" is not an amount"},
		// The window reads amounts as the command line does: ambiguous is refused
		// (before, the window read "1.2.3" as 1.2 and held back everything).
		{func(f *filterForm) *keyEntry { return f.maxPrice }, "1.2.3", "more than one way"},
		{func(f *filterForm) *keyEntry { return f.include }, `"ruhige Lage`, "no closing quote"},
	} {
		h := newHarness(t, model.Snapshot{})
		e := h.u.searches.editor
		test.Tap(h.u.searches.add)
		test.Type(e.url, "https://www.kleinanzeigen.de/s-wohnung-mieten/berlin/c203l3331")
		test.Type(tc.field(e.filters), tc.typed)
		test.Tap(e.saveBtn)
		if !strings.Contains(e.problem.Text, tc.want) || len(h.b.added) != 0 {
			t.Errorf("%q: problem %q, added %d; want %q and nothing saved", tc.typed, e.problem.Text, len(h.b.added), tc.want)
		}
	}
}

// Test this search shows which listings pass and why the others do not.
func TestTestThisSearchShowsFilterVerdicts(t *testing.T) {
	h := newHarness(t, model.Snapshot{})
	f := model.Filters{MaxPrice: 1000}
	ls := []model.PageListing{{ID: "1", Title: "Altbau", Price: "1.150 €", PriceValue: 1150}, {ID: "2", Title: "Dachgeschoss", Price: "950 €", PriceValue: 950},
		{ID: "3", Title: "Souterrain"}}
	var judged []model.FilterResult
	for _, l := range ls {
		judged = append(judged, filter.Match(f, model.Listing{Title: l.Title, Price: l.Price, PriceValue: l.PriceValue}))
	}
	h.b.dryRun = model.DryRun{Outcome: "ok", Status: 200, Message: "The page works: 3 listings found.", Listings: ls, Judged: judged}
	e := h.u.searches.editor
	test.Tap(h.u.searches.add)
	test.Type(e.url, "https://www.kleinanzeigen.de/s-wohnung-mieten/kreuzberg/c203l3375")
	test.Type(e.filters.maxPrice, "1000")
	test.Tap(e.testBtn)
	h.q.runNext(t)
	if got := h.b.dryRuns[0].Filters; got.MaxPrice != 1000 {
		t.Errorf("the test ran without the form's filters: %+v", got)
	}
	h.requireText("✗ Held back: it costs 1.150 €, more than your 1.000 — Altbau · 1.150 €")
	h.requireText("✓ Dachgeschoss · 950 €")
	h.requireText("✓ Souterrain (price not shown)")
	h.requireText("Your filters let 2 of these through and hold back 1")
}

// Loosening a filter offers the held-back listings it now lets through, and
// showing them asks the backend, never the outbox.
func TestLooserFiltersOfferTheHeldBackListings(t *testing.T) {
	heldState.Lock()
	heldState.passing, heldState.shown = []model.Listing{{ID: "x:1", Title: "Altbau"}}, nil
	heldState.Unlock()
	t.Cleanup(func() { heldState.Lock(); heldState.passing = nil; heldState.Unlock() })

	h := newHarness(t, sample())
	s := h.b.searches["a"]
	s.Filters = model.Filters{MaxPrice: 1000}
	h.b.searches["a"] = s
	h.u.searches.selectSearch("a")
	e := h.u.searches.editor
	test.Tap(h.u.searches.edit)
	if e.filters.maxPrice.Text != "1.000" {
		t.Fatalf("the edit dialog shows max price %q", e.filters.maxPrice.Text)
	}
	e.filters.maxPrice.SetText("1.300")
	test.Tap(e.saveBtn)
	h.q.runNext(t) // the save
	h.q.runNext(t) // the held-back listings were read
	h.requireText("1 listing(s) that your filters held back earlier pass them now.")
	test.Tap(h.button("Yes"))
	h.q.runNext(t)
	heldState.Lock()
	defer heldState.Unlock()
	if !reflect.DeepEqual(heldState.shown, []string{"x:1"}) {
		t.Errorf("shown = %v", heldState.shown)
	}
}

// The Listings tab shows a listing's price history and why two entries were
// taken for one flat.
func TestListingsShowPriceHistoryAndMatches(t *testing.T) {
	h := newHarness(t, sample())
	h.b.listings["a"] = []model.Listing{
		{ID: "kleinanzeigen.de:1", Title: "Altbau, 2 Zimmer", Price: "1.100 €", FirstSeen: t0.Add(-2 * time.Hour),
			Prices:  []model.PricePoint{{Price: "1.200 €", Value: 1200}, {Price: "1.100 €", Value: 1100}},
			Verdict: model.Verdict{AlsoOn: []model.SameFlat{{Site: "immowelt.de", Why: "same price (1.100), size (54 m²) and rooms (2) and nearly the same title"}}}},
	}
	h.u.searches.selectSearch("a")
	test.Tap(h.u.searches.listings)
	h.q.runAll()
	h.requireText("1.100 € · price dropped from 1.200 € · first seen today 12:00 · also on immowelt.de (same price (1.100), size (54 m²) and rooms (2) and nearly the same title)")
}
