package notify

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"notifio/storage"

	"notifio/internal/model"
	"notifio/internal/polltest"
)

func quietLogger() *slog.Logger { return slog.New(slog.DiscardHandler) }

func TestRelayRetries421And451ThenDeliversOnce(t *testing.T) {
	ts := startServer(t, serverOpts{
		mode: modePlain,
		onMail: func(n int) error {
			if n == 1 {
				return smtpErr(421, "Service shutting down, try later")
			}
			return nil
		},
		onData: func(n int) error {
			if n == 1 {
				return smtpErr(451, "Local error in processing, try later")
			}
			return nil
		},
	})
	clock := newFakeClock()
	ob := newMemOutbox()
	id := ob.Add("Berlin", 2, clock.Now())
	r := NewRelay(ob, staticCfg(ts.config(model.SecurityNone), ""), RelayOptions{
		Now: clock.Now, Random: func() float64 { return 0 }, Logger: quietLogger(),
	})
	ctx := context.Background()

	// 1st attempt: 421 at MAIL FROM.
	if sent, err := r.SendDue(ctx); sent != 0 || err == nil {
		t.Fatalf("pass 1: sent %d, err %v", sent, err)
	}
	it := ob.Get(id)
	if it.State != model.OutboxPending || it.Attempts != 1 || !it.NextAttempt.Equal(clock.Now().Add(30*time.Second)) ||
		!strings.Contains(it.LastError, "421") {
		t.Fatalf("after 421: %+v", it)
	}
	// Not due yet: nothing happens.
	if sent, err := r.SendDue(ctx); sent != 0 || err != nil {
		t.Fatalf("early pass: %d %v", sent, err)
	}
	// 2nd attempt: 451 after DATA.
	clock.Advance(30 * time.Second)
	if sent, _ := r.SendDue(ctx); sent != 0 {
		t.Fatalf("pass 2 sent %d", sent)
	}
	it = ob.Get(id)
	if it.Attempts != 2 || !it.NextAttempt.Equal(clock.Now().Add(time.Minute)) || !strings.Contains(it.LastError, "451") {
		t.Fatalf("after 451: %+v", it)
	}
	// 3rd attempt succeeds.
	clock.Advance(time.Minute)
	if sent, err := r.SendDue(ctx); sent != 1 || err != nil {
		t.Fatalf("pass 3: sent %d, err %v", sent, err)
	}
	if it := ob.Get(id); it.State != model.OutboxSent || !it.SentAt.Equal(clock.Now()) {
		t.Fatalf("after success: %+v", it)
	}
	if msgs := ts.Messages(); len(msgs) != 1 {
		t.Fatalf("server has %d messages, want exactly 1", len(msgs))
	}
	// Later passes send nothing again.
	clock.Advance(time.Hour)
	if sent, err := r.SendDue(ctx); sent != 0 || err != nil || len(ts.Messages()) != 1 {
		t.Fatalf("after delivery: sent %d err %v messages %d", sent, err, len(ts.Messages()))
	}
}

