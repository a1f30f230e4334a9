package poll

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/zalando/go-keyring"

	"notifio/poll/fetch"
	"notifio/storage"

	"notifio/internal/model"
)

// fakeClock is a clock the tests step by hand. Its timers fire when the test
// moves the clock to or past their time (set, advance), as real ones would, so
// a test of the loop (Run) decides when each of its sleeps ends.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*fakeTimer
	// made, when not nil, receives every timer made: the loop makes one each
	// time it goes to sleep. idle, when not nil, is asked at that moment
	// whether the loop has nothing in flight.
	made chan sleep
	idle func() bool
}

// sleep is one timer the loop made: for how long, and whether nothing was in
// flight when it did.
type sleep struct {
	d    time.Duration
	idle bool
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// set moves the clock to t and fires the timers due by then; it returns how
// many fired.
func (c *fakeClock) set(t time.Time) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
	var keep []*fakeTimer
	for _, tm := range c.timers {
		if tm.at.After(t) {
			keep = append(keep, tm)
			continue
		}
		tm.ch <- t
	}
	fired := len(c.timers) - len(keep)
	c.timers = keep
	return fired
}

func (c *fakeClock) advance(d time.Duration) int { return c.set(c.Now().Add(d)) }

func (c *fakeClock) NewTimer(d time.Duration) Timer {
	c.mu.Lock()
	tm := &fakeTimer{c: c, at: c.now.Add(d), ch: make(chan time.Time, 1)}
	if d <= 0 {
		tm.ch <- c.now
	} else {
		c.timers = append(c.timers, tm)
	}
	made, idle := c.made, c.idle
	c.mu.Unlock()
	if made != nil {
		made <- sleep{d, idle != nil && idle()}
	}
	return tm
}

type fakeTimer struct {
	c  *fakeClock
	at time.Time
	ch chan time.Time
}

func (f *fakeTimer) C() <-chan time.Time { return f.ch }

// Stop takes the timer off the clock; it reports whether it had not fired.
func (f *fakeTimer) Stop() bool {
	f.c.mu.Lock()
	defer f.c.mu.Unlock()
	for i, tm := range f.c.timers {
		if tm == f {
			f.c.timers = append(f.c.timers[:i], f.c.timers[i+1:]...)
			return true
		}
	}
	return false
}

// site is a loopback site whose answer the test switches.
type site struct {
	mu       sync.Mutex
	mode     string // ok, 429, challenge, 403, 500, unexpected, login
	login    string // where "login" redirects to
	retry    string
	listings []string
	hits     int
	onHit    func() // called on each request, when set
	srv      *httptest.Server
}

func newSite(t *testing.T, ip string, ids ...string) *site {
	t.Helper()
	s := &site{mode: "ok", listings: ids}
	s.srv = serveOn(t, ip, s)
	return s
}

// serveOn serves h on a loopback address of ip until the test ends (skipped
// when the machine cannot listen there).
func serveOn(t *testing.T, ip string, h http.Handler) *httptest.Server {
	t.Helper()
	l, err := net.Listen("tcp", ip+":0")
	if err != nil {
		t.Skipf("cannot listen on %s: %v", ip, err)
	}
	srv := httptest.NewUnstartedServer(h)
	srv.Listener = l
	srv.Start()
	t.Cleanup(srv.Close)
	return srv
}

func (s *site) set(mode, retry string) {
	s.mu.Lock()
	s.mode, s.retry = mode, retry
	s.mu.Unlock()
}

func (s *site) add(id string) {
	s.mu.Lock()
	s.listings = append(s.listings, id)
	s.mu.Unlock()
}

func (s *site) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits
}

