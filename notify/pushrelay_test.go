package notify

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"notifio/storage"

	"notifio/internal/model"
)

// failingPushOutbox is a real database whose reads of due pushes fail while
// failing is set, as on a disk that went read-only or a damaged page.
type failingPushOutbox struct {
	*storage.DB
	mu      sync.Mutex
	failing bool
}

func (f *failingPushOutbox) DueChannelOutbox(now time.Time, limit int) ([]model.OutboxItem, error) {
	f.mu.Lock()
	failing := f.failing
	f.mu.Unlock()
	if failing {
		return nil, errors.New("reading the outbox: input/output error")
	}
	return f.DB.DueChannelOutbox(now, limit)
}

// While storage fails, the push relay's Run loop backs off as the email
// relay's does (1 m, 2 m, 5 m …) instead of trying again every second all
// night; once storage works again it sends at once and the backoff ends.
func TestPushRelayBacksOffWhileStorageFails(t *testing.T) {
	ps := startPushServer(t, nil)
	now := time.Now()
	db, id := pushSetup(t, model.Channel{Name: "phone", Service: "ntfy"}, now)
	ob := &failingPushOutbox{DB: db, failing: true}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var waits []time.Duration
	after := func(d time.Duration) <-chan time.Time {
		waits = append(waits, d) // Run's goroutine only
		ch := make(chan time.Time, 1)
		switch len(waits) {
		case 3:
			ob.mu.Lock()
			ob.failing = false // storage recovers
			ob.mu.Unlock()
		case 4:
			cancel()
		}
		ch <- now
		return ch
	}
	r := NewPushRelay(ob, urlsOf(map[string]string{"phone": ps.ntfyURL()}),
		RelayOptions{Now: func() time.Time { return now }, After: after, Logger: quietLogger()})
	done := make(chan struct{})
	go func() { defer close(done); _ = r.Run(ctx) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not stop")
	}
	if len(waits) != 4 {
		t.Fatalf("waits %v", waits)
	}
	for i, want := range []time.Duration{time.Minute, 2 * time.Minute, 5 * time.Minute} {
		if waits[i] != want {
			t.Errorf("wait %d after a storage failure = %v, want %v (all: %v)", i+1, waits[i], want, waits)
		}
	}
	if waits[3] != maxIdle {
		t.Errorf("after storage recovered and the push went out the loop sleeps %v, want %v", waits[3], maxIdle)
	}
	if it, _ := db.GetOutbox(id); it.State != model.OutboxSent || len(ps.Posts()) != 1 {
		t.Errorf("item %s, %d posts: want sent once after storage recovered", it.State, len(ps.Posts()))
	}
}
