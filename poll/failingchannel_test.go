package poll

import (
	"strings"
	"testing"
	"time"

	"notifio/internal/model"
	"notifio/internal/polltest"
)

// TestAChannelFailingForAnHourNeedsAttention (issue 35 item 6): pushes to an
// unreachable service are retried for ever, and status said "All healthy"
// meanwhile. A channel whose message has failed three times over an hour is
// failing in the snapshot (status, the window) and the other channels are
// told.
func TestAChannelFailingForAnHourNeedsAttention(t *testing.T) {
	h := newHarness(t, "")
	for _, name := range []string{"phone", "laptop"} {
		must(t, h.db.AddChannel(model.Channel{Name: name, Service: "ntfy", Created: t0}))
	}
	s := h.add("Flats", "https://www.example-immo.de/suche", time.Minute)
	base := []model.Listing{{ID: "example-immo.de:1", URL: "https://www.example-immo.de/expose/1", Title: "Old"}}
	if _, err := polltest.Commit(h.db, s.ID, base, t0); err != nil {
		t.Fatal(err)
	}
	fresh := append(base, model.Listing{ID: "example-immo.de:2", URL: "https://www.example-immo.de/expose/2", Title: "New"})
	if _, err := polltest.Commit(h.db, s.ID, fresh, t0); err != nil {
		t.Fatal(err)
	}
	items, err := h.db.ListOutbox()
	must(t, err)
	for _, it := range items {
		if it.Channel == "phone" {
			must(t, h.db.MarkRetry(it.ID, 3, t0.Add(2*time.Hour), "dial tcp 127.0.0.1:9: connect: connection refused"))
		}
	}
	// Two failed tries in the first minutes are a blip, not yet a failing channel.
	h.clock.set(t0.Add(10 * time.Minute))
	if f := h.svc.Snapshot().Outbox.Failing; len(f) != 0 {
		t.Errorf("after 10 minutes the snapshot says failing %+v", f)
	}
	h.clock.set(t0.Add(61 * time.Minute))
	h.svc.invalidateOutbox()
	f := h.svc.Snapshot().Outbox.Failing
	if len(f) != 1 || f[0].Channel != "phone" || !strings.Contains(f[0].Error, "connection refused") {
		t.Fatalf("after an hour of failures the snapshot says failing %+v, want the phone", f)
	}
	h.svc.checkHealth(h.clock.Now())
	items, err = h.db.ListOutbox()
	must(t, err)
	told := false
	for _, it := range items {
		if it.Alert != nil && it.Channel == "phone" {
			t.Errorf("the failing channel is told about itself: %+v", it.Alert)
		}
		if it.Alert != nil && it.Channel == "laptop" && strings.Contains(it.Alert.Subject, "phone") {
			told = true
		}
	}
	if !told {
		t.Errorf("the other channel was not told that the phone's pushes fail")
	}
}