func (s *site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.hits++
	mode, retry, ids, onHit := s.mode, s.retry, append([]string(nil), s.listings...), s.onHit
	s.mu.Unlock()
	if onHit != nil {
		onHit()
	}
	if retry != "" {
		w.Header().Set("Retry-After", retry)
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	switch mode {
	case "login":
		http.Redirect(w, r, s.login, http.StatusFound)
		return
	case "429":
		w.WriteHeader(http.StatusTooManyRequests)
		fmt.Fprint(w, "<html><body>Too many requests</body></html>")
		return
	case "403":
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprint(w, "<html><body>Forbidden</body></html>")
		return
	case "500":
		w.WriteHeader(http.StatusInternalServerError)
		fmt.Fprint(w, "<html><body>Oops</body></html>")
		return
	case "challenge":
		w.Header().Set("cf-mitigated", "challenge")
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprint(w, `<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>
<script>window._cf_chl_opt={cvId:'3'};</script><script src="/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1"></script></body></html>`)
		return
	case "unexpected":
		fmt.Fprint(w, "<html><head><title>Welcome</title></head><body><p>Our new homepage!</p></body></html>")
		return
	}
	var items, cards strings.Builder
	for i, id := range ids {
		if i > 0 {
			items.WriteString(",")
		}
		fmt.Fprintf(&items, `{"@type":"ListItem","position":%d,"item":{"@type":"Apartment","name":"Flat %s","url":"/expose/%s","offers":{"@type":"Offer","price":"%d","priceCurrency":"EUR"}}}`, i+1, id, id, 900+i)
		fmt.Fprintf(&cards, `<article class="card"><a href="/expose/%s"><h2>Flat %s</h2></a><p class="price">%d €</p></article>`, id, id, 900+i)
	}
	fmt.Fprintf(w, `<!doctype html><html><head><title>Wohnungen</title>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"ItemList","itemListElement":[%s]}</script>
</head><body><main id="results">%s</main></body></html>`, items.String(), cards.String())
}

type harness struct {
	t     *testing.T
	db    *storage.DB
	dir   string
	clock *fakeClock
	svc   *Service
	notes []string
	mu    sync.Mutex
	// delivery is the Options.Delivery of the services open builds (nil: none).
	delivery Delivery
}

var t0 = time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)

func newHarness(t *testing.T, dir string) *harness {
	t.Helper()
	if dir == "" {
		dir = t.TempDir()
	}
	db, err := storage.Open(dir, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	keyring.MockInit() // each test's pasted cookies start empty (the mock is global)
	h := &harness{t: t, db: db, dir: dir, clock: &fakeClock{now: t0}}
	h.svc = h.open()
	t.Cleanup(func() { h.svc.Close(); h.db.Close() })
	return h
}

func (h *harness) open() *Service {
	h.t.Helper()
	var seq atomic.Int64
	// Hosts under .invalid stand for an unreachable network: the dialer fails
	// them as a resolver would, so no test traffic leaves loopback.
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, _, _ := net.SplitHostPort(addr)
		if strings.HasSuffix(host, ".invalid") {
			return nil, &net.OpError{Op: "dial", Net: network, Err: &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}}
		}
		return (&net.Dialer{}).DialContext(ctx, network, addr)
	}
	f := fetch.New(fetch.Options{DialContext: dial})
	h.t.Cleanup(f.Close)
	svc, err := New(h.db, Options{
		DataDir: h.dir, Clock: h.clock, Fetcher: f, Delivery: h.delivery,
		// A fixed sequence stands in for randomness: jitter is exercised, the
		// test stays repeatable.
		Random: func() float64 { return float64(seq.Add(1)%7) / 7 },
		Notify: func(title, body string) {
			h.mu.Lock()
			h.notes = append(h.notes, title)
			h.mu.Unlock()
		},
	})
	if err != nil {
		h.t.Fatal(err)
	}
	return svc
}

func (h *harness) add(name, url string, every time.Duration) model.Search {
	h.t.Helper()
	s, err := h.svc.AddSearch(context.Background(), model.SearchInput{Name: name, URL: url, Interval: every})
	if err != nil {
		h.t.Fatal(err)
	}
	return s
}

// runFor steps the loop second by second for d of fake time, running each fetch
// it starts to completion before the next step.
func (h *harness) runFor(d time.Duration) { h.runStep(d, time.Second) }

