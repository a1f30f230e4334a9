package notify

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"notifio/internal/model"
)

// PushOutbox is the part of the storage the push relay needs; storage.DB
// implements it.
type PushOutbox interface {
	DueChannelOutbox(now time.Time, limit int) ([]model.OutboxItem, error)
	NextChannelDue() (time.Time, bool)
	ListChannels() ([]model.Channel, error)
	MarkSent(id uint64, at time.Time) error
	MarkRetry(id uint64, attempts int, next time.Time, lastErr string) error
	MarkNeedsAttention(id uint64, lastErr, hint string) error
	HoldOutbox(id uint64, until time.Time) error
}

// PushRelay delivers the push channels' outbox items as Relay delivers
// email's: an item is marked sent only after the service accepted it;
// temporary failures are retried with the same backoff and jitter (Backoff),
// permanent ones need attention with the service's words and a hint; nothing
// is deleted unsent, so a crash between the service's acceptance and "sent"
// can only repeat a push, never lose one. A channel's due items go out as one
// push, and in its quiet hours they are held until the hours end, when they
// arrive as that one summary. Safe for concurrent use; one pass at a time.
type PushRelay struct {
	outbox PushOutbox
	urls   func(name string) (string, error)
	send   func(ctx context.Context, rawURL string, m PushMessage) error
	now    func() time.Time
	random func() float64
	after  func(time.Duration) <-chan time.Time
	log    *slog.Logger
	change func()
	wake   chan struct{}
	passMu sync.Mutex
	// stallRuns counts Run's passes in a row that storage failed; Run only.
	stallRuns int
}

// NewPushRelay makes a push relay over outbox; urls gives a channel's service
// URL (Secrets.ServiceURL). opts are the email relay's: the clock, jitter,
// timer, logger and OnChange hook (BatchSize is how many due items are read per
// pass, default 200).
func NewPushRelay(outbox PushOutbox, urls func(string) (string, error), opts RelayOptions) *PushRelay {
	opts = opts.withDefaults()
	return &PushRelay{outbox: outbox, urls: urls, send: SendPush, now: opts.Now, random: opts.Random,
		after: opts.After, log: opts.Logger, change: opts.OnChange, wake: make(chan struct{}, 1)}
}

// Wake makes Run look at the outbox now. It never blocks.
func (r *PushRelay) Wake() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// Run delivers until ctx is cancelled, sleeping until the next item is due
// (at most maxIdle) or Wake is called.
func (r *PushRelay) Run(ctx context.Context) error {
	for ctx.Err() == nil {
		wait := r.step(ctx)
		select {
		case <-ctx.Done():
		case <-r.wake:
		case <-r.after(wait):
		}
	}
	return nil
}

// step sends what is due and says how long to sleep. When storage fails the
// items stay due, so looking again after minGap would only repeat the error a
// second later, all night: like the email relay, it backs off (Backoff) until
// a pass goes through.
func (r *PushRelay) step(ctx context.Context) time.Duration {
	_, err := r.SendDue(ctx)
	if ctx.Err() != nil {
		return 0
	}
	if err != nil {
		r.stallRuns++
		wait := min(Backoff(r.stallRuns+1), maxIdle)
		r.log.Warn("push pass stopped", "err", err, "retry_in", wait.String())
		return wait
	}
	r.stallRuns = 0
	wait := maxIdle
	if next, ok := r.outbox.NextChannelDue(); ok {
		wait = min(max(next.Sub(r.now()), minGap), maxIdle)
	}
	return wait
}

