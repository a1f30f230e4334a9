package poll

import (
	"context"
	"errors"
	"slices"
	"sort"
	"time"

	"notifio/hostbackoff"
	"notifio/poll/extract"
)

// The scheduler: which search of which site goes when (plan), the loop that
// runs the polls (Run), and waking it.

// Wake makes the loop plan again now (after a change by the user).
func (s *Service) Wake() {
	s.mu.Lock()
	s.fullPlan = true
	s.replanAll()
	s.mu.Unlock()
	s.poke()
}

// siteFreed wakes the loop after a poll of site finished; it plans that site.
// The poll stops counting as running and the wake is sent under s.mu
// together, so whoever sees no poll running also sees the wake.
func (s *Service) siteFreed(site string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !slices.Contains(s.freed, site) {
		s.freed = append(s.freed, site)
	}
	s.site(site).planAt = time.Time{}
	s.polling.Add(-1)
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
			s.polling.Add(1)
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