// runStep is runFor in steps of step, doing what Run's loop does at each
// turn: plan, poll, and look at health.
func (h *harness) runStep(d, step time.Duration) {
	end := h.clock.Now().Add(d)
	for now := h.clock.Now(); !now.After(end); now = now.Add(step) {
		h.clock.set(now)
		h.svc.checkHealthEvery(now)
		jobs, _ := h.svc.plan(now)
		for _, j := range jobs {
			res := h.svc.execute(context.Background(), j)
			h.svc.finish(j, res, now)
			h.svc.checkHealth(now)
		}
	}
}

func (h *harness) outbox() []model.OutboxItem {
	h.t.Helper()
	items, err := h.db.ListOutbox()
	if err != nil {
		h.t.Fatal(err)
	}
	return items
}

func TestBaselineThenNewListingQueuesOneDigest(t *testing.T) {
	h := newHarness(t, "")
	a := newSite(t, "127.0.0.1", "1", "2", "3")
	s := h.add("Kreuzberg", a.srv.URL+"/search", time.Minute)
	h.runFor(5 * time.Second)
	got, _ := h.db.GetSearch(s.ID)
	if !got.Baselined || got.BaselineCount != 3 {
		t.Fatalf("after the first poll: baselined=%v count=%d, want a silent baseline of 3", got.Baselined, got.BaselineCount)
	}
	if n := len(h.outbox()); n != 0 {
		t.Fatalf("baseline queued %d emails, want 0", n)
	}
	a.add("4")
	h.runFor(70 * time.Second)
	items := h.outbox()
	if len(items) != 1 || len(items[0].Listings) != 1 || !strings.Contains(items[0].Listings[0].Title, "Flat 4") {
		t.Fatalf("outbox = %+v, want one digest with Flat 4", items)
	}
	if len(h.notes) != 1 || h.notes[0] != "1 new on Kreuzberg" {
		t.Errorf("desktop notifications = %q", h.notes)
	}
	if id := items[0].Listings[0].ID; !strings.HasPrefix(id, "127.0.0.1:") {
		t.Errorf("listing id %q is not namespaced by site", id)
	}
}

// TestFiveSearchesOneSiteEachKind: the site receives exactly one probe per rung
// and no request while waiting; another site is unaffected.
func TestFiveSearchesOneSiteEachKind(t *testing.T) {
	for _, tc := range []struct {
		mode string
		kind model.Refusal
	}{
		{"challenge", model.RefusalChallenge},
		{"429", model.RefusalRateLimited},
		{"403", model.RefusalDenied},
		{"500", model.RefusalError},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			h := newHarness(t, "")
			a := newSite(t, "127.0.0.2", "1", "2")
			b := newSite(t, "127.0.0.3", "9")
			for i := 0; i < 5; i++ {
				h.add(fmt.Sprintf("a%d", i), fmt.Sprintf("%s/s?q=%d", a.srv.URL, i), 30*time.Second)
			}
			h.add("b", b.srv.URL+"/s", 30*time.Second)
			h.runFor(2 * time.Minute) // baselines, all ok
			a.set(tc.mode, "")
			before := a.count()
			bBefore := b.count()
			// Two hours of refusals: count requests against the rungs taken.
			h.runFor(2 * time.Hour)
			e, ok := h.svc.reg.Lookup("127.0.0.2")
			if !ok || e.Kind != tc.kind {
				t.Fatalf("site entry = %+v, %v; want kind %s", e, ok, tc.kind)
			}
			reqs := a.count() - before
			// One request per rung: the first refusal plus one probe per ended wait.
			if reqs != e.Failures {
				t.Errorf("site received %d requests during the outage, registry counted %d refusals: want one per rung", reqs, e.Failures)
			}
			ladder := model.DefaultLadders()[tc.kind]
			ceiling := ladder[len(ladder)-1]
			if max := int(2*time.Hour/(ceiling*85/100)) + len(ladder) + 1; reqs > max {
				t.Errorf("%d requests in 2 h, want at most %d", reqs, max)
			}
			// The other site kept its schedule (every 30 s ±10%).
			if got := b.count() - bBefore; got < 200 {
				t.Errorf("the unaffected site got %d requests in 2 h, want ~240", got)
			}
			// Recovery: siblings resume one by one, spaced by the site gap.
			a.set("ok", "")
			var starts []time.Time
			end := h.clock.Now().Add(90 * time.Minute)
			for now := h.clock.Now(); now.Before(end) && len(starts) < 5; now = now.Add(time.Second) {
				h.clock.set(now)
				jobs, _ := h.svc.plan(now)
				for _, j := range jobs {
					if j.site == "127.0.0.2" {
						starts = append(starts, now)
					}
					h.svc.finish(j, h.svc.execute(context.Background(), j), now)
				}
			}
			if len(starts) < 5 {
				t.Fatalf("only %d searches resumed after recovery", len(starts))
			}
			for i := 1; i < len(starts); i++ {
				if gap := starts[i].Sub(starts[i-1]); gap < model.DefaultSiteGap {
					t.Errorf("siblings %d and %d resumed %s apart, want at least %s", i-1, i, gap, model.DefaultSiteGap)
				}
			}
			if starts[4].Sub(starts[0]) > time.Minute {
				t.Errorf("siblings took %s to resume after the probe succeeded", starts[4].Sub(starts[0]))
			}
		})
	}
}