// SendDue sends every push due now, one per channel, and returns how many
// items the services accepted. An error means storage failed; the items'
// own failures are in the outbox.
func (r *PushRelay) SendDue(ctx context.Context) (int, error) {
	r.passMu.Lock()
	defer r.passMu.Unlock()
	items, err := r.outbox.DueChannelOutbox(r.now(), 200)
	if err != nil || len(items) == 0 {
		return 0, err
	}
	if r.change != nil {
		defer r.change()
	}
	chans, err := r.outbox.ListChannels()
	if err != nil {
		return 0, fmt.Errorf("reading the push channels: %w", err)
	}
	byName := map[string]model.Channel{}
	for _, c := range chans {
		byName[c.Name] = c
	}
	// One push per channel for its listings and one for its alerts: a
	// lock screen shows each for what it is.
	type group struct {
		channel string
		alerts  bool
	}
	var order []group
	groups := map[group][]model.OutboxItem{}
	for _, it := range items {
		g := group{it.Channel, it.Alert != nil}
		if groups[g] == nil {
			order = append(order, g)
		}
		groups[g] = append(groups[g], it)
	}
	sent := 0
	for _, g := range order {
		if ctx.Err() != nil {
			return sent, ctx.Err()
		}
		n, err := r.deliver(ctx, byName[g.channel], g.channel, groups[g])
		sent += n
		if err != nil {
			return sent, err
		}
	}
	return sent, nil
}

// deliver sends one channel's due items as one push, or holds them for its
// quiet hours.
func (r *PushRelay) deliver(ctx context.Context, ch model.Channel, name string, items []model.OutboxItem) (int, error) {
	if ch.Name == "" {
		return 0, r.markAll(items, &DeliveryError{Err: fmt.Errorf("the push channel %q no longer exists", name),
			Hint: "Add the channel again with \"notifio push add\""})
	}
	quiet, err := model.ParseQuiet(ch.Quiet)
	if err != nil {
		return 0, r.markAll(items, &DeliveryError{Err: err, Hint: hintPushURL})
	}
	if until, ok := quiet.Until(r.now()); ok {
		for _, it := range items {
			if err := r.outbox.HoldOutbox(it.ID, until); err != nil {
				return 0, fmt.Errorf("holding item %d for quiet hours: %w", it.ID, err)
			}
		}
		r.log.Info("push held for quiet hours", "channel", name, "items", len(items), "until", until.Format(time.RFC3339))
		return 0, nil
	}
	rawURL, err := r.urls(name)
	if err != nil {
		return 0, r.markAll(items, &DeliveryError{Err: fmt.Errorf("the service URL of channel %q: %w", name, err),
			Hint: "Add the channel again with \"notifio push add\" (its URL is kept in the system keyring, which does not have it)"})
	}
	msg, err := ComposePush(items)
	if err != nil {
		return 0, r.markAll(items, &DeliveryError{Err: err, Hint: "The search's listings are still in Notifio"})
	}
	if err := r.send(ctx, rawURL, msg); err != nil {
		if ctx.Err() != nil {
			return 0, ctx.Err() // shutting down: the items stay due, untouched
		}
		return 0, r.markAll(items, err)
	}
	at := r.now()
	for _, it := range items {
		if err := r.outbox.MarkSent(it.ID, at); err != nil {
			return 0, fmt.Errorf("recording push item %d as sent: %w", it.ID, err)
		}
	}
	r.log.Info("push sent", "channel", name, "service", ch.Service, "items", len(items), "title", msg.Title)
	return len(items), nil
}

// markAll records one failure for every item of a push: retry later (backoff
// with jitter) if temporary, else needs attention.
func (r *PushRelay) markAll(items []model.OutboxItem, err error) error {
	temp, hint := Classify(err)
	words := errWords(err)
	for _, it := range items {
		if !temp {
			if merr := r.outbox.MarkNeedsAttention(it.ID, words, hint); merr != nil {
				return fmt.Errorf("recording the failure of push item %d: %w", it.ID, merr)
			}
			continue
		}
		attempts := it.Attempts + 1
		wait := jittered(attempts, r.random)
		var de *DeliveryError
		if errors.As(err, &de) && de.RetryAfter > wait { // the service's wish wins when longer
			wait = de.RetryAfter
		}
		if merr := r.outbox.MarkRetry(it.ID, attempts, r.now().Add(wait), words); merr != nil {
			return fmt.Errorf("recording the failed attempt of push item %d: %w", it.ID, merr)
		}
	}
	if temp {
		r.log.Warn("push not sent, will retry", "channel", items[0].Channel, "items", len(items), "err", words)
	} else {
		r.log.Error("push needs attention", "channel", items[0].Channel, "items", len(items), "err", words, "hint", hint)
	}
	return nil
}
