package poll

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"notifio/hostbackoff"
	"notifio/notify"
	"notifio/poll/classify"
	"notifio/poll/extract"
	"notifio/poll/fetch"
	"notifio/storage"
)

// Options configure a Service. Every zero value has a sensible default, named on
// the field.
type Options struct {
	// DataDir is where copies of refusal and unexpected pages are kept
	// ("" disables keeping them).
	DataDir string
	// Clock is the source of time; nil means the real clock.
	Clock Clock
	// Random returns numbers in [0,1) for jitter; nil means math/rand.
	Random func() float64
	// Fetcher fetches pages; nil means fetch.New with its defaults.
	Fetcher *fetch.Fetcher
	// Relay sends the outbox; nil means no email is sent (items stay queued).
	Relay *notify.Relay
	// Secrets stores the SMTP password; nil means email settings cannot be saved
	// with a password.
	Secrets *notify.Secrets
	// Notify is called once per digest for desktop notifications; nil means none.
	Notify func(title, body string)
	// SiteGap is the minimum gap between two requests to one site (0 means 5 s).
	SiteGap time.Duration
	// RequestTimeout bounds one fetch (0 means 30 s).
	RequestTimeout time.Duration
	// Logger receives the loop's logs; nil means slog.Default().
	Logger *slog.Logger
	// Browser renders the searches that read with a browser; nil means one
	// of the Service's own, profile in DataDir (poll/render.go).
	Browser Renderer
}

// Service is the watcher: it owns the schedule, the per-site backoff registry and
// the fetch pipeline, and offers the operations the window and the command line
// call. It is safe for concurrent use.
type Service struct {
	db      *storage.DB
	opts    Options
	clock   Clock
	random  func() float64
	fetcher *fetch.Fetcher
	ownFet  bool
	log     *slog.Logger
	reg     *hostbackoff.Registry

	wake chan struct{}

	mu       sync.Mutex
	searches map[string]*searchRun
	sites    map[string]*siteRun
	subs     map[int]func(Snapshot)
	nextSub  int
	offline  offlineState
	running  bool

	restored bool // restoreLast ran
	closed   bool // Close ran

	lastPub     time.Time   // real time of the last publish
	pubTimer    *time.Timer // a coalesced publish pending (publishSoon)
	lastStagger time.Time   // when restagger last ran (service clock)

	// bySite indexes searches by site for plan, with the sites sorted; nil
	// after searches were added, changed or removed (rebuilt by plan).
	bySite    map[string][]*searchRun
	siteNames []string

	savedPrints map[string]pagePrint // as last read or written (prints.go)

	freed    []string // sites whose poll finished since the loop last planned
	fullPlan bool     // Wake: plan every site

	outboxSnap OutboxSnapshot
	outboxAt   time.Time
	lastBackup time.Time
	inflight   sync.WaitGroup

	// Health alerts (alerts.go): what was told, keyed by search ID or
	// deliveryKey; the settings; the failing channels by search; today's counts
	// for the daily summary. healthMu serialises checkHealth.
	healthMu        sync.Mutex
	alerts          map[string]storage.AlertState
	alertCfg        AlertSettings
	failingBySearch map[string]*ChannelFailure
	day             dayCounts
	lastHealth      time.Time // the loop's last checkHealth (loop goroutine only)

	br browserState
}

type searchRun struct {
	s           storage.Search
	due         time.Time
	checking    bool
	probing     bool
	attention   string
	lastChecked time.Time
	lastOutcome string
	lastSignal  string
	lastNew     int
	unseen      int
	// bodyHash is pageHash of the last page whose listings were committed (0:
	// none): a byte-identical page cannot hold anything new, so it is neither
	// parsed nor committed again (docs/PERFORMANCE.md).
	bodyHash uint64
	// structure is the result list the last committed page was read from
	// (extract.Result.Structure; "" when none): the next poll looks for it
	// first, so a search down to one result keeps reading its own list.
	structure string
	// savedOutcome is the outcome last persisted by rememberLast.
	savedOutcome string
	// stale is true when the search's own selectors found nothing at the last
	// read page and automatic extraction was used (extract.Result.Fallback).
	stale bool
	// saveErr is why the last poll's listings could not be saved (a full disk),
	// nil once a poll's are.
	saveErr error
}