func TestRetryAfterLongerThanLadderIsObeyed(t *testing.T) {
	h := newHarness(t, "")
	a := newSite(t, "127.0.0.2", "1")
	h.add("a", a.srv.URL+"/s", 30*time.Second)
	h.runFor(5 * time.Second)
	a.set("429", "1200") // 20 minutes, ladder says 2 minutes
	h.runFor(40 * time.Second)
	n := a.count()
	h.runFor(19 * time.Minute)
	if a.count() != n {
		t.Fatalf("site asked %d times during a 20-minute Retry-After", a.count()-n)
	}
	h.runFor(3 * time.Minute)
	if a.count() == n {
		t.Fatalf("site never probed after Retry-After ended")
	}
}

func TestRestartMidWaitKeepsTheWait(t *testing.T) {
	dir := t.TempDir()
	h := newHarness(t, dir)
	a := newSite(t, "127.0.0.2", "1")
	h.add("a", a.srv.URL+"/s", 30*time.Second)
	h.runFor(5 * time.Second)
	a.set("403", "")
	h.runFor(40 * time.Second)
	e1, ok := h.svc.reg.Lookup("127.0.0.2")
	if !ok || !e1.NextRetry.After(h.clock.Now()) {
		t.Fatalf("no wait recorded: %+v", e1)
	}
	// Restart: a new service over the same database.
	h.svc.Close()
	h.svc = h.open()
	e2, ok := h.svc.reg.Lookup("127.0.0.2")
	if !ok || !e2.NextRetry.Equal(e1.NextRetry) || e2.Kind != model.RefusalDenied {
		t.Fatalf("after restart entry = %+v, want %+v", e2, e1)
	}
	// The last answers are remembered too, so the window can say why.
	snap := h.svc.Snapshot()
	if len(snap.Sites) != 1 || snap.Sites[0].LastStatus != 403 || snap.Sites[0].LastSignal == "" {
		t.Errorf("after restart site = %+v, want the 403 and its signal", snap.Sites)
	}
	if len(snap.Searches) != 1 || snap.Searches[0].LastOutcome != "denied" {
		t.Errorf("after restart search = %+v, want last outcome denied", snap.Searches)
	}
	if _, ok := h.svc.RefusalPage("127.0.0.2"); !ok {
		t.Error("after restart the saved refusal page is not offered")
	}
	n := a.count()
	h.runFor(e1.NextRetry.Sub(h.clock.Now()) - time.Second)
	if a.count() != n {
		t.Fatalf("restarted watcher asked the site %d times during the wait", a.count()-n)
	}
}

func TestSteadySiteWritesNothing(t *testing.T) {
	h := newHarness(t, "")
	a := newSite(t, "127.0.0.2", "1", "2", "3", "4", "5", "6")
	h.add("a", a.srv.URL+"/s", 30*time.Second)
	h.runFor(2 * time.Minute) // baseline and the first answers
	before := h.db.Commits()
	polls := a.count()
	h.runFor(10 * time.Minute)
	if a.count()-polls < 15 {
		t.Fatalf("only %d polls in 10 minutes", a.count()-polls)
	}
	if d := h.db.Commits() - before; d != 0 {
		t.Errorf("%d commits over %d unchanged polls, want none", d, a.count()-polls)
	}
}

