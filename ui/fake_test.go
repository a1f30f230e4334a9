package ui

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"notifio/notify"
	"notifio/storage"

	"notifio/internal/model"

	"notifio/internal/secrets"
)

// t0 is the fake clock's start: 14:00:00 on a summer day, in UTC (TestMain makes
// UTC the local zone so clock times in the window are predictable).
var t0 = time.Date(2026, 7, 14, 14, 0, 0, 0, time.UTC)

func TestMain(m *testing.M) {
	time.Local = time.UTC
	os.Exit(m.Run())
}

// fakeClock is a clock the test steps by hand.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// queue is a recording dispatcher: background goroutines hand it UI work, and the
// test runs that work on its own goroutine, so -race sees one UI goroutine.
type queue struct {
	mu     sync.Mutex
	fns    []func()
	signal chan struct{}
}

func newQueue() *queue { return &queue{signal: make(chan struct{}, 1024)} }

func (q *queue) dispatch(fn func()) {
	q.mu.Lock()
	q.fns = append(q.fns, fn)
	q.mu.Unlock()
	select {
	case q.signal <- struct{}{}:
	default:
	}
}

// runNext waits until something was dispatched and runs everything queued.
func (q *queue) runNext(t *testing.T) {
	t.Helper()
	select {
	case <-q.signal:
	case <-time.After(10 * time.Second):
		t.Fatal("nothing was dispatched to the UI goroutine")
	}
	q.runAll()
}

// runUntil runs dispatched work until done holds: a save dispatches its
// answer after the snapshot the backend published, so one runNext may see only
// the snapshot.
func (q *queue) runUntil(t *testing.T, what string, done func() bool) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for !done() {
		select {
		case <-q.signal:
			q.runAll()
		case <-deadline:
			t.Fatal("timed out after 10 s waiting for: " + what)
		}
	}
}

// runAll runs what is queued now.
func (q *queue) runAll() {
	q.mu.Lock()
	fns := q.fns
	q.fns = nil
	q.mu.Unlock()
	for _, fn := range fns {
		fn()
	}
}

// fakeBackend is an in-memory Backend with a snapshot the test controls.
type fakeBackend struct {
	mu       sync.Mutex
	clock    *fakeClock
	snap     model.Snapshot
	searches map[string]model.Search
	subs     map[int]func(model.Snapshot)
	nextSub  int
	nextID   int

	alertCfg    model.AlertSettings
	alertSaves  int
	added       []model.SearchInput
	updated     []model.SearchInput
	removed     []string
	paused      map[string]bool
	pauseAll    []bool
	checkNow    []string
	checkNowErr error
	probes      []string
	probeAt     time.Time
	probeErr    error
	refusal     map[string]string
	listings    map[string][]model.Listing
	viewed      []string
	retries     int

	dryRun     model.DryRun
	dryRunErr  error
	dryRunGate chan struct{} // when set, TestSearch waits for it
	saveGate   chan struct{} // when set, saves wait for it (awaitSave)
	dryRuns    []model.SearchInput

	email     model.Config
	saved     []model.Config
	passwords []string
	warning   string
	sendErr   error
	sent      []model.Config

	// The push channels are the real ones (notify's operations) over a real
	// database in a temporary folder and a mocked keyring (withChannels).
	chDB    *storage.DB
	secrets *secrets.Secrets
}

var _ Backend = (*fakeBackend)(nil)

func newFakeBackend(c *fakeClock) *fakeBackend {
	return &fakeBackend{
		clock: c, searches: map[string]model.Search{}, subs: map[int]func(model.Snapshot){},
		paused: map[string]bool{}, refusal: map[string]string{}, listings: map[string][]model.Listing{},
	}
}

// set replaces the snapshot (and the stored searches behind it) and publishes it.
func (f *fakeBackend) set(s model.Snapshot) {
	f.mu.Lock()
	f.snap = s
	for _, ss := range s.Searches {
		if _, ok := f.searches[ss.ID]; !ok {
			f.searches[ss.ID] = model.Search{ID: ss.ID, Name: ss.Name, URL: ss.URL, Site: ss.Site, Interval: ss.Interval}
		}
	}
	f.mu.Unlock()
	f.publish()
}

