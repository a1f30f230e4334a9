package poll

import (
	"sort"
	"time"

	"notifio/hostbackoff"

	"notifio/internal/model"
)

// schedule is which search of which site goes when: every search with its due
// time, every site with what it is doing, and the index plan keeps. A plan is
// computed from this state, the sites' backoff and now, nothing else (no
// storage, no clock of its own). Service.mu guards it.
type schedule struct {
	searches map[string]*searchRun
	sites    map[string]*siteRun
	offline  offlineState

	reg    *hostbackoff.Registry
	gap    time.Duration                     // the least time between two requests to one site
	jitter func(time.Duration) time.Duration // an interval ± 10%

	lastStagger time.Time // when restagger last ran

	// bySite indexes searches by site for plan, with the sites sorted; nil
	// after searches were added, changed or removed (rebuilt by plan).
	bySite    map[string][]*searchRun
	siteNames []string

	freed    []string // sites whose poll finished since the loop last planned
	fullPlan bool     // Wake: plan every site
}

// job is one fetch the loop decided to make.
type job struct {
	searchID  string
	site      string
	url       string
	cookie    string // a Cookie header given with the job (a dry run)
	cookieRef string // else the setting that holds the search's pasted cookie
	browser   bool   // read with a browser (render.go)
	sel       model.PageSelectors
	probe     bool
	start     time.Time
	prevHash  uint64 // searchRun.bodyHash when planned
	structure string // searchRun.structure when planned
}

// jobFor is the one way a poll of a search is made, by plan and by Once.
func jobFor(r *searchRun, probe bool, now time.Time) job {
	return job{
		searchID:  r.s.ID,
		site:      r.s.Site,
		url:       r.s.URL,
		cookieRef: r.s.CookieRef,
		browser:   r.s.Browser,
		sel:       toExtractSelectors(r.s.Selectors),
		probe:     probe,
		start:     now,
		prevHash:  r.bodyHash,
		structure: r.structure,
	}
}

// site returns the state of a site, made on first use.
func (sc *schedule) site(name string) *siteRun {
	sr, ok := sc.sites[name]
	if !ok {
		sr = &siteRun{}
		sc.sites[name] = sr
	}
	return sr
}

// replanAll makes plan look at every site.
func (sc *schedule) replanAll() {
	for _, sr := range sc.sites {
		sr.planAt = time.Time{}
	}
}

// plan decides which fetches start now and when the loop must look again. At
// most one request is in flight per site, two requests to one site are at least
// the site gap apart, and the site's backoff registry admits each one.
func (sc *schedule) plan(now time.Time) ([]job, time.Time) {
	next := now.Add(maxSleep)
	// restagger looks for searches overdue by a whole interval (a laptop that
	// slept, a clock that jumped): at most every restaggerEvery, or at once when
	// the clock went back. The loop plans after every poll; at 1,000 searches a
	// scan each time was a few percent of the watcher's CPU.
	if d := now.Sub(sc.lastStagger); sc.lastStagger.IsZero() || d < 0 || d >= restaggerEvery {
		sc.lastStagger = now
		sc.restagger(now)
		sc.replanAll()
	}
	if now.Before(sc.offline.until) {
		return nil, sc.offline.until
	}
	jobs, n2 := sc.planOnly(now, nil)
	next = earliest(next, n2)
	if soon, ok := sc.reg.Soonest(); ok && soon.After(now) {
		next = earliest(next, soon)
	}
	return jobs, next
}

// planSites is plan for some sites only: those whose poll just finished.
func (sc *schedule) planSites(now time.Time, sites []string) ([]job, time.Time) {
	if now.Before(sc.offline.until) {
		return nil, sc.offline.until
	}
	if len(sites) == 0 {
		return nil, now.Add(maxSleep)
	}
	return sc.planOnly(now, sites)
}

