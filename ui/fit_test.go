package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"notifio/internal/model"
)

// longName is a search name of n characters, in words (a name a user pasted
// from a page title).
func longName(i, n int) string {
	s := fmt.Sprintf("Search %d — ", i)
	for len(s) < n {
		s += "Altbau Balkon Kreuzberg Neukölln "
	}
	return strings.TrimSpace(s[:n])
}

// crowded is a snapshot of 30 searches on one site, most with 130-character
// names, the site troubled so its card shows all it has.
func crowded() model.Snapshot {
	s := model.Snapshot{At: t0}
	for i := 1; i <= 30; i++ {
		name := longName(i, 130)
		if i%5 == 0 {
			name = fmt.Sprintf("Mitte %d", i)
		}
		s.Searches = append(s.Searches, model.SearchSnapshot{
			ID: fmt.Sprintf("s%02d", i), Name: name, Site: "kleinanzeigen.de",
			URL:      "https://www.kleinanzeigen.de/s-wohnung-mieten/" + strings.Repeat("kreuzberg-neukoelln-", 6) + fmt.Sprint(i),
			Interval: 5 * time.Minute, State: model.StateWaiting, NextCheck: t0.Add(4 * time.Minute),
			Wait: model.WaitSite, Reason: "kleinanzeigen.de is rate-limiting us", Baselined: true, LastOutcome: "rate_limited",
		})
	}
	s.Sites = []model.SiteSnapshot{{Site: "kleinanzeigen.de", Waiting: true, Kind: model.RefusalRateLimited, Rung: 2,
		NextProbe: t0.Add(4 * time.Minute), RetryAfter: 10 * time.Minute, LastStatus: 429, LastOutcome: "rate_limited",
		LastSignal: "status 429", Searches: 30, LastRefusal: "/home/u/.local/share/notifio/refusals/kleinanzeigen.de.html"}}
	return s
}

// Issue 37, item 2: with 30 searches on one site and 130-character names, no
// view and no dialog asks for more than 800×600: every label that grows wraps
// or is cut.
func TestTheWindowFits800x600With30LongSearches(t *testing.T) {
	h := newHarness(t, crowded())
	for _, s := range h.b.snap.Searches {
		h.b.searches[s.ID] = model.Search{ID: s.ID, Name: s.Name, URL: s.URL}
	}
	h.b.listings["s01"] = []model.Listing{{ID: "kleinanzeigen.de:1", Title: longName(1, 200), Price: "820 €",
		Location: strings.Repeat("Berlin Kreuzberg ", 8), FirstSeen: t0}}
	h.u.win.Resize(fyne.NewSize(800, 600))
	limit := fyne.NewSize(800, 600)
	check := func(what string, s fyne.Size) {
		t.Helper()
		if s.Width > limit.Width || s.Height > limit.Height {
			t.Errorf("%s asks for %.0f×%.0f, more than 800×600", what, s.Width, s.Height)
		}
	}
	for _, v := range []struct {
		name string
		idx  int
	}{{"the Searches view", viewSearches}, {"the Listings view", viewListings}, {"the Sites view", viewSites}, {"the Settings view", viewSettings}} {
		h.u.selectView(v.idx)
		h.u.searches.selectSearch("s01")
		h.q.runAll()
		check(v.name, h.u.win.Content().MinSize())
	}
	h.u.selectView(viewSearches)
	h.u.searches.selectSearch("s01")
	test.Tap(h.u.searches.edit)
	h.q.runAll()
	top := h.u.win.Canvas().Overlays().Top()
	if top == nil {
		t.Fatal("Edit opened no dialog")
	}
	check("the Edit dialog", top.MinSize())
	_ = model.Config{}
}