func (f *fakeBackend) publish() {
	f.mu.Lock()
	snap := f.copySnap()
	var fns []func(model.Snapshot)
	for _, fn := range f.subs {
		fns = append(fns, fn)
	}
	f.mu.Unlock()
	for _, fn := range fns {
		fn(snap)
	}
}

func (f *fakeBackend) copySnap() model.Snapshot {
	s := f.snap
	s.Searches = append([]model.SearchSnapshot(nil), f.snap.Searches...)
	s.Sites = append([]model.SiteSnapshot(nil), f.snap.Sites...)
	return s
}

func (f *fakeBackend) Subscribe(fn func(model.Snapshot)) func() {
	f.mu.Lock()
	defer f.mu.Unlock()
	id := f.nextSub
	f.nextSub++
	f.subs[id] = fn
	return func() {
		f.mu.Lock()
		delete(f.subs, id)
		f.mu.Unlock()
	}
}

func (f *fakeBackend) Snapshot() model.Snapshot {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.copySnap()
}

func hostOf(raw string) string {
	u, _ := url.Parse(raw)
	return strings.TrimPrefix(u.Hostname(), "www.")
}

// awaitSave holds a save until the test opens saveGate (when set), as a slow
// keyring or disk would. Bounded, so that a window that waits for it on the UI
// goroutine shows up as a failed test, not a hung one.
func (f *fakeBackend) awaitSave() {
	f.mu.Lock()
	gate := f.saveGate
	f.mu.Unlock()
	if gate != nil {
		select {
		case <-gate:
		case <-time.After(2 * time.Second):
		}
	}
}

func (f *fakeBackend) AddSearch(_ context.Context, in model.SearchInput) (model.Search, error) {
	f.awaitSave()
	f.mu.Lock()
	f.nextID++
	id := fmt.Sprintf("s%d", f.nextID)
	iv := in.Interval
	if iv == 0 {
		iv = model.DefaultInterval
	}
	name := in.Name
	if name == "" {
		name = hostOf(in.URL)
	}
	s := model.Search{ID: id, Name: name, URL: in.URL, Site: hostOf(in.URL), Interval: iv}
	f.searches[id] = s
	f.added = append(f.added, in)
	f.snap.Searches = append(f.snap.Searches, model.SearchSnapshot{
		ID: id, Name: name, URL: in.URL, Site: s.Site, Interval: iv,
		State: model.StateScheduled, NextCheck: f.clock.Now().Add(iv),
	})
	f.mu.Unlock()
	f.publish()
	return s, nil
}

func (f *fakeBackend) UpdateSearch(_ context.Context, id string, in model.SearchInput) (model.Search, error) {
	f.awaitSave()
	f.mu.Lock()
	defer f.mu.Unlock()
	s, ok := f.searches[id]
	if !ok {
		return model.Search{}, errors.New("poll: no such search")
	}
	f.updated = append(f.updated, in)
	s.Name, s.URL, s.Interval = in.Name, in.URL, in.Interval
	f.searches[id] = s
	return s, nil
}

func (f *fakeBackend) Search(id string) (model.Search, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	s, ok := f.searches[id]
	if !ok {
		return model.Search{}, errors.New("poll: no such search")
	}
	return s, nil
}

func (f *fakeBackend) RemoveSearch(id string) error {
	f.mu.Lock()
	f.removed = append(f.removed, id)
	delete(f.searches, id)
	var keep []model.SearchSnapshot
	for _, s := range f.snap.Searches {
		if s.ID != id {
			keep = append(keep, s)
		}
	}
	f.snap.Searches = keep
	f.mu.Unlock()
	return nil
}

func (f *fakeBackend) SetPaused(id string, paused bool) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.paused[id] = paused
	for i := range f.snap.Searches {
		if f.snap.Searches[i].ID == id {
			if paused {
				f.snap.Searches[i].State = model.StatePaused
			} else {
				f.snap.Searches[i].State = model.StateScheduled
			}
		}
	}
	return nil
}