type siteRun struct {
	// planAt is when plan must look at this site again (zero: now). Cleared
	// whenever something about the site may have changed: its poll finished
	// (siteFreed), the user did something (Wake), searches were reloaded or
	// restaggered. At 1,000 searches plan looking at every search of every site
	// whenever a poll finished was a few percent of the watcher's CPU.
	planAt      time.Time
	inFlight    bool
	lastStart   time.Time
	lastStatus  int
	lastSignal  string
	retryAfter  time.Duration
	lastRefusal string
	avgResp     time.Duration
	ok, fail    int
	needsLogin  string
	// savedOutcome is the outcome last persisted by rememberLast.
	savedOutcome string
}

type offlineState struct {
	until time.Time
	step  int
}

// New builds a Service over an open database, restoring the persisted backoff
// state so that a restart never forgets a wait.
func New(db *storage.DB, opts Options) (*Service, error) {
	s := &Service{
		db:       db,
		opts:     opts,
		clock:    opts.Clock,
		random:   opts.Random,
		fetcher:  opts.Fetcher,
		log:      opts.Logger,
		reg:      hostbackoff.NewRegistry(),
		wake:     make(chan struct{}, 1),
		searches: map[string]*searchRun{},
		sites:    map[string]*siteRun{},
		subs:     map[int]func(Snapshot){},
	}
	if s.clock == nil {
		s.clock = RealClock{}
	}
	if s.random == nil {
		s.random = rand.Float64
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.fetcher == nil {
		s.fetcher = fetch.New(fetch.Options{})
		s.ownFet = true
	}
	if s.opts.SiteGap <= 0 {
		s.opts.SiteGap = DefaultSiteGap
	}
	if s.opts.RequestTimeout <= 0 {
		s.opts.RequestTimeout = 30 * time.Second
	}
	now := s.clock.Now()
	raw, err := db.LoadBackoff()
	if err != nil {
		return nil, fmt.Errorf("poll: load site backoff state: %w", err)
	}
	if len(raw) > 0 {
		var entries []hostbackoff.Entry
		if err := json.Unmarshal(raw, &entries); err != nil {
			return nil, fmt.Errorf("poll: read site backoff state: %w", err)
		}
		s.reg.Restore(entries, now)
	}
	if err := s.reload(now); err != nil {
		return nil, err
	}
	if err := s.loadAlerts(now); err != nil {
		return nil, err
	}
	return s, nil
}

// Close saves the last page prints and releases the fetcher's idle connections.
// Call it after Run has returned, before the database is closed.
func (s *Service) Close() {
	s.mu.Lock()
	s.closed = true
	if s.pubTimer != nil {
		s.pubTimer.Stop()
		s.pubTimer = nil
	}
	s.mu.Unlock()
	if s.db != nil {
		s.savePrints()
	}
	if s.ownFet {
		s.fetcher.Close()
	}
	s.closeBrowser()
}

// reload reads the searches from storage and spreads the searches of each site
// across their interval, so they do not all fire together at start.
func (s *Service) reload(now time.Time) error {
	list, err := s.db.ListSearches()
	if err != nil {
		return fmt.Errorf("poll: list searches: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	bySite := map[string][]storage.Search{}
	for _, sr := range list {
		bySite[sr.Site] = append(bySite[sr.Site], sr)
	}
	for _, group := range bySite {
		for i, sr := range group {
			run := &searchRun{s: sr}
			if old, ok := s.searches[sr.ID]; ok {
				run = old
				run.s = sr
			} else {
				iv := intervalOf(sr)
				// The first search of a site goes now; the others are spread across
				// the interval (never closer than the site gap).
				off := time.Duration(i) * iv / time.Duration(len(group))
				if min := time.Duration(i) * s.opts.SiteGap; off < min {
					off = min
				}
				run.due = now.Add(off)
			}
			if unseen, err := s.db.Unseen(sr.ID); err == nil {
				run.unseen = unseen
			}
			s.searches[sr.ID] = run
			s.bySite = nil
			if _, ok := s.sites[sr.Site]; !ok {
				s.sites[sr.Site] = &siteRun{}
			}
		}
	}
	if !s.restored {
		s.restored = true
		s.restoreLast()
		s.restorePrints()
	}
	s.replanAll()
	return nil
}

func intervalOf(sr storage.Search) time.Duration {
	if sr.Interval <= 0 {
		return DefaultInterval
	}
	if sr.Interval < MinInterval {
		return MinInterval
	}
	return sr.Interval
}

// jittered returns d ± 10%.
func (s *Service) jittered(d time.Duration) time.Duration {
	return time.Duration(float64(d) * (0.9 + 0.2*s.random()))
}

// Wake makes the loop plan again now (after a change by the user).
func (s *Service) Wake() {
	s.mu.Lock()
	s.fullPlan = true
	s.replanAll()
	s.mu.Unlock()
	s.poke()
}

// siteFreed wakes the loop after a poll of site finished; it plans that site.
func (s *Service) siteFreed(site string) {
	s.mu.Lock()
	if !slices.Contains(s.freed, site) {
		s.freed = append(s.freed, site)
	}
	s.site(site).planAt = time.Time{}
	s.mu.Unlock()
	s.poke()
}

// replanAll makes plan look at every site. Called with s.mu held.
func (s *Service) replanAll() {
	for _, sr := range s.sites {
		sr.planAt = time.Time{}
	}
}

func (s *Service) poke() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// job is one fetch the loop decided to make.
type job struct {
	searchID  string
	site      string
	url       string
	cookie    string
	browser   bool // read with a browser (render.go)
	sel       extract.Selectors
	probe     bool
	start     time.Time
	prevHash  uint64 // searchRun.bodyHash when planned
	structure string // searchRun.structure when planned
}

// result is what one fetch produced.
type result struct {
	resp      *fetch.Response
	err       error
	ext       extract.Result
	extErr    error
	outcome   classify.Outcome
	title     string
	elapsed   time.Duration
	offline   bool
	canceled  bool
	bodyHash  uint64 // extract.Fingerprint of a 200 page (0 otherwise)
	unchanged bool   // the page is byte-identical to the last committed one: not parsed
}

// pollWorkers is how many goroutines wait for polls while the watcher runs.
const pollWorkers = 4

// restaggerEvery is how often plan looks for overdue searches (see restagger).
const restaggerEvery = 10 * time.Second

// maxSleep bounds one wait of the loop, so that a suspended laptop or a clock
// jump is noticed within this long and due times are re-read by the wall clock.
const maxSleep = 30 * time.Second

// Run polls until ctx is cancelled, then waits for in-flight fetches to finish.
// It returns nil on a clean shutdown.
func (s *Service) Run(ctx context.Context) error {
	s.mu.Lock()
	if s.running {
		s.mu.Unlock()
		return errors.New("poll: the watcher is already running")
	}
	s.running = true
	s.mu.Unlock()
	defer func() {
		s.inflight.Wait()
		s.mu.Lock()
		s.running = false
		s.mu.Unlock()
	}()
	s.publish()
	// Polls run on a few long-lived workers (a fresh goroutine per poll grew
	// its stack anew every time: ~5% of the watcher's CPU at 1,000 searches),
	// and on a goroutine of their own when every worker is busy.
	poll := func(j job) {
		defer s.inflight.Done()
		res := s.execute(ctx, j)
		now := s.clock.Now()
		s.finish(j, res, now)
		s.checkHealth(now)
		s.siteFreed(j.site)
	}
	work := make(chan job)
	for range pollWorkers {
		go func() {
			for {
				select {
				case <-ctx.Done():
					return
				case j := <-work:
					poll(j)
				}
			}
		}()
	}
	var next time.Time // when the last full plan said to look again
	for {
		now := s.clock.Now()
		s.housekeeping(now)
		s.checkHealthEvery(now)
		// After a poll finished, only its site can have changed: plan that site
		// alone, unless the last full plan's time has come or the user changed
		// something (Wake). At 1,000 searches planning every site after every
		// poll was a few percent of the watcher's CPU.
		s.mu.Lock()
		freed, full := s.freed, s.fullPlan || next.IsZero() || !now.Before(next)
		s.freed, s.fullPlan = nil, false
		s.mu.Unlock()
		var jobs []job
		if full {
			jobs, next = s.plan(now)
		} else {
			var n2 time.Time
			jobs, n2 = s.planSites(now, freed)
			next = earliest(next, n2)
		}
		for _, j := range jobs {
			s.inflight.Add(1)
			select {
			case work <- j: // an idle worker takes it
			default:
				go poll(j)
			}
		}
		if len(jobs) > 0 {
			s.publishSoon()
		}
		d := next.Sub(now)
		if d > maxSleep {
			d = maxSleep
		}
		if d < 0 {
			d = 0
		}
		t := s.clock.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil
		case <-t.C():
		case <-s.wake:
			t.Stop()
		}
	}
}

// housekeeping takes the daily backup and prunes old sent emails, checked hourly.
func (s *Service) housekeeping(now time.Time) {
	if !s.lastBackup.IsZero() && now.Sub(s.lastBackup) < time.Hour && now.After(s.lastBackup) {
		return
	}
	s.lastBackup = now
	if path, err := s.db.MaybeBackup(); err != nil {
		s.log.Warn("could not back up the database", "err", err)
	} else if path != "" {
		s.log.Info("database backed up", "path", path)
	}
	if _, err := s.db.PruneOutbox(now); err != nil {
		s.log.Warn("could not prune sent emails", "err", err)
	}
	s.savePrints()
}

// plan decides which fetches start now and when the loop must look again. At
// most one request is in flight per site, two requests to one site are at least
// the site gap apart, and the site's backoff registry admits each one.
func (s *Service) plan(now time.Time) ([]job, time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	next := now.Add(maxSleep)
	// restagger looks for searches overdue by a whole interval (a laptop that
	// slept, a clock that jumped): at most every restaggerEvery, or at once when
	// the clock went back. The loop plans after every poll; at 1,000 searches a
	// scan each time was a few percent of the watcher's CPU.
	if d := now.Sub(s.lastStagger); s.lastStagger.IsZero() || d < 0 || d >= restaggerEvery {
		s.lastStagger = now
		s.restagger(now)
		s.replanAll()
	}
	if now.Before(s.offline.until) {
		return nil, s.offline.until
	}
	jobs, n2 := s.planLocked(now, nil)
	next = earliest(next, n2)
	if soon, ok := s.reg.Soonest(); ok && soon.After(now) {
		next = earliest(next, soon)
	}
	return jobs, next
}

// planSites is plan for some sites only: those whose poll just finished.
func (s *Service) planSites(now time.Time, sites []string) ([]job, time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if now.Before(s.offline.until) {
		return nil, s.offline.until
	}
	if len(sites) == 0 {
		return nil, now.Add(maxSleep)
	}
	return s.planLocked(now, sites)
}

// planLocked plans the given sites (nil: all). Called with s.mu held.
func (s *Service) planLocked(now time.Time, only []string) ([]job, time.Time) {
	next := now.Add(maxSleep)
	if s.bySite == nil {
		s.bySite = map[string][]*searchRun{}
		for _, r := range s.searches {
			s.bySite[r.s.Site] = append(s.bySite[r.s.Site], r)
		}
		s.siteNames = s.siteNames[:0]
		for site := range s.bySite {
			s.siteNames = append(s.siteNames, site)
		}
		sort.Strings(s.siteNames)
	}
	var jobs []job
	sites := only
	if sites == nil {
		sites = s.siteNames
	}
	for _, site := range sites {
		sr := s.site(site)
		if sr.inFlight {
			continue
		}
		if !sr.planAt.IsZero() && now.Before(sr.planAt) {
			next = earliest(next, sr.planAt)
			continue
		}
		sr.planAt = time.Time{}
		// The search of this site due first (by ID on a tie), among those that
		// can go: a linear scan, no sorting (plan runs after every poll).
		var first *searchRun
		for _, r := range s.bySite[site] {
			if r.s.Paused || r.attention != "" || r.checking {
				continue
			}
			if first == nil || r.due.Before(first.due) || (r.due.Equal(first.due) && r.s.ID < first.s.ID) {
				first = r
			}
		}
		if first == nil {
			continue
		}
		if first.due.After(now) {
			sr.planAt = first.due
			next = earliest(next, first.due)
			continue
		}
		if gapEnd := sr.lastStart.Add(s.opts.SiteGap); !sr.lastStart.IsZero() && now.Before(gapEnd) {
			sr.planAt = gapEnd
			next = earliest(next, gapEnd)
			continue
		}
		d := s.reg.Admit(site, first.s.ID, now)
		switch d.Verdict {
		case hostbackoff.Wait:
			if d.Until.After(now) {
				sr.planAt = d.Until
				next = earliest(next, d.Until)
			} else {
				next = earliest(next, now.Add(time.Second))
			}
			continue
		case hostbackoff.Probe:
			first.probing = true
		}
		first.checking = true
		sr.inFlight = true
		sr.lastStart = now
		jobs = append(jobs, job{
			searchID:  first.s.ID,
			site:      site,
			url:       first.s.URL,
			cookie:    s.cookieFor(first.s),
			browser:   first.s.Browser,
			sel:       toExtractSelectors(first.s.Selectors),
			probe:     d.Verdict == hostbackoff.Probe,
			start:     now,
			prevHash:  first.bodyHash,
			structure: first.structure,
		})
	}
	return jobs, next
}

// restagger handles a laptop that woke from sleep or a clock that jumped: searches
// overdue by more than their interval are spread out by the site gap instead of
// all firing at once, and due times far in the future (clock moved back) are
// pulled in to one interval from now.
func (s *Service) restagger(now time.Time) {
	var overdue []*searchRun
	for _, r := range s.searches {
		iv := intervalOf(r.s)
		switch {
		case r.due.Before(now.Add(-iv)):
			overdue = append(overdue, r)
		case r.due.After(now.Add(iv + iv/5 + s.opts.SiteGap*time.Duration(len(s.searches)))):
			r.due = now.Add(s.jittered(iv))
		}
	}
	sort.Slice(overdue, func(i, j int) bool { return overdue[i].s.ID < overdue[j].s.ID })
	for i, r := range overdue {
		r.due = now.Add(time.Duration(i) * s.opts.SiteGap)
	}
}

func earliest(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

func (s *Service) site(name string) *siteRun {
	sr, ok := s.sites[name]
	if !ok {
		sr = &siteRun{}
		s.sites[name] = sr
	}
	return sr
}

func toExtractSelectors(sel storage.Selectors) extract.Selectors {
	return extract.Selectors{Item: sel.Item, Link: sel.Link, Title: sel.Title, Price: sel.Price}
}

// execute fetches, extracts and classifies one page. It saves nothing.
func (s *Service) execute(ctx context.Context, j job) result {
	select { // bounds bodies being read at once (a hundred sites fall due together)
	case fetching <- struct{}{}:
		defer func() { <-fetching }()
	case <-ctx.Done():
	}
	ctx, cancel := context.WithTimeout(ctx, s.opts.RequestTimeout)
	defer cancel()
	start := s.clock.Now()
	resp, err := s.get(ctx, j)
	res := result{resp: resp, err: err}
	res.elapsed = s.clock.Now().Sub(start)
	if resp != nil && resp.Elapsed > 0 {
		res.elapsed = resp.Elapsed
	}
	if err != nil {
		if ctx.Err() != nil && errors.Is(ctx.Err(), context.Canceled) {
			res.canceled = true
		}
		if fetch.IsNetworkUnreachable(err) {
			res.offline = true
		}
	}
	in := classify.Input{Err: err, Now: start}
	if resp != nil {
		in.Status = resp.Status
		in.Header = resp.Header
		in.Body = resp.Body
		in.RequestURL = resp.RequestURL
		in.FinalURL = resp.FinalURL
		in.Redirect = resp.Redirect
		if err == nil && resp.Status == 200 && len(resp.Body) > 0 {
			res.bodyHash = extract.Fingerprint(resp.Body, j.url, j.sel)
			if res.bodyHash == j.prevHash {
				resp.Release()
				res.unchanged = true
				res.outcome = classify.Outcome{Kind: classify.OK, Status: resp.Status, Signal: "page unchanged"}
				return res
			}
		}
		// From here the body is kept until the poll is finished: give it memory
		// of its own size and the pooled buffer back.
		resp.Detach()
		in.Body = resp.Body
		if err == nil && len(resp.Body) > 0 {
			analyzing <- struct{}{} // bounds parse trees in memory at once
			defer func() { <-analyzing }()
			page := resp.FinalURL
			if page == nil {
				page = resp.RequestURL
			}
			// One parse, shared by extraction and the classifier.
			in.Doc = extract.Parse(resp.Body)
			res.ext, res.extErr = extract.ExtractTree(in.Doc, page, j.sel, extract.Options{Structure: j.structure})
			in.Listings = len(res.ext.Listings)
			in.NoResultsMarker = res.ext.NoResults
			in.ResultsContainer = res.ext.Container
			res.title = extract.PageTitle(in.Doc)
		}
	}
	res.outcome = classify.Classify(in)
	if res.extErr != nil && res.outcome.Kind == classify.UnexpectedPage {
		res.outcome.Detail = res.extErr.Error()
	}
	return res
}

// analyzing bounds how many pages are parsed at once: a parse tree is about ten
// times its page, and a hundred sites fall due together at start.
var analyzing = make(chan struct{}, max(2, runtime.GOMAXPROCS(0)))

// fetching bounds the polls in flight across all sites; the rest wait their
// turn (a fetch of a slow site holds one slot for at most RequestTimeout).
var fetching = make(chan struct{}, 16)

// finish records one fetch's outcome: the registry (persisted at once), the
// search's schedule, the storage commit for new listings, and the site's health.
func (s *Service) finish(j job, res result, now time.Time) {
	s.mu.Lock()
	r := s.searches[j.searchID]
	sr := s.site(j.site)
	sr.inFlight = false
	if r != nil {
		r.checking = false
		r.probing = false
	}
	if res.canceled {
		s.mu.Unlock()
		return
	}
	s.day.count(now, 0)
	if res.offline {
		// Offline is not a refusal: no ladder climbs; the loop waits for
		// connectivity with its own short backoff.
		s.offline.step++
		wait := 10 * time.Second << min(s.offline.step-1, 4)
		if wait > 2*time.Minute {
			wait = 2 * time.Minute
		}
		s.offline.until = now.Add(wait)
		if r != nil {
			r.due = s.offline.until
			r.lastOutcome = "offline"
			r.lastSignal = res.err.Error()
			r.lastChecked = now
		}
		s.mu.Unlock()
		s.log.Warn("offline: no site reachable", "site", j.site, "retry_in", wait.String(), "err", res.err)
		s.publishSoon()
		return
	}
	s.offline = offlineState{}
	out := res.outcome
	sr.lastStatus = out.Status
	sr.lastSignal = out.Signal
	sr.retryAfter = out.RetryAfter
	if res.elapsed > 0 {
		if sr.avgResp == 0 {
			sr.avgResp = res.elapsed
		} else {
			sr.avgResp = time.Duration(0.7*float64(sr.avgResp) + 0.3*float64(res.elapsed))
		}
	}
	if r != nil {
		r.lastChecked = now
		r.lastOutcome = string(out.Kind)
		r.lastSignal = out.Signal
		r.due = now.Add(s.jittered(intervalOf(r.s)))
		if !res.unchanged {
			r.stale = out.Kind == classify.OK && res.ext.Fallback == extract.MethodSelectors
			r.bodyHash = 0 // set again by commit once this page's listings are saved
		} else {
			r.lastNew = 0
			r.s.LastPolled = now
		}
	}
	var search storage.Search
	if r != nil {
		search = r.s
	}
	s.mu.Unlock()

	switch {
	case out.Kind == classify.OK:
		s.mu.Lock()
		sr.ok++
		s.mu.Unlock()
		_, had := s.reg.Lookup(j.site)
		s.reg.Success(j.site, now)
		if had { // no entry, nothing changed: no write (one fsync less per poll)
			s.persistBackoff()
		}
		if r != nil && !res.unchanged {
			s.commit(j, search, res, now)
			s.invalidateOutbox()
		}
	case out.Kind == classify.SessionExpired:
		s.mu.Lock()
		sr.fail++
		sr.needsLogin = "session expired — log in again"
		for _, o := range s.searches {
			if o.s.Site == j.site {
				o.attention = "session expired — log in again"
			}
		}
		s.mu.Unlock()
		s.keepPage(j.site, res)
		s.log.Warn("session expired: searches on this site need the user", "site", j.site, "signal", out.Signal)
	case out.Kind.IsRefusal():
		s.mu.Lock()
		sr.fail++
		s.mu.Unlock()
		kind := refusalKind(out.Kind)
		until := s.reg.Record(j.site, kind, out.RetryAfter, now)
		s.persistBackoff()
		s.keepPage(j.site, res)
		s.log.Info("site refused", "site", j.site, "search_id", j.searchID, "kind", kind.String(),
			"status", out.Status, "signal", out.Signal, "next_check_at", until.Format(time.RFC3339))
	default:
		s.mu.Lock()
		sr.fail++
		s.mu.Unlock()
	}
	s.rememberLast(j, out, now)
	res.resp.Release() // nothing refers to the body any more (keepPage wrote it)
	s.publishSoon()
}

// lastAnswer is what a site or a search last answered, kept across restarts so
// the window does not say "none yet" after a restart. It is written only when
// the kind of answer changes, so a steady site costs no extra commits.
type lastAnswer struct {
	Outcome    string        `json:"outcome"`
	Status     int           `json:"status,omitempty"`
	Signal     string        `json:"signal,omitempty"`
	RetryAfter time.Duration `json:"retry_after,omitempty"`
	Page       string        `json:"page,omitempty"` // saved copy of the last refusal page
	NeedsLogin string        `json:"needs_login,omitempty"`
	At         time.Time     `json:"at"`
}

// lastKey is the settings key of a search's last answer.
func lastKey(searchID string) string { return "last:" + searchID }

// rememberLast persists the site's and the search's last answer when its kind
// changed since it was last written.
func (s *Service) rememberLast(j job, out classify.Outcome, now time.Time) {
	s.mu.Lock()
	sr := s.site(j.site)
	site := lastAnswer{Outcome: string(out.Kind), Status: out.Status, Signal: out.Signal,
		RetryAfter: out.RetryAfter, Page: sr.lastRefusal, NeedsLogin: sr.needsLogin, At: now}
	writeSite := sr.savedOutcome != site.Outcome
	sr.savedOutcome = site.Outcome
	writeSearch := false
	var search lastAnswer
	if r := s.searches[j.searchID]; r != nil {
		search = lastAnswer{Outcome: r.lastOutcome, Signal: r.lastSignal, At: now}
		writeSearch = r.savedOutcome != search.Outcome
		r.savedOutcome = search.Outcome
	}
	s.mu.Unlock()
	if writeSite {
		if err := s.db.SaveSiteInfo(j.site, site); err != nil {
			s.log.Warn("could not save the site's last answer", "site", j.site, "err", err)
		}
	}
	if writeSearch {
		if err := s.db.PutSetting(lastKey(j.searchID), search); err != nil {
			s.log.Warn("could not save the search's last answer", "search_id", j.searchID, "err", err)
		}
	}
}

// restoreLast reads the last answers saved by rememberLast. Called with s.mu held.
func (s *Service) restoreLast() {
	infos, err := s.db.LoadSiteInfos()
	if err != nil {
		s.log.Warn("could not read the sites' last answers", "err", err)
	}
	for site, raw := range infos {
		var a lastAnswer
		if json.Unmarshal(raw, &a) != nil || a.Outcome == "" {
			continue
		}
		sr := s.site(site)
		sr.lastStatus, sr.lastSignal, sr.retryAfter = a.Status, a.Signal, a.RetryAfter
		sr.savedOutcome, sr.needsLogin = a.Outcome, a.NeedsLogin
		if a.Page != "" {
			if _, err := os.Stat(a.Page); err == nil {
				sr.lastRefusal = a.Page
			}
		}
	}
	for id, r := range s.searches {
		var a lastAnswer
		if ok, err := s.db.GetSetting(lastKey(id), &a); err != nil || !ok {
			continue
		}
		r.lastOutcome, r.lastSignal, r.lastChecked, r.savedOutcome = a.Outcome, a.Signal, a.At, a.Outcome
		if s.site(r.s.Site).needsLogin != "" {
			r.attention = s.site(r.s.Site).needsLogin
		}
	}
}

// refusalKind maps an outcome to its ladder; an unexpected page climbs the error
// ladder.
func refusalKind(k classify.Kind) hostbackoff.Kind {
	switch k {
	case classify.Challenge:
		return hostbackoff.Challenge
	case classify.RateLimited:
		return hostbackoff.RateLimited
	case classify.Denied:
		return hostbackoff.Denied
	}
	return hostbackoff.Error
}

// commit writes the listings of a successful poll in one transaction and wakes
// the outbox relay when a digest was queued.
func (s *Service) commit(j job, search storage.Search, res result, now time.Time) {
	found := judged(search.Filters, j.site, res.ext.Listings, now)
	cr, err := s.db.CommitPollRules(j.searchID, found, now, pollRules)
	if err != nil {
		s.log.Error("could not save the listings of a poll; they will be seen again next time",
			"search_id", j.searchID, "err", err)
		s.mu.Lock()
		if r := s.searches[j.searchID]; r != nil {
			r.lastOutcome = "error"
			r.lastSignal = "could not save: " + err.Error()
			r.saveErr = err
		}
		s.mu.Unlock()
		return
	}
	s.mu.Lock()
	if r := s.searches[j.searchID]; r != nil {
		r.saveErr = nil
		r.lastNew = len(cr.New)
		if cr.Baseline {
			r.s.Baselined = true
			r.s.BaselineCount = cr.BaselineCount
			r.lastNew = 0
		} else {
			r.unseen += len(cr.New)
			s.day.found += len(cr.New)
		}
		r.s.LastCount = len(found)
		r.s.LastPolled = now
		r.bodyHash = res.bodyHash
		r.structure = res.ext.Structure
	}
	s.mu.Unlock()
	if cr.Baseline {
		s.log.Info("baseline recorded", "search_id", j.searchID, "listings", cr.BaselineCount)
		return
	}
	s.announceChanges(search, cr)
	if len(cr.New) > 0 {
		s.log.Info("new listings", "search_id", j.searchID, "new", len(cr.New), "outbox_id", cr.OutboxID)
		if s.opts.Relay != nil {
			s.opts.Relay.Wake()
		}
		if s.opts.Notify != nil {
			s.opts.Notify(fmt.Sprintf("%d new on %s", len(cr.New), search.Name), firstTitles(cr.New))
		}
	}
}

func firstTitles(ls []storage.Listing) string {
	var b strings.Builder
	for i, l := range ls {
		if i == 3 {
			fmt.Fprintf(&b, "… and %d more", len(ls)-3)
			break
		}
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(l.Title)
		if l.Price != "" {
			b.WriteString(" — " + l.Price)
		}
	}
	return b.String()
}

func toStored(site string, l extract.Listing, now time.Time) storage.Listing {
	return storage.Listing{
		ID: site + ":" + l.ID, URL: l.URL, Title: l.Title, Price: l.Price,
		PriceValue: l.PriceValue, Currency: l.Currency, Location: l.Location,
		Size: l.Size, Rooms: l.Rooms, Image: l.Image, Promoted: l.Promoted, FirstSeen: now,
	}
}

// persistBackoff writes the registry's state at once, so a restart never forgets
// a wait.
func (s *Service) persistBackoff() {
	raw, err := json.Marshal(s.reg.Snapshot())
	if err == nil {
		err = s.db.SaveBackoff(raw)
	}
	if err != nil {
		s.log.Error("could not save the sites' backoff state", "err", err)
	}
}

// keepPage keeps a copy of a refusal or unexpected page for the user to open.
func (s *Service) keepPage(site string, res result) {
	if s.opts.DataDir == "" || res.resp == nil || len(res.resp.Body) == 0 {
		return
	}
	dir := filepath.Join(s.opts.DataDir, "pages")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		s.log.Warn("could not keep a copy of the page", "site", site, "err", err)
		return
	}
	name := filepath.Join(dir, safeName(site)+"-last.html")
	if err := os.WriteFile(name, res.resp.Body, 0o600); err != nil {
		s.log.Warn("could not keep a copy of the page", "site", site, "err", err)
		return
	}
	s.mu.Lock()
	s.site(site).lastRefusal = name
	s.mu.Unlock()
}

func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' || r == '-' {
			return r
		}
		return '_'
	}, strings.ToLower(s))
}

