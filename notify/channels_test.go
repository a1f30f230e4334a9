package notify

import (
	"testing"
	"time"

	"notifio/internal/model"
)

// A channel's line in the window comes from its outbox items: the newest
// permanent failure outranks a retrying one, a push held for quiet hours is
// not pending, and the last delivery is the newest sent.
func TestChannelStates(t *testing.T) {
	night := time.Date(2026, 11, 30, 2, 0, 0, 0, time.UTC)
	morning := time.Date(2026, 11, 30, 7, 0, 0, 0, time.UTC)
	chans := []model.Channel{{Name: "phone", Quiet: "23:00-07:00"}, {Name: "tg"}}
	items := []model.OutboxItem{
		{Channel: "phone", State: model.OutboxPending, NextAttempt: morning},
		{Channel: "phone", State: model.OutboxSent, SentAt: night.Add(-3 * time.Hour)},
		{Channel: "phone", State: model.OutboxSent, SentAt: night.Add(-time.Hour)},
		{Channel: "tg", State: model.OutboxPending, Attempts: 2, LastError: "503 Service Unavailable", NextAttempt: night.Add(time.Minute)},
		{Channel: "tg", State: model.OutboxNeedsAttention, LastError: "401 Unauthorized", Hint: "check the token", Created: night},
		{Channel: "", State: model.OutboxPending}, // email's
	}
	got := ChannelStates(chans, items, night)
	if p := got[0]; p.Pending != 0 || !p.HeldUntil.Equal(morning) || !p.LastSent.Equal(night.Add(-time.Hour)) {
		t.Errorf("phone: %+v", p)
	}
	if g := got[1]; g.Pending != 1 || g.NeedsAttention != 1 || g.LastError != "401 Unauthorized" || g.Hint != "check the token" {
		t.Errorf("tg: %+v", g)
	}
}
