package poll

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// The loop: it runs the polls the schedule plans (schedule.go), wakes when a
// poll finished or the user changed something, and keeps house hourly.

// loop is Run's state.
type loop struct {
	wake       chan struct{} // a poll finished or the user changed something
	running    bool          // Run is running (guarded by Service.mu)
	lastBackup time.Time     // housekeeping's last turn
	inflight   sync.WaitGroup
	// polling counts the polls Run started whose site is not yet freed
	// (siteFreed): the loop's tests read it to know the loop is idle.
	polling atomic.Int32
}

// Wake makes the loop plan again now (after a change by the user).
func (s *Service) Wake() {
	s.mu.Lock()
	s.fullPlan = true
	s.schedule.replanAll()
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

func (s *Service) poke() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
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

// plan decides which fetches start now and when the loop must look again
// (schedule.plan, under s.mu).
func (s *Service) plan(now time.Time) ([]job, time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.schedule.plan(now)
}

// planSites is plan for the sites whose poll just finished.
func (s *Service) planSites(now time.Time, sites []string) ([]job, time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.schedule.planSites(now, sites)
}