// siteOf returns the site (registrable domain) of a URL.
func siteOf(raw string) (string, *url.URL, error) {
	u, err := ParseSearchURL(raw)
	if err != nil {
		return "", nil, err
	}
	return hostbackoff.SiteOf(u.Host), u, nil
}

// ErrBadURL is wrapped by every error about a search URL the user typed.
var ErrBadURL = errors.New("poll: not a usable search URL")

// ParseSearchURL checks a URL a user pasted: http or https, with a host.
func ParseSearchURL(raw string) (*url.URL, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return nil, fmt.Errorf("%w: the URL is empty — paste the address of a search-results page", ErrBadURL)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("%w: %q is not a web address", ErrBadURL, raw)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("%w: %q must start with https:// or http://", ErrBadURL, raw)
	}
	if u.Hostname() == "" {
		return nil, fmt.Errorf("%w: %q has no site name in it", ErrBadURL, raw)
	}
	if u.User != nil {
		return nil, fmt.Errorf("%w: %q contains a user name or password; paste the plain search address", ErrBadURL, raw)
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return nil, fmt.Errorf("%w: %q has the port %s, but a port is a number from 1 to 65535; copy the address again from your browser", ErrBadURL, raw, p)
		}
	}
	normaliseSearchURL(u)
	return u, nil
}

// normaliseSearchURL writes a parsed search URL as a browser sends it: scheme and
// host in lower case, no fragment (it never reaches the server), and the query
// percent-encoded where it holds spaces, non-ASCII or other bytes a server
// refuses raw (a pasted "a=1 b=2&c=ä" is sent as "a=1%20b=2&c=%C3%A4").
func normaliseSearchURL(u *url.URL) {
	u.Scheme = strings.ToLower(u.Scheme)
	u.Host = strings.ToLower(u.Host)
	u.Fragment, u.RawFragment = "", ""
	u.ForceQuery = false
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(u.RawQuery); i++ {
		c := u.RawQuery[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte("\"<>`{}|\\^", c) >= 0 {
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
			continue
		}
		b.WriteByte(c)
	}
	u.RawQuery = b.String()
}

// sameSearchURL reports whether two search URLs name the same page, as
// ParseSearchURL writes them (case of scheme and host, fragment and encoding do
// not matter).
func sameSearchURL(a, b string) bool {
	ua, err1 := ParseSearchURL(a)
	ub, err2 := ParseSearchURL(b)
	return err1 == nil && err2 == nil && ua.String() == ub.String()
}