func TestOfflineClimbsNoLadder(t *testing.T) {
	h := newHarness(t, "")
	// A name that cannot resolve (the harness's dialer fails .invalid hosts).
	s := h.add("offline", "http://notifio-test.invalid/search", 30*time.Second)
	h.runFor(10 * time.Minute)
	if e, ok := h.svc.reg.Lookup(s.Site); ok {
		t.Fatalf("offline climbed a ladder: %+v", e)
	}
	snap := h.svc.Snapshot()
	if snap.Searches[0].LastOutcome != "offline" {
		t.Errorf("last outcome = %q, want offline", snap.Searches[0].LastOutcome)
	}
}

func TestChallengeOrUnexpectedPageNeverAdvancesSeen(t *testing.T) {
	for _, mode := range []string{"challenge", "unexpected"} {
		t.Run(mode, func(t *testing.T) {
			h := newHarness(t, "")
			a := newSite(t, "127.0.0.2", "1", "2")
			s := h.add("a", a.srv.URL+"/s", 30*time.Second)
			h.runFor(5 * time.Second)
			a.set(mode, "")
			a.add("3")
			h.runFor(20 * time.Minute)
			ls, _ := h.db.ListListings(s.ID)
			if len(ls) != 2 {
				t.Fatalf("%d listings seen, want the 2 of the baseline", len(ls))
			}
			if n := len(h.outbox()); n != 0 {
				t.Fatalf("%d emails queued from a %s page", n, mode)
			}
			e, ok := h.svc.reg.Lookup("127.0.0.2")
			want := model.RefusalChallenge
			if mode == "unexpected" {
				want = model.RefusalError
			}
			if !ok || e.Kind != want {
				t.Fatalf("site entry %+v, want kind %s", e, want)
			}
			snap := h.svc.Snapshot()
			if mode == "unexpected" {
				a.set("ok", "")
				h.runFor(10 * time.Minute)
				// Back to normal: the new listing is found once.
				if n := len(h.outbox()); n != 1 {
					t.Fatalf("after recovery %d digests, want 1", n)
				}
			}
			if _, ok := h.svc.RefusalPage("127.0.0.2"); !ok {
				t.Errorf("no copy of the %s page kept for the user", mode)
			}
			_ = snap
		})
	}
}

func TestCheckNowOnWaitingSiteDoesNotFetch(t *testing.T) {
	h := newHarness(t, "")
	a := newSite(t, "127.0.0.2", "1")
	s := h.add("a", a.srv.URL+"/s", 30*time.Second)
	h.runFor(5 * time.Second)
	a.set("429", "")
	h.runFor(40 * time.Second)
	n := a.count()
	err := h.svc.CheckNow(s.ID)
	var we *model.WaitError
	if err == nil || !asWait(err, &we) || we.Site != "127.0.0.2" || !strings.Contains(we.Reason, "rate-limiting") {
		t.Fatalf("CheckNow = %v, want a WaitError about rate limiting", err)
	}
	dr, err := h.svc.TestSearch(context.Background(), model.SearchInput{URL: s.URL})
	if err != nil || dr.Outcome != "waiting" {
		t.Fatalf("TestSearch on a waiting site = %+v, %v", dr, err)
	}
	if a.count() != n {
		t.Fatal("a waiting site was fetched")
	}
}

func asWait(err error, we **model.WaitError) bool {
	w, ok := err.(*model.WaitError)
	if ok {
		*we = w
	}
	return ok
}

