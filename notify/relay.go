package notify

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"time"

	"notifio/internal/model"
)

// Outbox is the part of the storage the relay needs. storage.DB implements it.
type Outbox interface {
	// DueOutbox returns up to limit pending items whose next attempt is due at
	// now, oldest first.
	DueOutbox(now time.Time, limit int) ([]model.OutboxItem, error)
	// MarkSent records that the server accepted the item.
	MarkSent(id uint64, at time.Time) error
	// MarkRetry keeps the item pending, to be tried again at next.
	MarkRetry(id uint64, attempts int, next time.Time, lastErr string) error
	// MarkNeedsAttention keeps the item, unsent, for the user to look at.
	MarkNeedsAttention(id uint64, lastErr, hint string) error
	// NextOutboxDue is the earliest next attempt of a pending item, if any.
	NextOutboxDue() (time.Time, bool)
}

// RelayOptions are the relay's hooks; the zero value is the real clock.
type RelayOptions struct {
	// Now is the clock (default time.Now).
	Now func() time.Time
	// Random returns a number in [0, 1) for the backoff jitter (default math/rand).
	Random func() float64
	// After is the timer the Run loop sleeps on (default time.After); tests drive
	// the loop through it with a fake clock.
	After func(d time.Duration) <-chan time.Time
	// Logger receives one line per delivery or failure (default slog.Default()).
	// Passwords never reach it.
	Logger *slog.Logger
	// BatchSize is how many due items are read at a time (default 20).
	BatchSize int
	// OnChange, if set, is called after every pass that tried to send
	// something, so observers (the window's outbox banner) can refresh. It must
	// not block.
	OnChange func()
	// AlsoWake, if set, is called by Wake: the poller wakes the email relay
	// after queueing a digest, and the push relay (PushRelay.Wake) must hear
	// it too. It must not block.
	AlsoWake func()
}

// The backoff after the n-th consecutive temporary failure of an item: 30 s,
// 1 m, 2 m, 5 m, 10 m, 20 m, then 30 m for ever. Jitter takes up to a fifth
// off each step, so items that failed together do not come back in lockstep.
var backoffSteps = []time.Duration{
	30 * time.Second, time.Minute, 2 * time.Minute, 5 * time.Minute,
	10 * time.Minute, 20 * time.Minute, 30 * time.Minute,
}

const (
	// maxIdle is the longest the Run loop sleeps without looking at the outbox:
	// a safety net for a missed Wake and for a computer that slept (timers do
	// not count suspended time).
	maxIdle = 5 * time.Minute
	// minGap keeps a misbehaving outbox (an item still due right after being
	// handled) from turning the loop into a busy loop.
	minGap = time.Second
	// blockFor is how long a permanent connection-level failure (wrong
	// password, certificate, security for the port) stops the relay from
	// talking to the server again with unchanged settings.
	blockFor = time.Hour
	// maxErrLen bounds the error text stored with an item.
	maxErrLen = 1000
)

// Backoff is the delay before attempt number attempts+1 of an item that has
// failed attempts times in a row (attempts >= 1), before jitter.
func Backoff(attempts int) time.Duration {
	i := min(max(attempts, 1), len(backoffSteps)) - 1
	return backoffSteps[i]
}

// jittered is Backoff(attempts) less up to a fifth, drawn from random.
func jittered(attempts int, random func() float64) time.Duration {
	d := Backoff(attempts)
	return d - time.Duration(float64(d)*0.2*random())
}

// Relay delivers the outbox: it sends due items one at a time and marks each
// sent only after the server accepted it. Temporary failures are retried with
// backoff and jitter (attempts counted, no limit: a long outage ends with
// everything delivered); permanent ones become "needs attention" with the
// server's words and a hint. Nothing is ever deleted unsent.
//
// A permanent failure to connect or sign in (wrong password, TLS or certificate,
// wrong security for the port) marks the items it was tried for and then stops
// the relay from contacting the server again until the settings or the password
// change (or an hour passes), so a wrong password causes one AUTH attempt, not
// one per item or per poll. Items that arrive meanwhile stay pending. Items that
// need attention are never retried by the relay itself: after the user fixed the
// cause, the UI puts them back (storage's RetryOutbox) and calls Wake.
type Relay struct {
	outbox Outbox
	cfgFn  func() (model.Config, string, error)
	now    func() time.Time
	random func() float64
	after  func(time.Duration) <-chan time.Time
	log    *slog.Logger
	batch  int
	wake   chan struct{}
	change func()
	also   func()

	sendMu sync.Mutex // one pass, hence one send, at a time

	mu         sync.Mutex
	blocked    *blockState
	lastErr    error
	stallRuns  int
	unrecorded map[uint64]time.Time // delivered, but MarkSent failed
}