func (f *fakeBackend) PauseAll(paused bool) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.pauseAll = append(f.pauseAll, paused)
	for i := range f.snap.Searches {
		if paused {
			f.snap.Searches[i].State = model.StatePaused
		} else {
			f.snap.Searches[i].State = model.StateScheduled
		}
	}
	return nil
}

func (f *fakeBackend) CheckNow(id string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.checkNow = append(f.checkNow, id)
	return f.checkNowErr
}

func (f *fakeBackend) TestSearch(ctx context.Context, in model.SearchInput) (model.DryRun, error) {
	f.mu.Lock()
	f.dryRuns = append(f.dryRuns, in)
	gate, res, err := f.dryRunGate, f.dryRun, f.dryRunErr
	f.mu.Unlock()
	if gate != nil {
		select {
		case <-gate:
		case <-ctx.Done():
			return model.DryRun{}, ctx.Err()
		}
	}
	return res, err
}

func (f *fakeBackend) SiteRate(rawURL string, interval time.Duration, exceptID string) (float64, string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	site := hostOf(rawURL)
	per := float64(time.Minute) / float64(interval)
	for id, s := range f.searches {
		if id != exceptID && s.Site == site {
			per += float64(time.Minute) / float64(s.Interval)
		}
	}
	if per <= 2 { // the fake's own threshold; the real one is model.BusySiteRate
		return per, ""
	}
	return per, fmt.Sprintf("Your searches on %s add up to %.1f requests a minute; sites may block you.", site, per)
}

func (f *fakeBackend) Listings(searchID string) ([]model.Listing, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]model.Listing(nil), f.listings[searchID]...), nil
}

func (f *fakeBackend) MarkViewed(searchID string) error {
	f.mu.Lock()
	f.viewed = append(f.viewed, searchID)
	for i := range f.snap.Searches {
		if f.snap.Searches[i].ID == searchID {
			f.snap.Searches[i].Unseen = 0
		}
	}
	f.mu.Unlock()
	f.publish()
	return nil
}

func (f *fakeBackend) ProbeNow(site string) (time.Time, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.probes = append(f.probes, site)
	return f.probeAt, f.probeErr
}

func (f *fakeBackend) RefusalPage(site string) (string, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	p, ok := f.refusal[site]
	return p, ok
}

func (f *fakeBackend) EmailConfig() (model.Config, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.email, nil
}

func (f *fakeBackend) SetEmailConfig(cfg model.Config, password string) (string, error) {
	f.awaitSave()
	f.mu.Lock()
	defer f.mu.Unlock()
	f.saved = append(f.saved, cfg)
	f.passwords = append(f.passwords, password)
	f.email = cfg
	return f.warning, nil
}

func (f *fakeBackend) SendTestEmail(_ context.Context, cfg model.Config, password string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sent = append(f.sent, cfg)
	return f.sendErr
}

func (f *fakeBackend) Channels() ([]model.ChannelState, error) {
	if f.chDB == nil {
		return nil, nil
	}
	chans, err := f.chDB.ListChannels()
	if err != nil {
		return nil, err
	}
	items, err := f.chDB.ListOutbox()
	if err != nil {
		return nil, err
	}
	return notify.ChannelStates(chans, items, f.clock.Now()), nil
}

func (f *fakeBackend) AddChannel(in model.NewChannel) (model.Channel, string, error) {
	f.awaitSave()
	return notify.AddChannel(f.chDB, f.secrets, in, f.clock.Now())
}

func (f *fakeBackend) TestChannel(ctx context.Context, name string) error {
	return notify.TestChannel(ctx, f.secrets, name)
}

func (f *fakeBackend) RemoveChannel(name string) (string, error) {
	return notify.RemoveChannel(f.chDB, f.secrets, name)
}

func (f *fakeBackend) RetryOutbox() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.retries++
	return nil
}

func (f *fakeBackend) AlertSettings() model.AlertSettings {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.alertCfg
}

func (f *fakeBackend) SetAlertSettings(a model.AlertSettings) error {
	if err := a.Validate(); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.alertCfg = a
	f.alertSaves++
	return nil
}