func TestWakeFromSleepStaggersOverdueSearches(t *testing.T) {
	h := newHarness(t, "")
	for i := 0; i < 4; i++ {
		s := newSite(t, fmt.Sprintf("127.0.0.%d", 10+i), "1")
		h.add(fmt.Sprintf("s%d", i), s.srv.URL+"/s", time.Minute)
	}
	h.runFor(2 * time.Minute)
	// The laptop sleeps for an hour: the wall clock jumps.
	now := h.clock.Now().Add(time.Hour)
	h.clock.set(now)
	jobs, _ := h.svc.plan(now)
	if len(jobs) > 1 {
		t.Fatalf("%d fetches fired at once after wake, want them staggered", len(jobs))
	}
	snap := h.svc.Snapshot()
	seen := map[time.Time]bool{}
	for _, s := range snap.Searches {
		if s.NextCheck.Before(now) || s.NextCheck.After(now.Add(time.Minute)) {
			t.Errorf("%s next check %s, want within a minute of wake", s.Name, s.NextCheck.Sub(now))
		}
		if seen[s.NextCheck] && s.State == model.StateScheduled {
			t.Errorf("two searches due at the same instant after wake")
		}
		seen[s.NextCheck] = true
	}
}

func TestAddSearchRejectsBadInput(t *testing.T) {
	h := newHarness(t, "")
	for _, u := range []string{"", "ftp://x.de/a", "kleinanzeigen.de/s", "https://", "https://user:pw@x.de/"} {
		if _, err := h.svc.AddSearch(context.Background(), model.SearchInput{URL: u}); err == nil {
			t.Errorf("AddSearch(%q) succeeded", u)
		}
	}
	if _, err := h.svc.AddSearch(context.Background(), model.SearchInput{URL: "https://x.de/s", Interval: 10 * time.Second}); err == nil {
		t.Error("a 10 s interval was accepted")
	}
	if list, _ := h.db.ListSearches(); len(list) != 0 {
		t.Fatalf("bad input saved %d searches", len(list))
	}
	if _, w := h.svc.SiteRate("https://x.de/s", 30*time.Second, ""); w != "" {
		t.Errorf("one search every 30 s warned: %s", w)
	}
	h.add("x1", "https://www.x.de/s1", 30*time.Second)
	if _, w := h.svc.SiteRate("https://m.x.de/s2", 30*time.Second, ""); w != "" {
		t.Errorf("two searches every 30 s (one request every 15 s) warned: %s", w)
	}
	h.add("x2", "https://www.x.de/s2", 30*time.Second)
	if _, w := h.svc.SiteRate("https://m.x.de/s3", 30*time.Second, ""); w == "" {
		t.Error("three searches every 30 s on one site (6/min) did not warn")
	}
}

func TestSessionExpiredNeedsTheUser(t *testing.T) {
	h := newHarness(t, "")
	a := newSite(t, "127.0.0.2", "1")
	sso := newSite(t, "127.0.0.3")
	s1 := h.add("a1", a.srv.URL+"/s?q=1", 30*time.Second)
	h.add("a2", a.srv.URL+"/s?q=2", 30*time.Second)
	h.runFor(40 * time.Second)
	a.mu.Lock()
	a.mode, a.login = "login", sso.srv.URL+"/login?next=/s"
	a.mu.Unlock()
	h.runFor(2 * time.Minute)
	n := a.count()
	h.runFor(10 * time.Minute)
	if a.count() != n {
		t.Fatalf("the site was asked %d more times while its session is expired", a.count()-n)
	}
	if sso.count() != 0 {
		t.Fatal("the cross-site login redirect was followed")
	}
	if _, ok := h.svc.reg.Lookup("127.0.0.2"); ok {
		t.Fatal("an expired session climbed a backoff ladder")
	}
	snap := h.svc.Snapshot()
	for _, ss := range snap.Searches {
		if ss.State != model.StateAttention || !strings.Contains(ss.Reason, "log in again") {
			t.Errorf("%s: state %s %q, want needs attention to log in again", ss.Name, ss.State, ss.Reason)
		}
	}
	if !snap.Sites[0].NeedsLogin {
		t.Errorf("site snapshot %+v does not say the user must act", snap.Sites[0])
	}
	// The user logs in again and resumes: checks start again.
	a.set("ok", "")
	if err := h.svc.SetPaused(s1.ID, false); err != nil {
		t.Fatal(err)
	}
	h.runFor(10 * time.Second)
	if a.count() == n {
		t.Fatal("resuming did not check the search again")
	}
}
