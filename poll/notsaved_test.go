package poll

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"notifio/storage"

	"notifio/internal/model"
)

// TestAPollThatCouldNotBeSavedIsNotHealthy (issue 35 item 8): after a poll
// whose findings could not be written on a full disk, status said "All
// healthy". The search's health now says it, in words, until a poll is
// saved again.
func TestAPollThatCouldNotBeSavedIsNotHealthy(t *testing.T) {
	h := newHarness(t, "")
	a := newSite(t, "127.0.0.2", "1", "2")
	h.add("a", a.srv.URL+"/s", time.Minute)
	h.pollNext(time.Hour) // baseline
	h.reopen(storage.Options{MaxSize: h.fileSize()})
	for i := range 900 {
		a.add(fmt.Sprint("new", i))
	}
	h.pollNext(time.Hour)
	h.svc.checkHealth(h.clock.Now())
	hl := h.svc.Snapshot().Searches[0].Health
	if !hl.Kind.NeedsUser() || !strings.Contains(hl.Problem, "disk holding its data is full") || hl.Hint == "" {
		t.Fatalf("after a poll that could not be saved the health is %+v, want one that needs the user and says the disk is full", hl)
	}
	h.reopen(storage.Options{}) // room again
	h.pollNext(time.Hour)
	h.svc.checkHealth(h.clock.Now())
	if hl := h.svc.Snapshot().Searches[0].Health; hl.Kind != model.HealthOK {
		t.Errorf("after a saved poll the health is %+v, want ok", hl)
	}
}
