package main

import (
	"context"
	"sync"
	"time"

	"notifio/internal/api"
	"notifio/ui"

	"notifio/internal/model"
)

// link is the window's backend: the watcher's API client, whose snapshot
// stream also tells the window when the watcher stopped answering and when
// it is back.
type link struct {
	*api.Client
	info api.Info // who answered when the window attached (or last started it)

	mu           sync.Mutex
	gone         bool
	onGone, back func()
}

var _ ui.Backend = (*link)(nil)

func newLink(sock string) *link {
	c := api.NewClient(sock)
	c.Version = version
	return &link{Client: c}
}

// setObserver sets what is called when the watcher stops answering and when
// it answers again (from the stream's goroutine).
func (l *link) setObserver(gone, back func()) {
	l.mu.Lock()
	l.onGone, l.back = gone, back
	l.mu.Unlock()
}

// setGone records whether the watcher answers and tells the observer of a
// change.
func (l *link) setGone(gone bool) {
	l.mu.Lock()
	changed := l.gone != gone
	l.gone = gone
	fn := l.back
	if gone {
		fn = l.onGone
	}
	l.mu.Unlock()
	if changed && fn != nil {
		fn()
	}
}

// reconnectEvery is how often the stream tries again after the watcher went
// away.
const reconnectEvery = time.Second

// Subscribe streams the watcher's snapshots to fn until cancel; when the
// stream ends the watcher is gone (setGone) and it is tried again every
// second, so a watcher started again is followed.
func (l *link) Subscribe(fn func(model.Snapshot)) (cancel func()) {
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			_ = l.Watch(ctx, func(s model.Snapshot) {
				l.setGone(false)
				fn(s)
			})
			if ctx.Err() != nil {
				return
			}
			l.setGone(true)
			select {
			case <-ctx.Done():
				return
			case <-time.After(reconnectEvery):
			}
		}
	}()
	return func() { stop(); <-done }
}
