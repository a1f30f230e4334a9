package poll

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"notifio/hostbackoff"
	"notifio/poll/fetch"
	"notifio/storage"

	"notifio/internal/model"

	"notifio/internal/secrets"
)

// Options configure a Service. Every zero value has a sensible default, named on
// the field.
type Options struct {
	// DataDir is where copies of refusal and unexpected pages are kept
	// ("" disables keeping them).
	DataDir string
	// Clock is the source of time; nil means the real clock.
	Clock Clock
	// Random returns numbers in [0,1) for jitter — of the schedule and of the
	// sites' backoff waits; nil means math/rand. It is called from several
	// goroutines.
	Random func() float64
	// Fetcher fetches pages; nil means fetch.New with its defaults.
	Fetcher *fetch.Fetcher
	// Delivery is woken when the outbox got something to send; nil means
	// nothing is sent (items stay queued).
	Delivery Delivery
	// Notify shows a desktop notification (new listings, a price change, a
	// health alert) unless the user turned them off (SetDesktopNotifications);
	// nil means none.
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
	// Secrets keeps the cookies users paste for sites (poll/cookies.go); nil
	// means secrets.NewSecrets(DataDir), or none without a DataDir.
	Secrets *secrets.Secrets
}

// Delivery sends what the watcher queued in the outbox (notify's relays, wired
// by main). Wake must not block.
type Delivery interface {
	// Wake says the outbox has something new to send.
	Wake()
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

	secretsOnce sync.Once
	ownSecrets  *secrets.Secrets // secrets(), when Options.Secrets is nil

	// mu guards the schedule, the publisher and the few fields below it.
	mu sync.Mutex
	// schedule (schedule.go): the searches, the sites, what is due when.
	schedule
	// loop (scheduler.go): Run's own state.
	loop
	// publisher (publish.go): who observes the watcher, and the outbox count.
	publisher
	// healthState (alerts.go): what the alerts told, and when.
	healthState

	restored bool // restoreLast ran
	closed   bool // Close ran

	savedPrints map[string]pagePrint // as last read or written (prints.go)

	br      browserState
	solving solveWindows // open "solve in the browser" windows (solve.go)
	// notSaved (notsaved.go): the marker file of searches whose poll could not be saved.
	notSaved notSavedMarks
	// desktopOff (desktop.go): the user turned desktop notifications off.
	desktopOff atomic.Bool
}

type searchRun struct {
	s           model.Search
	due         time.Time
	checking    bool
	probing     bool
	attention   string
	lastChecked time.Time
	lastOutcome string
	lastSignal  string
	lastNew     int
	lastDrops   int // price drops the last committed page announced
	unseen      int
	// bodyHash is pageHash of the last page whose listings were committed (0:
	// none): a byte-identical page cannot hold anything new, so it is neither
	// parsed nor committed again (docs/PERFORMANCE.md).
	bodyHash uint64
	// structure is the result list the last committed page was read from
	// (model.PageResult.Structure; "" when none): the next poll looks for it
	// first, so a search down to one result keeps reading its own list.
	structure string
	// savedOutcome is the outcome last persisted by a poll (lastanswer.go).
	savedOutcome string
	// stale is true when the search's own selectors found nothing at the last
	// read page and automatic extraction was used (model.PageResult.Fallback).
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
	// answeredAt is when the site last answered (any HTTP answer); zero when
	// its latest check got none. A host not found beside a site that answers
	// is that host's problem, not this computer being offline.
	answeredAt time.Time
	// savedOutcome is the outcome last persisted by a poll (lastanswer.go).
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
		db:      db,
		opts:    opts,
		clock:   opts.Clock,
		random:  opts.Random,
		fetcher: opts.Fetcher,
		log:     opts.Logger,
		loop:    loop{wake: make(chan struct{}, 1)},
		schedule: schedule{
			searches: map[string]*searchRun{},
			sites:    map[string]*siteRun{},
			reg:      hostbackoff.NewRegistry(hostbackoff.Options{Ladders: model.DefaultLadders(), Random: opts.Random}),
		},
		publisher: publisher{subs: map[int]func(model.Snapshot){}},
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
		s.opts.SiteGap = model.DefaultSiteGap
	}
	s.schedule.gap, s.schedule.jitter = s.opts.SiteGap, s.jittered
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
	s.loadDesktopChoice()
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
	bySite := map[string][]model.Search{}
	for _, sr := range list {
		bySite[sr.Site] = append(bySite[sr.Site], sr)
	}
	for _, group := range bySite {
		fresh := 0 // searches of the site without a baseline yet
		for i, sr := range group {
			run := &searchRun{s: sr}
			if old, ok := s.searches[sr.ID]; ok {
				run = old
				run.s = sr
			} else {
				iv := intervalOf(sr)
				// The first search of a site goes now; the others are spread across
				// the interval (never closer than the site gap). A search that has
				// no baseline yet goes at once (one site gap after another): its
				// user is waiting to see it work, not an interval later.
				off := time.Duration(i) * iv / time.Duration(len(group))
				if min := time.Duration(i) * s.opts.SiteGap; off < min {
					off = min
				}
				if !sr.Baselined {
					off = time.Duration(fresh) * s.opts.SiteGap
					fresh++
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
		s.restoreNotSaved()
	}
	s.replanAll()
	return nil
}

func intervalOf(sr model.Search) time.Duration {
	if sr.Interval <= 0 {
		return model.DefaultInterval
	}
	if sr.Interval < model.MinInterval {
		return model.MinInterval
	}
	return sr.Interval
}

// jittered returns d ± 10%.
func (s *Service) jittered(d time.Duration) time.Duration {
	return time.Duration(float64(d) * (0.9 + 0.2*s.random()))
}

// toExtractSelectors is a search's saved selectors as extraction reads them
// (the same fields; the saved ones have their own JSON names).
func toExtractSelectors(sel model.Selectors) model.PageSelectors {
	return model.PageSelectors(sel)
}
