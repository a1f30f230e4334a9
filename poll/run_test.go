package poll

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"notifio/storage"
)

// The loop itself (Run) under the fake clock: the test moves time, the loop's
// timers fire, and the test waits until the loop sleeps again with no poll in
// flight before it looks. Nothing sleeps.

// loopRun is Run going in the background of a harness.
type loopRun struct {
	h      *harness
	cancel context.CancelFunc
	done   chan error
	sleeps []time.Duration // every sleep the loop asked for
}

// startLoop starts Run and waits until it sleeps with nothing in flight.
func startLoop(h *harness) *loopRun {
	h.t.Helper()
	h.clock.mu.Lock()
	ctx, cancel := context.WithCancel(context.Background())
	l := &loopRun{h: h, cancel: cancel, done: make(chan error, 1)}
	h.clock.made = make(chan sleep, 1024)
	h.clock.idle = l.idle
	h.clock.mu.Unlock()
	go func() { l.done <- h.svc.Run(ctx) }()
	h.t.Cleanup(l.stop)
	l.settle()
	return l
}

// settle waits until the loop went to sleep with no poll in flight, no finished
// poll waiting to be planned and no wake pending (judged when it made its
// timer, not when the test reads the news).
func (l *loopRun) settle() {
	l.h.t.Helper()
	watchdog := time.NewTimer(20 * time.Second)
	defer watchdog.Stop()
	for {
		select {
		case sl := <-l.h.clock.made:
			l.sleeps = append(l.sleeps, sl.d)
			// A sleep of 0 ends at once: the loop goes round again.
			if sl.idle && sl.d > 0 {
				return
			}
		case err := <-l.done:
			l.h.t.Fatalf("Run returned while the test waited for it to sleep: %v", err)
		case <-watchdog.C:
			l.h.t.Fatal("the loop did not go back to sleep within 20 s of real time")
		}
	}
}

func (l *loopRun) idle() bool {
	s := l.h.svc
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.polling.Load() == 0 && len(s.freed) == 0 && len(s.wake) == 0
}

// advance moves the fake clock by d in steps of at most step, letting the loop
// run and settle at each.
func (l *loopRun) advance(d, step time.Duration) {
	l.h.t.Helper()
	for d > 0 {
		n := min(step, d)
		d -= n
		// When the loop's sleep ended, wait until it sleeps again; when not,
		// there is nothing to wait for.
		if l.h.clock.advance(n) > 0 {
			l.settle()
		}
	}
}

func (l *loopRun) stop() {
	if l.cancel == nil {
		return
	}
	l.cancel()
	l.cancel = nil
	select {
	case err := <-l.done:
		if err != nil {
			l.h.t.Errorf("Run returned %v on a clean stop, want nil", err)
		}
	case <-time.After(20 * time.Second):
		l.h.t.Error("Run did not return within 20 s of its context ending")
	}
}

// hitLog records when (by the fake clock) a site was asked for a page.
type hitLog struct {
	mu    sync.Mutex
	times []time.Time
}

func (h *hitLog) add(t time.Time) {
	h.mu.Lock()
	h.times = append(h.times, t)
	h.mu.Unlock()
}

func (h *hitLog) all() []time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]time.Time(nil), h.times...)
}

func TestRunPollsOnTheIntervalByItsTimers(t *testing.T) {
	h := newHarness(t, "")
	a := newSite(t, "127.0.0.1", "1", "2")
	s := h.add("Kreuzberg", a.srv.URL+"/search", 2*time.Minute)
	l := startLoop(h)
	if a.count() != 1 {
		t.Fatalf("at start the loop asked the site %d times, want 1 (the baseline)", a.count())
	}
	l.advance(100*time.Second, 10*time.Second)
	if a.count() != 1 {
		t.Fatalf("100 s into a 2-minute interval the site was asked %d times, want still 1", a.count())
	}
	a.add("3")
	l.advance(50*time.Second, 10*time.Second) // 150 s: past 2 min + 10% jitter
	if a.count() != 2 {
		t.Fatalf("after 150 s of a 2-minute interval the site was asked %d times, want 2", a.count())
	}
	items := h.outbox()
	if len(items) != 1 || len(items[0].Listings) != 1 || items[0].SearchID != s.ID {
		t.Fatalf("outbox after the second poll: %+v, want one digest of the new listing", items)
	}
	for _, d := range l.sleeps {
		if d > maxSleep || d < 0 {
			t.Fatalf("the loop asked to sleep %v, want 0–%v (so a suspended laptop is noticed)", d, maxSleep)
		}
	}
}

