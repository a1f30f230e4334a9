package poll

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"notifio/notify"

	"notifio/internal/model"
	"notifio/internal/polltest"
)

// A push the relay holds for its channel's quiet hours is not pending: at
// 02:00 with quiet hours 23:00-07:00 the outbox summary counts it as held, so
// `notifio once` at night does not exit 1 for a push doing what the user asked.
// Once the hours end (07:30) it is due and counts as pending again.
func TestOutboxSummaryCountsPushesHeldForQuietHoursApart(t *testing.T) {
	h := newHarness(t, "")
	night := time.Date(2026, 11, 30, 2, 0, 0, 0, time.UTC)
	h.clock.set(night)
	if err := h.db.AddChannel(model.Channel{Name: "phone", Service: "ntfy", Quiet: "23:00-07:00"}); err != nil {
		t.Fatal(err)
	}
	s, err := h.db.AddSearch(model.Search{Name: "Kreuzberg", URL: "http://127.0.0.1:1/search"})
	if err != nil {
		t.Fatal(err)
	}
	old := []model.Listing{{ID: "x:1", URL: "http://127.0.0.1:1/1", Title: "Old"}}
	if _, err := polltest.Commit(h.db, s.ID, old, night); err != nil {
		t.Fatal(err)
	}
	if _, err := polltest.Commit(h.db, s.ID, append(old, model.Listing{ID: "x:2", URL: "http://127.0.0.1:1/2", Title: "New"}), night); err != nil {
		t.Fatal(err)
	}
	noURL := func(string) (string, error) {
		t.Error("a push was sent in quiet hours")
		return "", model.ErrNoServiceURL
	}
	relay := notify.NewPushRelay(h.db, noURL, notify.RelayOptions{Now: h.clock.Now, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if _, err := relay.SendDue(context.Background()); err != nil {
		t.Fatal(err)
	}
	h.svc.OutboxChanged()
	if o := h.svc.Snapshot().Outbox; o.Held != 1 || o.Pending != 0 {
		t.Errorf("at 02:00: held %d, pending %d; want the push held, nothing pending", o.Held, o.Pending)
	}
	h.clock.set(night.Add(5*time.Hour + 30*time.Minute))
	h.svc.OutboxChanged()
	if o := h.svc.Snapshot().Outbox; o.Held != 0 || o.Pending != 1 {
		t.Errorf("at 07:30: held %d, pending %d; want the push due (pending)", o.Held, o.Pending)
	}
}
