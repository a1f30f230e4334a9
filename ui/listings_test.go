package ui

import (
	"slices"
	"testing"
	"time"

	"notifio/internal/model"
)

// The picker offers every search's listings in one view, first, and says how
// many are new in each; the view shows them together, newest first, each with
// its search, a listing found by two searches once, and counts them as seen.
func TestAllNewListingsInOneView(t *testing.T) {
	s := sample()
	s.Searches[0].Unseen, s.Searches[1].Unseen = 1, 2
	h := newHarness(t, s)
	h.b.listings["a"] = []model.Listing{
		{ID: "k:1", Title: "Altbau Kreuzberg", Price: "1.150 €", FirstSeen: t0.Add(-time.Minute)},
		{ID: "k:0", Title: "Old one", FirstSeen: t0.Add(-48 * time.Hour)},
	}
	h.b.listings["b"] = []model.Listing{
		{ID: "k:2", Title: "Dachgeschoss", Rooms: "2,5 Zi.", FirstSeen: t0.Add(-2 * time.Minute)},
		{ID: "k:1", Title: "Altbau Kreuzberg", Price: "1.150 €", FirstSeen: t0.Add(-time.Minute)},
	}
	names := h.u.listings.pick.Options
	if len(names) != len(s.Searches)+1 || names[0] != "All searches · 3 new" || !slices.Contains(names, "Neukölln WG (wg-gesucht.de) · 2 new") {
		t.Fatalf("picker %q", names)
	}
	h.u.selectView(viewListings) // new listings in two searches: the view opens on all of them
	if h.u.listings.searchID != allSearches {
		t.Fatalf("opened on %q, want all searches", h.u.listings.searchID)
	}
	var ids []string
	for _, l := range h.u.listings.items {
		ids = append(ids, l.ID)
	}
	if !slices.Equal(ids, []string{"k:1", "k:2", "k:0"}) {
		t.Errorf("listings %v, want newest first, k:1 once", ids)
	}
	name1 := s.Searches[1].Name
	h.requireText(name1 + " · 2.5 rooms · first seen today 13:58")
	h.requireText("3 listings of all searches, newest first.")
	slices.Sort(h.b.viewed)
	if !slices.Equal(h.b.viewed, []string{"a", "b"}) {
		t.Errorf("MarkViewed %v, want both searches", h.b.viewed)
	}
	h.q.runAll()
	if got := h.u.listings.pick.Options[0]; got != "All searches" {
		t.Errorf("after viewing, the picker says %q", got)
	}
}