func TestRunWaitsOutRetryAfterThenProbesOnce(t *testing.T) {
	h := newHarness(t, "")
	a := newSite(t, "127.0.0.1", "1")
	a.set("429", "600")
	h.add("Kreuzberg", a.srv.URL+"/search", time.Minute)
	l := startLoop(h)
	if a.count() != 1 {
		t.Fatalf("at start: %d requests, want 1", a.count())
	}
	a.set("ok", "")
	l.advance(590*time.Second, 30*time.Second)
	if a.count() != 1 {
		t.Fatalf("during a 10-minute Retry-After the site was asked %d times, want 1", a.count())
	}
	l.advance(15*time.Second, 5*time.Second) // 10 min 5 s: the wait is over
	if a.count() != 2 {
		t.Fatalf("after the wait the site was asked %d times, want 2 (one probe)", a.count())
	}
	snap := h.svc.Snapshot()
	if len(snap.Sites) != 1 || snap.Sites[0].Waiting {
		t.Fatalf("after a good probe the site is %+v, want it clear", snap.Sites)
	}
}

func TestRunKeepsTheSiteGapBetweenSearchesOfOneSite(t *testing.T) {
	h := newHarness(t, "")
	var log hitLog
	a := newSite(t, "127.0.0.1", "1")
	a.onHit = func() { log.add(h.clock.Now()) }
	h.add("One", a.srv.URL+"/one", time.Minute)
	h.add("Two", a.srv.URL+"/two", time.Minute)
	h.add("Three", a.srv.URL+"/three", time.Minute)
	l := startLoop(h)
	l.advance(15*time.Second, time.Second)
	times := log.all()
	if len(times) != 3 {
		t.Fatalf("three searches of one site: %d requests in 15 s (at %v; the loop slept %v), want 3", len(times), times, l.sleeps)
	}
	for i := 1; i < len(times); i++ {
		if gap := times[i].Sub(times[i-1]); gap < 5*time.Second {
			t.Fatalf("requests %d and %d to one site %v apart, want at least the 5 s site gap", i, i+1, gap)
		}
	}
}

func TestRunPollsANewSearchAtOnce(t *testing.T) {
	h := newHarness(t, "")
	a := newSite(t, "127.0.0.1", "1")
	b := newSite(t, "127.0.0.2", "7")
	h.add("First", a.srv.URL+"/search", time.Hour)
	l := startLoop(h)
	h.add("Second", b.srv.URL+"/search", time.Hour) // AddSearch wakes the loop
	l.settle()
	if b.count() != 1 {
		t.Fatalf("a search added while the loop slept was polled %d times without the clock moving, want 1", b.count())
	}
}

func TestRunRefusesASecondRunAndStopsCleanly(t *testing.T) {
	h := newHarness(t, "")
	a := newSite(t, "127.0.0.1", "1")
	h.add("Kreuzberg", a.srv.URL+"/search", time.Minute)
	l := startLoop(h)
	if err := h.svc.Run(context.Background()); err == nil {
		t.Fatal("a second Run while one runs returned nil, want an error")
	}
	l.stop()
	// Stopped, it can run again (the window's watcher restarts after a reset).
	l2 := startLoop(h)
	l2.stop()
}

func TestHousekeepingBacksUpAndPrunesHourly(t *testing.T) {
	h := newHarness(t, "")
	a := newSite(t, "127.0.0.1", "1")
	h.add("Kreuzberg", a.srv.URL+"/search", time.Minute)
	backups := filepath.Join(h.dir, "backups")
	if err := os.RemoveAll(backups); err != nil { // Open took today's
		t.Fatal(err)
	}
	old := h.clock.Now().Add(-storage.SentRetention - time.Hour)
	h.runFor(5 * time.Second) // the baseline, by hand
	a.add("2")
	h.runFor(2 * time.Minute)
	h.markNewestSent(old)
	l := startLoop(h)
	if n := len(h.outbox()); n != 0 {
		t.Fatalf("at start %d emails sent long ago remain, want them pruned", n)
	}
	if entries, _ := os.ReadDir(backups); len(entries) != 1 {
		t.Fatalf("at start %d backups, want today's one", len(entries))
	}
	a.add("3")
	l.advance(2*time.Minute, 10*time.Second)
	h.markNewestSent(old)
	l.advance(28*time.Minute, 30*time.Second)
	if n := len(h.outbox()); n != 1 {
		t.Fatalf("half an hour later %d old emails, want 1 (housekeeping is hourly)", n)
	}
	l.advance(31*time.Minute, 30*time.Second)
	if n := len(h.outbox()); n != 0 {
		t.Fatalf("an hour later %d old emails, want 0", n)
	}
	var prints map[string]pagePrint
	if ok, err := h.db.GetSetting(printsKey, &prints); err != nil || !ok || len(prints) != 1 {
		t.Fatalf("after an hour the page prints saved: %v (ok %v, err %v), want the search's", prints, ok, err)
	}
}

// markNewestSent marks the newest digest in the outbox sent at when.
func (h *harness) markNewestSent(when time.Time) {
	h.t.Helper()
	items := h.outbox()
	if len(items) == 0 {
		h.t.Fatal("no digest in the outbox to mark sent")
	}
	newest := items[0]
	for _, it := range items {
		if it.ID > newest.ID {
			newest = it
		}
	}
	if err := h.db.MarkSent(newest.ID, when); err != nil {
		h.t.Fatal(err)
	}
}