type blockState struct {
	key   [32]byte // settings and password (hashed) that failed
	until time.Time
	err   error
}

// NewRelay makes a relay over outbox. cfgFn is asked for the settings and the
// password at the start of every pass, so changed settings take effect at once
// (call Wake after saving them).
func NewRelay(outbox Outbox, cfgFn func() (model.Config, string, error), opts RelayOptions) *Relay {
	opts = opts.withDefaults()
	r := &Relay{
		outbox: outbox,
		cfgFn:  cfgFn,
		now:    opts.Now,
		random: opts.Random,
		after:  opts.After,
		log:    opts.Logger,
		batch:  opts.BatchSize,
		wake:   make(chan struct{}, 1),
		change: opts.OnChange,
		also:   opts.AlsoWake,
	}
	if r.batch <= 0 {
		r.batch = 20
	}
	return r
}

// withDefaults fills in the clock, jitter, timer and logger left unset (the
// email and the push relay share them).
func (o RelayOptions) withDefaults() RelayOptions {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Random == nil {
		o.Random = rand.Float64
	}
	if o.After == nil {
		o.After = time.After
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return o
}

// Wake makes Run look at the outbox now: after a poll queued a digest, or the
// email settings changed. It never blocks.
func (r *Relay) Wake() {
	if r.also != nil {
		r.also()
	}
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// LastError is the error of the last pass, nil if it went well. For the UI's
// status line; per-item errors are in the outbox.
func (r *Relay) LastError() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.lastErr
}

// Run delivers the outbox until ctx is cancelled: it sleeps until the earliest
// pending item is due or Wake is called, then sends everything due. It returns
// nil when ctx is cancelled.
func (r *Relay) Run(ctx context.Context) error {
	for {
		if ctx.Err() != nil {
			return nil
		}
		wait := r.step(ctx)
		select {
		case <-ctx.Done():
			return nil
		case <-r.wake:
		case <-r.after(wait):
		}
	}
}

// step sends what is due, if anything, and says how long to sleep.
func (r *Relay) step(ctx context.Context) time.Duration {
	if wait, due := r.untilDue(); !due {
		return wait
	}
	_, stalled, err := r.pass(ctx)
	if ctx.Err() != nil {
		return 0
	}
	if stalled {
		// Nothing was marked (not configured, settings or storage error,
		// blocked): sleep until woken, or a while.
		r.mu.Lock()
		r.stallRuns++
		n := r.stallRuns
		r.mu.Unlock()
		if errors.Is(err, model.ErrNotConfigured) {
			return maxIdle
		}
		return min(Backoff(n+1), maxIdle)
	}
	r.mu.Lock()
	r.stallRuns = 0
	r.mu.Unlock()
	wait, _ := r.untilDue()
	return max(wait, minGap)
}

// untilDue is how long until the earliest pending item is due (capped at
// maxIdle), and whether one is due now.
func (r *Relay) untilDue() (time.Duration, bool) {
	next, ok := r.outbox.NextOutboxDue()
	if !ok {
		return maxIdle, false
	}
	d := next.Sub(r.now())
	if d <= 0 {
		return 0, true
	}
	return min(d, maxIdle), false
}

// SendDue sends every item due now, one at a time over one connection, and
// returns how many the server accepted. It is what `notifio once` calls to
// drain the outbox. An error means the pass could not run or stopped early
// (settings, storage, the server unreachable); the affected items carry their
// own errors in the outbox.
func (r *Relay) SendDue(ctx context.Context) (sent int, err error) {
	sent, _, err = r.pass(ctx)
	return sent, err
}

// pass is one SendDue. stalled means it stopped without recording progress
// (settings missing or wrong, blocked, storage failing), so running it again
// soon would only repeat the same error: the Run loop then backs off.
func (r *Relay) pass(ctx context.Context) (sent int, stalled bool, err error) {
	r.sendMu.Lock()
	defer r.sendMu.Unlock()
	tried := false
	defer func() {
		if tried && r.change != nil {
			r.change()
		}
	}()
	defer func() {
		r.mu.Lock()
		r.lastErr = err
		r.mu.Unlock()
	}()

	p, err := r.startPass()
	if err != nil {
		return 0, true, err
	}
	defer p.close()
	seen := make(map[uint64]bool)
	for {
		if err := ctx.Err(); err != nil {
			return p.sent, false, err
		}
		items, err := r.fresh(seen)
		if err != nil {
			return p.sent, p.sent == 0, err
		}
		if len(items) == 0 {
			return p.sent, false, nil
		}
		tried = true
		for i := range items {
			if goOn, stalled, err := p.deliver(ctx, items[i:], seen); !goOn {
				return p.sent, stalled, err
			}
		}
	}
}

// relayPass is one pass's settings, its connection (dialled when the first
// message is ready) and what it has sent.
type relayPass struct {
	r      *Relay
	cfg    model.Config
	sender *Sender
	key    [32]byte
	sess   *Session
	sent   int
}

// startPass reads the settings; an error means nothing can be sent now.
func (r *Relay) startPass() (*relayPass, error) {
	cfg, password, err := r.cfgFn()
	if err != nil {
		return nil, fmt.Errorf("email settings: %w", err)
	}
	if !cfg.Configured() {
		return nil, model.ErrNotConfigured
	}
	sender, err := NewSender(cfg, password)
	if err != nil {
		return nil, err
	}
	key := settingsKey(cfg, password)
	if b := r.blockedFor(key); b != nil {
		return nil, fmt.Errorf("not contacting the server until the email settings change: %w", b)
	}
	return &relayPass{r: r, cfg: cfg, sender: sender, key: key}, nil
}

func (p *relayPass) close() {
	if p.sess != nil {
		_ = p.sess.Close()
	}
}

// deliver sends rest[0], the next due item, on the pass's connection. goOn is
// false when the pass must stop, with stalled and err as pass returns them;
// rest is the items not yet handled, which share a failure of the connection.
func (p *relayPass) deliver(ctx context.Context, rest []model.OutboxItem, seen map[uint64]bool) (goOn, stalled bool, err error) {
	r, item := p.r, rest[0]
	if err := ctx.Err(); err != nil {
		return false, false, err // untouched items stay due
	}
	if done, err := r.recordEarlierDelivery(item); done || err != nil {
		return err == nil, err != nil, err
	}
	msg, err := ComposeDigest(item, p.cfg)
	if err != nil {
		if err := r.needsAttention(item, fmt.Errorf("building the digest: %w", err),
			"This digest could not be built; the search's listings are still in Notifio"); err != nil {
			return false, true, err
		}
		return true, false, nil
	}
	if p.sess == nil {
		if goOn, stalled, err := p.dial(ctx, rest, seen); !goOn {
			return false, stalled, err
		}
	}
	err = p.sess.Send(msg)
	if err == nil {
		return p.recordSent(item)
	}
	if ctx.Err() != nil {
		return false, false, ctx.Err()
	}
	if connectionLost(err) {
		// The connection is gone: this item and the rest wait together.
		if serr := r.failAll(rest, seen, err); serr != nil {
			return false, true, serr
		}
		return false, false, err
	}
	if serr := r.fail(item, err); serr != nil {
		return false, true, serr
	}
	return true, false, nil
}

// dial opens the pass's connection. When it cannot, nothing can be sent on
// this pass: every due item shares the failure (one connection attempt, one
// AUTH, per pass).
func (p *relayPass) dial(ctx context.Context, rest []model.OutboxItem, seen map[uint64]bool) (goOn, stalled bool, err error) {
	sess, err := p.sender.Dial(ctx)
	if err == nil {
		p.sess = sess
		return true, false, nil
	}
	if ctx.Err() != nil {
		return false, false, ctx.Err()
	}
	if temp, _ := Classify(err); !temp {
		p.r.block(p.key, err)
	}
	if serr := p.r.failAll(rest, seen, err); serr != nil {
		return false, true, serr
	}
	return false, false, err
}

// recordSent marks an accepted item sent.
func (p *relayPass) recordSent(item model.OutboxItem) (goOn, stalled bool, err error) {
	r := p.r
	p.sent++
	if err := r.outbox.MarkSent(item.ID, r.now()); err != nil {
		// Delivered but not recorded. Remember it, so that this process does
		// not send it again while storage is in trouble (after a restart it
		// would go again, with the same Message-ID), and stop: storage needs
		// to recover first.
		r.rememberDelivery(item.ID)
		r.log.Error("email sent but not recorded as sent", "item", item.ID, "err", err)
		return false, true, fmt.Errorf("recording item %d as sent: %w", item.ID, err)
	}
	r.log.Info("email sent", "item", item.ID, "search", item.SearchName,
		"listings", len(item.Listings), "message_id", messageID(item))
	return true, false, nil
}

// rememberDelivery notes an item the server accepted but storage did not record.
func (r *Relay) rememberDelivery(id uint64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.unrecorded == nil {
		r.unrecorded = make(map[uint64]time.Time)
	}
	r.unrecorded[id] = r.now()
}

// recordEarlierDelivery records an item that was delivered earlier in this
// process but could not be marked sent then. done reports that the item needs
// no sending.
func (r *Relay) recordEarlierDelivery(item model.OutboxItem) (done bool, err error) {
	r.mu.Lock()
	at, ok := r.unrecorded[item.ID]
	r.mu.Unlock()
	if !ok {
		return false, nil
	}
	if err := r.outbox.MarkSent(item.ID, at); err != nil {
		return true, fmt.Errorf("recording item %d as sent: %w", item.ID, err)
	}
	r.mu.Lock()
	delete(r.unrecorded, item.ID)
	r.mu.Unlock()
	return true, nil
}

// fresh returns due items not yet handled in this pass.
func (r *Relay) fresh(seen map[uint64]bool) ([]model.OutboxItem, error) {
	items, err := r.outbox.DueOutbox(r.now(), r.batch)
	if err != nil {
		return nil, fmt.Errorf("reading the outbox: %w", err)
	}
	out := items[:0:0]
	for _, it := range items {
		if !seen[it.ID] {
			seen[it.ID] = true
			out = append(out, it)
		}
	}
	return out, nil
}

// failAll records err for items and for every other item due now. It returns
// a storage error, if recording failed.
func (r *Relay) failAll(items []model.OutboxItem, seen map[uint64]bool, err error) error {
	for {
		for _, it := range items {
			if serr := r.fail(it, err); serr != nil {
				return serr
			}
		}
		more, ferr := r.fresh(seen)
		if ferr != nil {
			return ferr
		}
		if len(more) == 0 {
			return nil
		}
		items = more
	}
}

// fail records a failed attempt: retry later if temporary, else needs
// attention. It returns a storage error, if recording failed.
func (r *Relay) fail(item model.OutboxItem, err error) error {
	temp, hint := Classify(err)
	if !temp {
		return r.needsAttention(item, err, hint)
	}
	attempts := item.Attempts + 1
	d := jittered(attempts, r.random)
	next := r.now().Add(d)
	words := errWords(err)
	if merr := r.outbox.MarkRetry(item.ID, attempts, next, words); merr != nil {
		r.log.Error("could not record a failed email attempt", "item", item.ID, "err", merr)
		return fmt.Errorf("recording the failed attempt of item %d: %w", item.ID, merr)
	}
	r.log.Warn("email not sent, will retry", "item", item.ID, "attempt", attempts,
		"retry_in", d.Round(time.Second).String(), "err", words)
	return nil
}

func (r *Relay) needsAttention(item model.OutboxItem, err error, hint string) error {
	words := errWords(err)
	if merr := r.outbox.MarkNeedsAttention(item.ID, words, hint); merr != nil {
		r.log.Error("could not record a failed email", "item", item.ID, "err", merr)
		return fmt.Errorf("recording the failure of item %d: %w", item.ID, merr)
	}
	r.log.Error("email needs attention", "item", item.ID, "err", words, "hint", hint)
	return nil
}

func (r *Relay) block(key [32]byte, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.blocked = &blockState{key: key, until: r.now().Add(blockFor), err: err}
}

// blockedFor returns the remembered permanent failure if the settings are
// unchanged and it has not expired.
func (r *Relay) blockedFor(key [32]byte) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	b := r.blocked
	if b == nil {
		return nil
	}
	if b.key != key || !r.now().Before(b.until) {
		r.blocked = nil
		return nil
	}
	return b.err
}

// settingsKey identifies settings plus password without keeping the password.
func settingsKey(cfg model.Config, password string) [32]byte {
	b, _ := json.Marshal(cfg)
	h := sha256.New()
	h.Write(b)
	h.Write([]byte{0})
	h.Write([]byte(password))
	var k [32]byte
	copy(k[:], h.Sum(nil))
	return k
}

// connectionLost reports whether err ends the session (network trouble, the
// server closing with 421), as opposed to a reply about one message.
func connectionLost(err error) bool {
	var de *DeliveryError
	if errors.As(err, &de) && de.Code == 421 {
		return true
	}
	if smtpCode(err) != 0 {
		return false
	}
	temp, _ := Classify(err)
	return temp
}

// errWords is the error text stored with an item: the server's words without
// the hint (stored separately), bounded.
func errWords(err error) string {
	var de *DeliveryError
	s := err.Error()
	if errors.As(err, &de) {
		s = de.Words()
	}
	return model.SanitizeLine(s, maxErrLen)
}
