package poll

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"

	"notifio/hostbackoff"
	"notifio/poll/fetch"
	"notifio/storage"

	"notifio/internal/model"
	"notifio/poll/words"
)

func newDefaultFetcher() *fetch.Fetcher { return fetch.New(fetch.Options{}) }

// OnceResult is what one pass over the searches did, per search.
type OnceResult struct {
	SearchID string
	Name     string
	Site     string
	Outcome  string // an outcome kind, "waiting" when the site was not asked, OutcomeNotSaved
	New      int
	Reason   string
	// SaveErr is why the listings found could not be saved (Outcome is
	// OutcomeNotSaved); they count as new at the next check.
	SaveErr error `json:"-"`
}

// NotSavedReason says in plain words why the listings of a poll were not saved
// and what to do; nothing is lost, as they count as new at the next check.
func NotSavedReason(found int, err error) string {
	const lost = " Nothing is lost: they count as new at the next check that can save them."
	switch {
	case errors.Is(err, model.ErrDiskFull):
		return fmt.Sprintf("Found %d listings but could not save them: the disk holding Notifio's data is full. Free some space on that disk.", found) + lost
	case errors.Is(err, storage.ErrNotWritable):
		return fmt.Sprintf("Found %d listings but could not save them: Notifio's data folder cannot be written. Check its permissions (and that the disk is not read-only).", found) + lost
	}
	return fmt.Sprintf("Found %d listings but could not save them (%v).", found, err) + lost
}

// Once checks every search that is not paused and whose site admits it, once,
// whatever its interval, keeping the per-site spacing (one request at a time per
// site, the site gap between two). Sites are checked in parallel. A site whose
// login expired is asked by its first search only: a good answer brings the
// others back, another login page leaves them waiting for the user.
func (s *Service) Once(ctx context.Context) []OnceResult {
	s.mu.Lock()
	bySite := map[string][]*searchRun{}
	for _, r := range s.searches {
		if r.s.Paused {
			continue
		}
		bySite[r.s.Site] = append(bySite[r.s.Site], r)
	}
	s.mu.Unlock()
	var (
		mu  sync.Mutex
		out []OnceResult
		wg  sync.WaitGroup
	)
	for site, runs := range bySite {
		sort.Slice(runs, func(i, j int) bool { return runs[i].s.ID < runs[j].s.ID })
		wg.Add(1)
		go func(site string, runs []*searchRun) {
			defer wg.Done()
			for i, r := range runs {
				if ctx.Err() != nil {
					return
				}
				if i > 0 && s.loginExpired(site) {
					// The first search asked, and the site still sends it to
					// its login page: the others wait for the user.
					mu.Lock()
					out = append(out, OnceResult{SearchID: r.s.ID, Name: r.s.Name, Site: site, Outcome: string(model.OutcomeSessionExpired),
						Reason: words.OutcomeMessage(site, model.OutcomeSessionExpired, 0, false)})
					mu.Unlock()
					continue
				}
				if i > 0 {
					t := s.clock.NewTimer(s.opts.SiteGap)
					select {
					case <-ctx.Done():
						t.Stop()
						return
					case <-t.C():
					}
				}
				now := s.clock.Now()
				s.mu.Lock()
				sr := r.s
				s.mu.Unlock()
				d := s.reg.Admit(site, sr.ID, now)
				if d.Verdict == hostbackoff.Wait {
					mu.Lock()
					out = append(out, OnceResult{SearchID: sr.ID, Name: sr.Name, Site: site, Outcome: "waiting", Reason: d.Reason})
					mu.Unlock()
					continue
				}
				s.mu.Lock()
				j := jobFor(r, d.Verdict == hostbackoff.Probe, now)
				r.checking = true
				r.probing = j.probe
				s.site(site).inFlight = true
				s.site(site).lastStart = now
				s.mu.Unlock()
				res := s.execute(ctx, j)
				s.finish(j, res, s.clock.Now())
				s.mu.Lock()
				or := OnceResult{SearchID: sr.ID, Name: sr.Name, Site: site, Outcome: r.lastOutcome, New: r.lastNew, SaveErr: r.saveErr}
				count := r.s.LastCount
				s.mu.Unlock()
				if !res.unchanged {
					count = len(res.ext.Listings)
				}
				if res.offline {
					or.Outcome = "offline"
				}
				or.Reason = words.OutcomeMessage(site, model.Outcome(or.Outcome), count, res.ext.NoResults)
				if words.NeedsBrowser(model.Outcome(or.Outcome), res.outcome.Signal) {
					or.Reason = words.MessageNeedsBrowser
				}
				if or.SaveErr != nil {
					or.Outcome, or.Reason = model.OutcomeNotSaved, NotSavedReason(count, or.SaveErr)
				}
				mu.Lock()
				out = append(out, or)
				mu.Unlock()
			}
		}(site, runs)
	}
	wg.Wait()
	s.checkHealth(s.clock.Now())
	s.publish() // the pass is over: subscribers see its end at once, not coalesced
	sort.Slice(out, func(i, j int) bool { return out[i].SearchID < out[j].SearchID })
	return out
}

// loginExpired reports whether site's login expired (a search of it was sent
// to its login page and nothing has answered well since).
func (s *Service) loginExpired(site string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.site(site).needsLogin != ""
}
