package ui

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"notifio/internal/model"
	"notifio/poll/words"
)

// Issue 37, item 10: searches are listed by site, and by name as a person
// counts ("Mitte 3" before "Mitte 10"), whatever order the watcher gives.
func TestSearchesAreGroupedBySiteAndSortedNaturally(t *testing.T) {
	snap := model.Snapshot{At: t0}
	for _, n := range []struct{ id, name, site string }{
		{"1", "Mitte 10", "b.example"}, {"2", "Mitte 3", "b.example"}, {"3", "mitte 2", "b.example"},
		{"4", "Altbau", "a.example"}, {"5", "Mitte 1", "b.example"}, {"6", "Zehlendorf", "a.example"},
	} {
		snap.Searches = append(snap.Searches, model.SearchSnapshot{ID: n.id, Name: n.name, Site: n.site, State: model.StateScheduled})
	}
	h := newHarness(t, snap)
	var got []string
	for _, r := range h.u.searches.rows {
		got = append(got, r.snap.Name)
	}
	want := []string{"Altbau", "Zehlendorf", "Mitte 1", "mitte 2", "Mitte 3", "Mitte 10"}
	if !slices.Equal(got, want) {
		t.Errorf("the list shows %q, want %q", got, want)
	}
}

// The search box lists only the searches whose name or site has its words,
// and says so when none has.
func TestTheSearchBoxFindsASearch(t *testing.T) {
	snap := model.Snapshot{At: t0}
	for i := 1; i <= 24; i++ {
		snap.Searches = append(snap.Searches, model.SearchSnapshot{ID: fmt.Sprint(i), Name: fmt.Sprintf("Mitte %d", i), Site: "b.example"})
	}
	snap.Searches[6].Name = "Kreuzberg Altbau"
	h := newHarness(t, snap)
	test.Type(h.u.searches.find, "kreuz")
	if len(h.u.searches.rows) != 1 || h.u.searches.rows[0].snap.Name != "Kreuzberg Altbau" {
		t.Fatalf("searching for “kreuz” lists %d rows", len(h.u.searches.rows))
	}
	h.u.searches.find.SetText("Wedding")
	h.requireText("No search has “Wedding” in its name or site.")
	h.u.searches.find.SetText("")
	if len(h.u.searches.rows) != 24 {
		t.Errorf("an empty search box lists %d rows, want all 24", len(h.u.searches.rows))
	}
}

// Escape closes the About dialog, as it does the others.
func TestEscapeClosesAbout(t *testing.T) {
	h := newHarness(t, model.Snapshot{})
	h.u.showAbout()
	if h.u.win.Canvas().Overlays().Top() == nil {
		t.Fatal("About did not open")
	}
	press(h, fyne.KeyEscape)
	if top := h.u.win.Canvas().Overlays().Top(); top != nil && top.Visible() {
		t.Error("Escape left About open")
	}
}

// Issue 37, item 3: a search that is scheduled (its site answers it again)
// does not say "login expired since …" beside its countdown.
func TestAScheduledSearchDoesNotSayLoginExpired(t *testing.T) {
	s := model.SearchSnapshot{ID: "a", Name: "Pankow", State: model.StateScheduled, LastOutcome: "ok", Baselined: true,
		NextCheck: t0.Add(4 * time.Second), LastChecked: t0.Add(-time.Minute),
		Health: model.Health{Kind: model.HealthSessionExpired, Since: t0.Add(-10 * time.Minute)}}
	if got := words.SearchDetail(s, t0); strings.Contains(got, "login expired") {
		t.Errorf("the scheduled row says %q", got)
	}
	s.State, s.LastOutcome = model.StateAttention, "session_expired"
	if got := words.SearchDetail(s, t0); !strings.Contains(got, "login expired since") {
		t.Errorf("the stopped row says %q, want since when its login expired", got)
	}
}

// Issue 37, item 10: a search's row is two tight lines (it was 62 px tall).
func TestSearchRowsAreCompact(t *testing.T) {
	_ = test.NewTempApp(t)
	if h := newSearchRowObject().MinSize().Height; h > 59 {
		t.Errorf("a row is %.1f px tall, want at most 59", h)
	}
}