// planOnly plans the given sites (nil: all).
func (sc *schedule) planOnly(now time.Time, only []string) ([]job, time.Time) {
	next := now.Add(maxSleep)
	sites := only
	if sites == nil {
		sites = sc.sortedSites()
	}
	var jobs []job
	for _, site := range sites {
		j, at, ok := sc.planSite(site, now)
		if ok {
			jobs = append(jobs, j)
		} else if !at.IsZero() {
			next = earliest(next, at)
		}
	}
	return jobs, next
}

// sortedSites returns every site that has searches, sorted, rebuilding the
// index when searches changed.
func (sc *schedule) sortedSites() []string {
	if sc.bySite == nil {
		sc.bySite = map[string][]*searchRun{}
		for _, r := range sc.searches {
			sc.bySite[r.s.Site] = append(sc.bySite[r.s.Site], r)
		}
		sc.siteNames = sc.siteNames[:0]
		for site := range sc.bySite {
			sc.siteNames = append(sc.siteNames, site)
		}
		sort.Strings(sc.siteNames)
	}
	return sc.siteNames
}

// planSite returns the poll of site that starts now, or when to look at the
// site again (zero: when something changes, such as its poll finishing).
func (sc *schedule) planSite(site string, now time.Time) (job, time.Time, bool) {
	sr := sc.site(site)
	if sr.inFlight {
		return job{}, time.Time{}, false
	}
	if !sr.planAt.IsZero() && now.Before(sr.planAt) {
		return job{}, sr.planAt, false
	}
	sr.planAt = time.Time{}
	first := sc.dueFirst(site)
	if first == nil {
		return job{}, time.Time{}, false
	}
	if first.due.After(now) {
		sr.planAt = first.due
		return job{}, first.due, false
	}
	if gapEnd := sr.lastStart.Add(sc.gap); !sr.lastStart.IsZero() && now.Before(gapEnd) {
		sr.planAt = gapEnd
		return job{}, gapEnd, false
	}
	d := sc.reg.Admit(site, first.s.ID, now)
	if d.Verdict == hostbackoff.Wait {
		if d.Until.After(now) {
			sr.planAt = d.Until
			return job{}, d.Until, false
		}
		return job{}, now.Add(time.Second), false
	}
	probe := d.Verdict == hostbackoff.Probe
	if probe {
		first.probing = true
	}
	first.checking = true
	sr.inFlight = true
	sr.lastStart = now
	return jobFor(first, probe, now), time.Time{}, true
}

// dueFirst is the search of site due first (by ID on a tie) among those that
// can go: a linear scan, no sorting (plan runs after every poll).
func (sc *schedule) dueFirst(site string) *searchRun {
	if sc.bySite == nil {
		sc.sortedSites()
	}
	var first *searchRun
	for _, r := range sc.bySite[site] {
		if r.s.Paused || r.attention != "" || r.checking {
			continue
		}
		if first == nil || r.due.Before(first.due) || (r.due.Equal(first.due) && r.s.ID < first.s.ID) {
			first = r
		}
	}
	return first
}

// restagger handles a laptop that woke from sleep or a clock that jumped: searches
// overdue by more than their interval are spread out by the site gap instead of
// all firing at once, and due times far in the future (clock moved back) are
// pulled in to one interval from now.
func (sc *schedule) restagger(now time.Time) {
	var overdue []*searchRun
	for _, r := range sc.searches {
		iv := intervalOf(r.s)
		switch {
		case r.due.Before(now.Add(-iv)):
			overdue = append(overdue, r)
		case r.due.After(now.Add(iv + iv/5 + sc.gap*time.Duration(len(sc.searches)))):
			r.due = now.Add(sc.jitter(iv))
		}
	}
	sort.Slice(overdue, func(i, j int) bool { return overdue[i].s.ID < overdue[j].s.ID })
	for i, r := range overdue {
		r.due = now.Add(time.Duration(i) * sc.gap)
	}
}

func earliest(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}