func TestRelay535NeedsAttentionWithoutHotLoop(t *testing.T) {
	cert, fp := selfSigned(t)
	ts := startServer(t, serverOpts{mode: modeStartTLS, cert: cert, user: "me@example.com", pass: "correct-horse"})
	cfg := ts.config(model.SecurityStartTLS)
	cfg.Username = "me@example.com"
	cfg.PinnedCertSHA256 = fp

	var mu sync.Mutex
	password := "wrong-battery-staple"
	cfgFn := func() (model.Config, string, error) {
		mu.Lock()
		defer mu.Unlock()
		return cfg, password, nil
	}
	var logs bytes.Buffer
	clock := newFakeClock()
	ob := newMemOutbox()
	ids := []uint64{ob.Add("A", 1, clock.Now()), ob.Add("B", 1, clock.Now()), ob.Add("C", 1, clock.Now())}

	timers := make(chan time.Duration, 100)
	r := NewRelay(ob, cfgFn, RelayOptions{
		Now: clock.Now, Logger: slog.New(slog.NewTextHandler(&logs, nil)),
		After: func(d time.Duration) <-chan time.Time {
			timers <- d
			return make(chan time.Time) // never fires: the test wakes the loop itself
		},
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	nextTimer := func() time.Duration {
		t.Helper()
		select {
		case d := <-timers:
			return d
		case <-time.After(10 * time.Second):
			t.Fatal("the relay loop did not go back to sleep")
			return 0
		}
	}
	nextTimer()

	for _, id := range ids {
		it := ob.Get(id)
		if it.State != model.OutboxNeedsAttention || !strings.Contains(it.LastError, "535") ||
			!strings.Contains(it.LastError, "Username and Password not accepted") ||
			!strings.Contains(it.Hint, "username and password") {
			t.Errorf("item %d: %+v", id, it)
		}
	}
	if n := ts.AuthTries(); n != 1 {
		t.Fatalf("AUTH attempts = %d, want 1 for the whole pass", n)
	}

	// New digests keep arriving and waking the relay; with the same wrong
	// password it does not try again (they wait, pending).
	for range 5 {
		ob.Add("D", 1, clock.Now())
		r.Wake()
		if d := nextTimer(); d <= 0 {
			t.Fatalf("the loop wants to spin: sleeps %v", d)
		}
		clock.Advance(time.Minute)
	}
	if n := ts.AuthTries(); n != 1 {
		t.Fatalf("AUTH attempts = %d after more digests, want still 1", n)
	}
	if err := r.LastError(); err == nil || !strings.Contains(err.Error(), "settings change") {
		t.Errorf("LastError = %v", err)
	}

	// The user fixes the password: the waiting digests go out, and the three
	// that need attention stay so until the user retries them.
	mu.Lock()
	password = "correct-horse"
	mu.Unlock()
	r.Wake()
	nextTimer()
	if got := len(ts.Messages()); got != 5 {
		t.Errorf("%d messages after fixing the password, want 5", got)
	}
	for _, id := range ids {
		if ob.Get(id).State != model.OutboxNeedsAttention {
			t.Errorf("item %d changed state by itself", id)
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Run returned %v", err)
	}
	for _, pw := range []string{"wrong-battery-staple", "correct-horse"} {
		if strings.Contains(logs.String(), pw) {
			t.Errorf("the password %q is in the log:\n%s", pw, logs.String())
		}
	}
	if !strings.Contains(logs.String(), "needs attention") {
		t.Errorf("the failure was not logged:\n%s", logs.String())
	}
}

func TestRelayLongOutageEndsWithEverythingDelivered(t *testing.T) {
	ts := startServer(t, serverOpts{mode: modePlain})
	ts.Stop() // the server is down
	clock := newFakeClock()
	ob := newMemOutbox()
	var ids []uint64
	for i := range 4 {
		ids = append(ids, ob.Add("S", 1+i, clock.Now()))
	}
	r := NewRelay(ob, staticCfg(ts.config(model.SecurityNone), ""), RelayOptions{Now: clock.Now, Logger: quietLogger()})
	ctx := context.Background()

	start := clock.Now()
	passes := 0
	for clock.Now().Sub(start) < 8*time.Hour {
		if _, due := r.untilDue(); due {
			passes++
			if sent, err := r.SendDue(ctx); sent != 0 || err == nil {
				t.Fatalf("sent %d, err %v while the server is down", sent, err)
			}
		}
		for _, id := range ids {
			it := ob.Get(id)
			if it.State != model.OutboxPending {
				t.Fatalf("item %d gave up during the outage: %+v", id, it)
			}
			if wait := it.NextAttempt.Sub(clock.Now()); wait > 30*time.Minute {
				t.Fatalf("item %d waits %v, more than the 30 min cap", id, wait)
			}
		}
		clock.Advance(time.Minute)
	}
	// 6 growing steps (~1 h) then every 24..30 min: about 20 attempts per item
	// in 8 h, not 480 (jitter spreads the items, so passes are up to 4 × that).
	if passes < 12 || passes > len(ids)*25 {
		t.Errorf("%d passes in 8 h", passes)
	}
	for _, id := range ids {
		if a := ob.Get(id).Attempts; a < 12 || a > 30 {
			t.Errorf("item %d: %d attempts", id, a)
		}
	}

	if err := ts.Restart(); err != nil {
		t.Fatal(err)
	}
	for range 31 {
		if _, err := r.SendDue(ctx); err != nil {
			t.Fatal(err)
		}
		clock.Advance(time.Minute)
	}
	for _, id := range ids {
		if it := ob.Get(id); it.State != model.OutboxSent {
			t.Errorf("item %d not delivered after the outage: %+v", id, it)
		}
	}
	msgs := ts.Messages()
	if len(msgs) != len(ids) {
		t.Fatalf("%d messages, want %d", len(msgs), len(ids))
	}
	seen := map[string]bool{}
	for _, m := range msgs {
		id := parseMIME(t, m.Data).Header.Get("Message-Id")
		if seen[id] {
			t.Errorf("duplicate %s", id)
		}
		seen[id] = true
	}
}

func TestBackoff(t *testing.T) {
	want := []time.Duration{30 * time.Second, time.Minute, 2 * time.Minute, 5 * time.Minute,
		10 * time.Minute, 20 * time.Minute, 30 * time.Minute, 30 * time.Minute, 30 * time.Minute}
	for i, w := range want {
		if got := Backoff(i + 1); got != w {
			t.Errorf("Backoff(%d) = %v, want %v", i+1, got, w)
		}
	}
	// Jitter only ever shortens, by at most a fifth.
	clock := newFakeClock()
	for _, rnd := range []float64{0, 0.5, 0.999} {
		ob := newMemOutbox()
		id := ob.Add("x", 1, clock.Now())
		it := ob.Get(id)
		it.Attempts = 9
		ob.Put(it)
		r := NewRelay(ob, nil, RelayOptions{Now: clock.Now, Random: func() float64 { return rnd }, Logger: quietLogger()})
		r.fail(ob.Get(id), smtpErr(451, "later"))
		wait := ob.Get(id).NextAttempt.Sub(clock.Now())
		if wait > 30*time.Minute || wait < 24*time.Minute {
			t.Errorf("random %v: waits %v", rnd, wait)
		}
	}
}

func TestRelayRunSleepsUntilDueAndWakes(t *testing.T) {
	ts := startServer(t, serverOpts{mode: modePlain})
	clock := newFakeClock()
	ob := newMemOutbox()
	ob.Add("first", 1, clock.Now())

	type timer struct {
		d  time.Duration
		ch chan time.Time
	}
	timers := make(chan timer, 10)
	r := NewRelay(ob, staticCfg(ts.config(model.SecurityNone), ""), RelayOptions{
		Now: clock.Now, Logger: quietLogger(),
		After: func(d time.Duration) <-chan time.Time {
			ch := make(chan time.Time, 1)
			timers <- timer{d, ch}
			return ch
		},
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	next := func() timer {
		t.Helper()
		select {
		case tm := <-timers:
			return tm
		case <-time.After(10 * time.Second):
			t.Fatal("no timer")
			return timer{}
		}
	}

	// The due item goes out at once; with nothing pending the loop sleeps the
	// longest interval.
	tm := next()
	if len(ts.Messages()) != 1 || tm.d != maxIdle {
		t.Fatalf("messages %d, sleep %v", len(ts.Messages()), tm.d)
	}
	// Wake with a new item: it goes out without waiting for the timer.
	ob.Add("second", 1, clock.Now())
	r.Wake()
	next()
	if len(ts.Messages()) != 2 {
		t.Fatalf("messages %d after Wake", len(ts.Messages()))
	}
	// An item due in 3 minutes: the loop sleeps exactly that long.
	ob.Add("later", 1, clock.Now().Add(3*time.Minute))
	r.Wake()
	if tm = next(); tm.d != 3*time.Minute {
		t.Fatalf("sleeps %v, want 3m", tm.d)
	}
	clock.Advance(3 * time.Minute)
	tm.ch <- clock.Now()
	next()
	if len(ts.Messages()) != 3 {
		t.Fatalf("messages %d after the timer fired", len(ts.Messages()))
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return after cancel")
	}
}

func TestWakeNeverBlocks(t *testing.T) {
	r := NewRelay(newMemOutbox(), staticCfg(model.Config{}, ""), RelayOptions{})
	for range 100 {
		r.Wake()
	}
}

func TestRelayOneSendAtATime(t *testing.T) {
	ts := startServer(t, serverOpts{mode: modePlain, dataDelay: 50 * time.Millisecond})
	ob := newMemOutbox()
	now := time.Now()
	for range 6 {
		ob.Add("x", 1, now)
	}
	r := NewRelay(ob, staticCfg(ts.config(model.SecurityNone), ""), RelayOptions{Logger: quietLogger(), BatchSize: 2})
	var wg sync.WaitGroup
	var mu sync.Mutex
	total := 0
	for range 3 {
		wg.Go(func() {
			sent, err := r.SendDue(context.Background())
			if err != nil {
				t.Error(err)
			}
			mu.Lock()
			total += sent
			mu.Unlock()
		})
	}
	wg.Wait()
	if total != 6 || len(ts.Messages()) != 6 {
		t.Errorf("sent %d, server got %d, want 6 each", total, len(ts.Messages()))
	}
	if m := ts.MaxActive(); m != 1 {
		t.Errorf("%d connections at once, want 1", m)
	}
}

func TestRelayPermanentRecipientErrorKeepsItem(t *testing.T) {
	ts := startServer(t, serverOpts{mode: modePlain, onRcpt: func(to string) error {
		if to == "typo@exmaple.com" {
			return smtpErr(550, "5.1.1 Recipient address rejected: no such domain")
		}
		return nil
	}})
	cfg := ts.config(model.SecurityNone)
	cfg.To = []string{"typo@exmaple.com"}
	clock := newFakeClock()
	ob := newMemOutbox()
	id := ob.Add("x", 1, clock.Now())
	r := NewRelay(ob, staticCfg(cfg, ""), RelayOptions{Now: clock.Now, Logger: quietLogger()})
	if sent, err := r.SendDue(context.Background()); sent != 0 || err != nil {
		t.Fatalf("sent %d err %v", sent, err)
	}
	it := ob.Get(id)
	if it.State != model.OutboxNeedsAttention || !strings.Contains(it.LastError, "Recipient address rejected") ||
		!strings.Contains(it.Hint, "To address") || len(it.Listings) != 1 {
		t.Fatalf("item %+v", it)
	}
}

func TestRelayNotConfiguredLeavesOutboxAlone(t *testing.T) {
	clock := newFakeClock()
	ob := newMemOutbox()
	id := ob.Add("x", 1, clock.Now())
	r := NewRelay(ob, staticCfg(model.Config{}, ""), RelayOptions{Now: clock.Now, Logger: quietLogger()})
	if _, err := r.SendDue(context.Background()); err == nil {
		t.Fatal("no error without settings")
	}
	if it := ob.Get(id); it.State != model.OutboxPending || it.Attempts != 0 {
		t.Fatalf("item touched: %+v", it)
	}
	if d := r.step(context.Background()); d != maxIdle {
		t.Errorf("unconfigured relay sleeps %v, want %v", d, maxIdle)
	}
}

// TestRelayOverRealStorage runs the relay over the storage package's database:
// a poll commit queues a digest, the relay delivers it, the database records it.
func TestRelayOverRealStorage(t *testing.T) {
	ts := startServer(t, serverOpts{
		mode: modePlain,
		onData: func(n int) error {
			if n == 1 {
				return smtpErr(451, "try again later")
			}
			return nil
		},
	})
	clock := newFakeClock()
	db, err := storage.Open(t.TempDir(), storage.Options{Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	outboxID := queueDigest(t, db, clock.Now())

	r := NewRelay(db, staticCfg(ts.config(model.SecurityNone), ""), RelayOptions{Now: clock.Now, Logger: quietLogger()})
	if sent, _ := r.SendDue(context.Background()); sent != 0 {
		t.Fatalf("sent %d on a 451", sent)
	}
	it, err := db.GetOutbox(outboxID)
	if err != nil || it.State != model.OutboxPending || it.Attempts != 1 || !strings.Contains(it.LastError, "451") {
		t.Fatalf("after 451: %+v %v", it, err)
	}
	if next, ok := db.NextOutboxDue(); !ok || next.Sub(clock.Now()) > 30*time.Second {
		t.Fatalf("next due %v %v", next, ok)
	}
	clock.Advance(30 * time.Second)
	if sent, err := r.SendDue(context.Background()); sent != 1 || err != nil {
		t.Fatalf("sent %d err %v", sent, err)
	}
	it, _ = db.GetOutbox(outboxID)
	if it.State != model.OutboxSent {
		t.Fatalf("not marked sent: %+v", it)
	}
	msgs := ts.Messages()
	if len(msgs) != 1 {
		t.Fatalf("%d messages", len(msgs))
	}
	p := parseMIME(t, msgs[0].Data)
	if p.Header.Get("Message-Id") != it.MessageID || p.Subject != "2 new on Kreuzberg flats" {
		t.Errorf("Message-ID %q (item %q), subject %q", p.Header.Get("Message-Id"), it.MessageID, p.Subject)
	}
	if _, ok := db.NextOutboxDue(); ok {
		t.Error("something still pending")
	}
}

// queueDigest adds a search, records its baseline poll and a second poll with
// two new listings, and returns the outbox item that poll queued.
func queueDigest(t *testing.T, db *storage.DB, now time.Time) uint64 {
	t.Helper()
	s, err := db.AddSearch(model.Search{Name: "Kreuzberg flats", URL: "https://www.example-immo.de/search?q=kreuzberg"})
	if err != nil {
		t.Fatal(err)
	}
	base := []model.Listing{{ID: "example-immo.de:1", URL: "https://www.example-immo.de/expose/1", Title: "Old one"}}
	if _, err := polltest.Commit(db, s.ID, base, now); err != nil {
		t.Fatal(err)
	}
	// IDs of this search's own: the same listing found by a second search is
	// one alert, not two (issue 22).
	fresh := append(base,
		model.Listing{ID: "example-immo.de:2-" + s.ID, URL: "https://www.example-immo.de/expose/2", Title: "New one", Price: "900 €"},
		model.Listing{ID: "example-immo.de:3-" + s.ID, URL: "https://www.example-immo.de/expose/3", Title: "Newer one", Rooms: "3"},
	)
	res, err := polltest.Commit(db, s.ID, fresh, now)
	if err != nil {
		t.Fatal(err)
	}
	if res.OutboxID == 0 {
		t.Fatalf("the poll queued no digest: %+v", res)
	}
	return res.OutboxID
}

// flakyOutbox fails its next failMarks Mark* calls, like a full disk.
type flakyOutbox struct {
	*memOutbox
	mu        sync.Mutex
	failMarks int
}

func (f *flakyOutbox) failing() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.failMarks > 0 {
		f.failMarks--
		return errors.New("write notifio.db: no space left on device")
	}
	return nil
}

func (f *flakyOutbox) MarkSent(id uint64, at time.Time) error {
	if err := f.failing(); err != nil {
		return err
	}
	return f.memOutbox.MarkSent(id, at)
}

func (f *flakyOutbox) MarkRetry(id uint64, attempts int, next time.Time, lastErr string) error {
	if err := f.failing(); err != nil {
		return err
	}
	return f.memOutbox.MarkRetry(id, attempts, next, lastErr)
}

func TestRelayStorageFailureCausesNoResendAndNoBusyLoop(t *testing.T) {
	ts := startServer(t, serverOpts{mode: modePlain})
	clock := newFakeClock()
	ob := &flakyOutbox{memOutbox: newMemOutbox(), failMarks: 1}
	id := ob.Add("x", 1, clock.Now())
	r := NewRelay(ob, staticCfg(ts.config(model.SecurityNone), ""), RelayOptions{Now: clock.Now, Logger: quietLogger()})

	// Delivered, but "sent" cannot be recorded: the loop backs off.
	if d := r.step(context.Background()); d < time.Minute {
		t.Errorf("after a storage failure the loop sleeps only %v", d)
	}
	if len(ts.Messages()) != 1 || ob.Get(id).State != model.OutboxPending {
		t.Fatalf("messages %d, state %s", len(ts.Messages()), ob.Get(id).State)
	}
	// Storage recovers: the delivery is recorded, not repeated.
	if _, err := r.SendDue(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(ts.Messages()) != 1 || ob.Get(id).State != model.OutboxSent {
		t.Fatalf("messages %d, state %s: the item was sent twice or not recorded", len(ts.Messages()), ob.Get(id).State)
	}

	// The server is down and the retry cannot be recorded: no busy loop either.
	ts.Stop()
	ob.Add("y", 1, clock.Now())
	ob.mu.Lock()
	ob.failMarks = 1
	ob.mu.Unlock()
	if d := r.step(context.Background()); d < time.Minute {
		t.Errorf("after a failed MarkRetry the loop sleeps only %v", d)
	}
}
