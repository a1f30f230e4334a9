package ui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/widget"

	"notifio/internal/model"
)

// TestAWaitThatRanOutIsNotShownAsHealthy is issue 19, rough edge 1: when a
// challenge wait ran out the row showed a green tick and "next check in 0:23"
// while the site still showed its captcha.
func TestAWaitThatRanOutIsNotShownAsHealthy(t *testing.T) {
	s := manySearches(2)
	s.Searches[0].Site, s.Searches[1].Site = "site0.example", "site0.example"
	for i := range s.Searches {
		s.Searches[i].LastOutcome = "challenge"
		s.Searches[i].NextCheck = t0.Add(23 * time.Second)
	}
	s.Sites = []model.SiteSnapshot{{Site: "site0.example", Kind: model.RefusalChallenge, Rung: 2,
		NextProbe: t0.Add(-time.Second), Searches: 2}}
	h := newHarness(t, s)
	w := boundRow(t, h, 0)
	if want := "site0.example asked for a captcha (challenge page) — trying again now"; w.status.Text != want {
		t.Errorf("the row says %q, want %q", w.status.Text, want)
	}
	if w.status.Importance != widget.WarningImportance || w.icon.Resource.Name() == stateIconOK().Name() {
		t.Errorf("the row looks healthy: importance %v, icon %s", w.status.Importance, w.icon.Resource.Name())
	}
	h.clock.Advance(5 * time.Second)
	h.u.tick()
	if !strings.HasSuffix(w.status.Text, "trying again now") {
		t.Errorf("a tick later the row says %q", w.status.Text)
	}

	// A sibling went out as the probe: this one waits for it.
	s.At = h.clock.Now()
	s.Sites[0].ProbeInFlight = true
	s.Searches[1].State = model.StateProbing
	h.publish(s)
	if want := "waiting for the probe on site0.example"; boundRow(t, h, 0).status.Text != want {
		t.Errorf("with the probe out the row says %q, want %q", boundRow(t, h, 0).status.Text, want)
	}

	// A good answer clears the site: the countdown and the tick come back.
	s.At = h.clock.Now()
	s.Sites[0] = model.SiteSnapshot{Site: "site0.example", Searches: 2}
	s.Searches[1].State, s.Searches[1].LastOutcome = model.StateScheduled, "ok"
	h.publish(s)
	w = boundRow(t, h, 0)
	if want := "next check in 0:18"; w.status.Text != want {
		t.Errorf("after the site answered the row says %q, want %q", w.status.Text, want)
	}
	if w.icon.Resource.Name() != stateIconOK().Name() {
		t.Errorf("after the site answered the icon is %s", w.icon.Resource.Name())
	}
}
