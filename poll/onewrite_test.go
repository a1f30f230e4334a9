package poll

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"notifio/storage"
)

// pollNext steps the fake clock second by second, up to limit, until a poll is
// due, runs it through the pipeline (execute, finish) and returns how many
// bbolt transactions its finish committed. It runs no health check: only the
// poll's own writes are counted.
func (h *harness) pollNext(limit time.Duration) uint64 {
	h.t.Helper()
	end := h.clock.Now().Add(limit)
	for now := h.clock.Now(); !now.After(end); now = now.Add(time.Second) {
		h.clock.set(now)
		jobs, _ := h.svc.plan(now)
		if len(jobs) == 0 {
			continue
		}
		if len(jobs) > 1 {
			h.t.Fatalf("%d polls due at once, want one", len(jobs))
		}
		res := h.svc.execute(context.Background(), jobs[0])
		c0 := h.db.Commits()
		h.svc.finish(jobs[0], res, now)
		return h.db.Commits() - c0
	}
	h.t.Fatalf("no poll due within %s", limit)
	return 0
}

// Each poll whose outcome changes something is one bbolt transaction: the
// baseline (listings and both last answers), a refusal (the backoff wait and
// both last answers), and the probe that ends it with a new listing (the wait
// cleared, the listing and its digest, both last answers). Before SavePoll
// these were 3, 3 and 4 transactions. After a restart all of it is there.
func TestOnePollOneTransaction(t *testing.T) {
	dir := t.TempDir()
	h := newHarness(t, dir)
	a := newSite(t, "127.0.0.2", "1", "2")
	h.add("a", a.srv.URL+"/s", time.Minute)
	steps := []struct {
		name  string
		serve func()
	}{
		{"baseline", func() {}},
		{"refused", func() { a.set("429", "") }},
		{"probe finds a new listing", func() { a.set("ok", ""); a.add("3") }},
	}
	for _, st := range steps {
		st.serve()
		if n := h.pollNext(time.Hour); n != 1 {
			t.Errorf("%s: %d transactions, want 1", st.name, n)
		}
	}
	if _, ok := h.svc.reg.Lookup("127.0.0.2"); ok {
		t.Fatal("the probe's success left the site waiting")
	}

	h.svc.Close()
	h.svc = h.open()
	if _, ok := h.svc.reg.Lookup("127.0.0.2"); ok {
		t.Error("after a restart the site waits again: the cleared wait was not saved")
	}
	snap := h.svc.Snapshot()
	if len(snap.Searches) != 1 || snap.Searches[0].LastOutcome != "ok" {
		t.Errorf("after a restart the search's last answer is %+v, want ok", snap.Searches)
	}
	if len(snap.Sites) != 1 || snap.Sites[0].LastStatus != 200 {
		t.Errorf("after a restart the site's last answer is %+v, want the 200", snap.Sites)
	}
	if out := h.outbox(); len(out) != 1 || len(out[0].Listings) != 1 {
		t.Errorf("outbox after the new listing: %+v, want one digest of one listing", out)
	}
}

// A poll whose one write fails (the disk is full: the database is capped at its
// size) leaves nothing of itself in the database — not its listings, not the
// cleared wait, not the new last answers — and the search says it could not
// save. The watcher keeps what it knows in memory, and with room again after a
// restart the same listings are found new and saved.
func TestFailedPollWriteLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	h := newHarness(t, dir)
	a := newSite(t, "127.0.0.2", "1", "2")
	h.add("a", a.srv.URL+"/s", time.Minute)
	h.pollNext(time.Hour) // baseline
	a.set("429", "")
	h.pollNext(time.Hour)
	h.reopen(storage.Options{MaxSize: h.fileSize()})

	a.set("ok", "")
	for i := range 900 {
		a.add(fmt.Sprint("new", i))
	}
	h.pollNext(time.Hour)
	if s := h.svc.Snapshot().Searches[0]; s.LastOutcome != "error" {
		t.Errorf("after a failed save the search says %q, want error", s.LastOutcome)
	}
	if _, waiting := h.svc.reg.Lookup("127.0.0.2"); waiting {
		t.Error("in memory the site still waits after it answered")
	}
	if ls, _ := h.db.ListListings(h.svc.Snapshot().Searches[0].ID); len(ls) != 2 {
		t.Errorf("%d listings saved by a failed poll, want the baseline's 2", len(ls))
	}

	h.reopen(storage.Options{}) // room again
	snap := h.svc.Snapshot()
	if _, waiting := h.svc.reg.Lookup("127.0.0.2"); !waiting || snap.Searches[0].LastOutcome != "rate_limited" {
		t.Fatalf("after the failed poll the database says waiting %v, last answer %q; want the refusal before it",
			waiting, snap.Searches[0].LastOutcome)
	}
	h.pollNext(time.Hour)
	if out := h.outbox(); len(out) != 1 || len(out[0].Listings) != 900 {
		t.Fatalf("with room again: %d digests, want one of the 900 listings", len(out))
	}
}

// reopen restarts the watcher over the same data directory with opts.
func (h *harness) reopen(opts storage.Options) {
	h.t.Helper()
	h.svc.Close()
	must(h.t, h.db.Close())
	db, err := storage.Open(h.dir, opts)
	must(h.t, err)
	h.db = db
	h.svc = h.open()
}

func (h *harness) fileSize() int {
	h.t.Helper()
	st, err := os.Stat(filepath.Join(h.dir, storage.FileName))
	must(h.t, err)
	return int(st.Size())
}