// harness is a UI on the test app with a fake backend, a fake clock and a
// recording dispatcher.
type harness struct {
	t      *testing.T
	app    fyne.App
	clock  *fakeClock
	b      *fakeBackend
	q      *queue
	u      *UI
	opened []string
}

func newHarness(t *testing.T, snap model.Snapshot) *harness {
	t.Helper()
	h := &harness{t: t, app: test.NewTempApp(t), clock: &fakeClock{t: t0}, q: newQueue()}
	h.b = newFakeBackend(h.clock)
	h.b.set(snap)
	h.u = New(h.app, h.b, Options{
		Now:       h.clock.Now,
		Dispatch:  h.q.dispatch,
		TickEvery: time.Hour, // the tests drive tick themselves
		OpenURL: func(u *url.URL) error {
			h.opened = append(h.opened, u.String())
			return nil
		},
	})
	t.Cleanup(h.u.Close)
	h.u.win.Resize(fyne.NewSize(900, 620))
	h.u.win.Show()
	return h
}

// publish sends a new snapshot through the subscription and runs the dispatch.
func (h *harness) publish(s model.Snapshot) {
	h.b.set(s)
	h.q.runAll()
}

// texts returns the text of every visible label and text in the window and its
// overlays (dialogs), in drawing order.
func (h *harness) texts() []string {
	c := h.u.win.Canvas()
	var out []string
	collect := func(o fyne.CanvasObject) {
		walkVisible(o, func(o fyne.CanvasObject) {
			switch w := o.(type) {
			case *widget.Label:
				out = append(out, w.Text)
			case *quietLabel:
				out = append(out, w.Text)
			case *widget.Button:
				out = append(out, w.Text)
			case *widget.Card:
				out = append(out, w.Title, w.Subtitle)
			case *canvas.Text:
				out = append(out, w.Text)
			}
		})
	}
	collect(c.Content())
	for _, o := range c.Overlays().List() {
		collect(o)
	}
	return out
}

// overlayTexts is texts restricted to the top overlay (the dialog showing).
func (h *harness) overlayTexts() []string {
	top := h.u.win.Canvas().Overlays().Top()
	if top == nil {
		return nil
	}
	var out []string
	walkVisible(top, func(o fyne.CanvasObject) {
		switch w := o.(type) {
		case *widget.Label:
			out = append(out, w.Text)
		case *quietLabel:
			out = append(out, w.Text)
		case *canvas.Text:
			out = append(out, w.Text)
		}
	})
	return out
}

// hasText reports whether a visible text contains want.
func (h *harness) hasText(want string) bool {
	for _, s := range h.texts() {
		if strings.Contains(s, want) {
			return true
		}
	}
	return false
}

// requireText fails unless a visible text contains want.
func (h *harness) requireText(want string) {
	h.t.Helper()
	if !h.hasText(want) {
		h.t.Fatalf("no visible text contains %q; visible:\n%s", want, strings.Join(h.texts(), "\n"))
	}
}

// button finds a visible button in the top overlay (or the window) by its text.
func (h *harness) button(text string) *widget.Button {
	h.t.Helper()
	var found *widget.Button
	find := func(o fyne.CanvasObject) {
		walkVisible(o, func(o fyne.CanvasObject) {
			if b, ok := o.(*widget.Button); ok && b.Text == text && found == nil {
				found = b
			}
		})
	}
	if top := h.u.win.Canvas().Overlays().Top(); top != nil {
		find(top)
	}
	if found == nil {
		find(h.u.win.Canvas().Content())
	}
	if found == nil {
		h.t.Fatalf("no visible button %q", text)
	}
	return found
}

// walkVisible visits o and its visible descendants as they are rendered now. It
// does not look inside labels, whose text it has already seen.
func walkVisible(o fyne.CanvasObject, fn func(fyne.CanvasObject)) {
	if o == nil || !o.Visible() {
		return
	}
	fn(o)
	switch c := o.(type) {
	case *widget.Label, *quietLabel:
	case fyne.Widget:
		for _, child := range test.WidgetRenderer(c).Objects() {
			walkVisible(child, fn)
		}
	case *fyne.Container:
		for _, child := range c.Objects {
			walkVisible(child, fn)
		}
	}
}
