package ui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"notifio/internal/model"
)

func TestAlertSettingsAreTheUsersChoice(t *testing.T) {
	h := newHarness(t, model.Snapshot{})
	h.u.selectView(viewSettings)
	c := h.u.settings.alerts
	if !c.on.Checked || c.after.Selected != "1 hour" || c.remind.Selected != "once a day" || c.summary.Checked {
		t.Fatalf("defaults shown: on %v, after %q, remind %q, summary %v", c.on.Checked, c.after.Selected,
			c.remind.Selected, c.summary.Checked)
	}
	c.after.SetSelected("2 hours")
	c.remind.SetSelected("never")
	test.Tap(c.summary)
	c.summaryAt.SetText("08:30")
	// Each change applies at once: no Save button of its own (issue 37, item 8).
	h.q.runUntil(t, "the saves", func() bool { return !c.saving })
	got := h.b.AlertSettings()
	if got.Off || got.After != 2*time.Hour || !got.NoRemind || !got.Summary || got.SummaryAt != "08:30" {
		t.Fatalf("saved %+v", got)
	}
	if !h.hasText("Alert settings saved.") {
		t.Error("no word that the settings were saved")
	}
	// A time the summary cannot be sent at is refused before anything is saved.
	saves := h.b.alertSaves
	c.summaryAt.SetText("half past eight")
	h.q.runAll()
	if h.b.alertSaves != saves || !h.hasText("write the time as 20:00") {
		t.Errorf("a bad summary time: %d saves; texts %q", h.b.alertSaves, h.texts())
	}
}

func blockedSample() model.Snapshot {
	s := sample()
	s.Searches[2].Health = model.Health{Kind: model.HealthBlocked, Refusal: model.RefusalRateLimited,
		Since: t0.Add(-70 * time.Minute), NextTry: t0.Add(271 * time.Second),
		Problem: "idealista.com is rate-limiting us"}
	return s
}

func TestRowsSayHealthInTheAlertsWords(t *testing.T) {
	h := newHarness(t, sample())
	h.publish(blockedSample())
	if !h.hasText("idealista.com is rate-limiting us — next try in 4 min") {
		t.Errorf("the row does not use the health words; texts %q", h.texts())
	}
	found := false
	for _, s := range h.texts() {
		if strings.Contains(s, "rate-limited since 12:50 (1 h 10 min)") {
			found = true
		}
	}
	if !found {
		t.Errorf("no row says since when it is blocked; texts %q", h.texts())
	}
}
