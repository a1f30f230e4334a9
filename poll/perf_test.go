package poll

import (
	"testing"
	"time"
)

// A page byte-identical to the last committed one is neither parsed nor
// committed again (no fsync); a page that changes is, and its new listing is
// still queued; a successful poll of a site with no backoff entry writes no
// backoff state.
func TestUnchangedPageIsNotCommittedAgain(t *testing.T) {
	h := newHarness(t, "")
	a := newSite(t, "127.0.0.1", "1", "2", "3")
	h.add("Kreuzberg", a.srv.URL+"/search", time.Minute)
	h.runFor(0) // baseline
	c0 := h.db.Commits()
	h.runFor(5 * time.Minute)
	polls := a.count() - 1
	if polls < 3 {
		t.Fatalf("only %d polls after the baseline", polls)
	}
	if got := h.db.Commits() - c0; got != 0 {
		t.Errorf("%d commits for %d polls of an unchanged page, want 0", got, polls)
	}
	snap := h.svc.Snapshot()
	if s := snap.Searches[0]; s.LastOutcome != "ok" || s.LastCount != 3 {
		t.Errorf("after unchanged polls: outcome %q, last count %d; want ok, 3", s.LastOutcome, s.LastCount)
	}
	a.add("4")
	h.runFor(2 * time.Minute)
	if n := len(h.outbox()); n != 1 {
		t.Fatalf("%d digests after a new listing, want 1", n)
	}
}
