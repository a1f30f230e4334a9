package poll

import (
	"testing"
	"time"

	"notifio/hostbackoff"

	"notifio/internal/model"
)

// The plan as a function of the schedule's state and now: no service, no
// storage, no clock.

func testSchedule(searches ...model.Search) *schedule {
	sc := &schedule{
		searches: map[string]*searchRun{},
		sites:    map[string]*siteRun{},
		reg:      hostbackoff.NewRegistry(hostbackoff.Options{Ladders: model.DefaultLadders()}),
		gap:      5 * time.Second,
		jitter:   func(d time.Duration) time.Duration { return d },
	}
	for _, s := range searches {
		sc.searches[s.ID] = &searchRun{s: s, due: t0}
		sc.site(s.Site)
	}
	return sc
}

func jobIDs(jobs []job) []string {
	var ids []string
	for _, j := range jobs {
		ids = append(ids, j.searchID)
	}
	return ids
}

func TestPlanOnePollPerSiteDueFirstThenTheGap(t *testing.T) {
	sc := testSchedule(
		model.Search{ID: "b", Site: "one.example", URL: "https://one.example/b", Interval: time.Minute},
		model.Search{ID: "a", Site: "one.example", URL: "https://one.example/a", Interval: time.Minute},
		model.Search{ID: "c", Site: "two.example", URL: "https://two.example/c", Interval: time.Minute, CookieRef: "cookie:two.example"},
	)
	jobs, next := sc.plan(t0)
	if got := jobIDs(jobs); len(got) != 2 || got[0] != "a" || got[1] != "c" {
		t.Fatalf("first plan: jobs %v, want a (first by ID of the two due on one.example) and c", got)
	}
	if jobs[1].cookieRef != "cookie:two.example" || jobs[1].url != "https://two.example/c" {
		t.Fatalf("the job of c: %+v, want its URL and cookie setting", jobs[1])
	}
	if !next.Equal(t0.Add(maxSleep)) {
		t.Fatalf("next look %v, want %v (both sites busy)", next, t0.Add(maxSleep))
	}
	if jobs, _ := sc.plan(t0.Add(time.Second)); len(jobs) != 0 {
		t.Fatalf("with both sites' polls in flight the plan started %v, want none", jobIDs(jobs))
	}
	// a's poll finished at t0+1s: b waits for the site gap from a's start.
	sc.sites["one.example"].inFlight = false
	sc.searches["a"].checking = false
	sc.searches["a"].due = t0.Add(time.Minute)
	jobs, next = sc.planSites(t0.Add(time.Second), []string{"one.example"})
	if len(jobs) != 0 || !next.Equal(t0.Add(5*time.Second)) {
		t.Fatalf("1 s after a started: jobs %v, next %v; want none until the gap ends at +5 s", jobIDs(jobs), next)
	}
	if jobs, _ := sc.planSites(t0.Add(5*time.Second), []string{"one.example"}); len(jobs) != 1 || jobs[0].searchID != "b" {
		t.Fatalf("at the gap's end: jobs %v, want b", jobIDs(jobs))
	}
}

func TestPlanLeavesABackingOffSiteUntilItsWaitEnds(t *testing.T) {
	sc := testSchedule(model.Search{ID: "a", Site: "one.example", Interval: time.Minute})
	until := sc.reg.Record("one.example", model.RefusalRateLimited, 10*time.Minute, t0)
	jobs, next := sc.plan(t0)
	if len(jobs) != 0 || next.After(t0.Add(maxSleep)) {
		t.Fatalf("a rate-limited site: jobs %v, next %v; want none, and a look by %v at the latest", jobIDs(jobs), next, until)
	}
	if sc.sites["one.example"].planAt.IsZero() {
		t.Fatal("the site's wait is not remembered by the plan: every plan would ask the registry again")
	}
	jobs, _ = sc.plan(until.Add(time.Second))
	if len(jobs) != 1 || !jobs[0].probe {
		t.Fatalf("after the wait: jobs %+v, want one probe", jobs)
	}
}

func TestPlanSaysNothingWhileOfflineAndSkipsPausedAndAttention(t *testing.T) {
	sc := testSchedule(
		model.Search{ID: "a", Site: "one.example", Paused: true},
		model.Search{ID: "b", Site: "two.example"},
	)
	sc.searches["b"].attention = "session expired"
	if jobs, _ := sc.plan(t0); len(jobs) != 0 {
		t.Fatalf("a paused search and one that needs the user: jobs %v, want none", jobIDs(jobs))
	}
	sc.searches["b"].attention = ""
	sc.offline.until = t0.Add(20 * time.Second)
	if jobs, next := sc.plan(t0); len(jobs) != 0 || !next.Equal(sc.offline.until) {
		t.Fatalf("offline: jobs %v, next %v; want none until %v", jobIDs(jobs), next, sc.offline.until)
	}
}

func TestRestaggerSpreadsSearchesAfterASleep(t *testing.T) {
	sc := testSchedule(
		model.Search{ID: "a", Site: "one.example", Interval: time.Minute},
		model.Search{ID: "b", Site: "one.example", Interval: time.Minute},
		model.Search{ID: "c", Site: "one.example", Interval: time.Minute},
	)
	wake := t0.Add(3 * time.Hour) // the laptop slept
	sc.plan(wake)
	for i, id := range []string{"a", "b", "c"} {
		if want := wake.Add(time.Duration(i) * 5 * time.Second); !sc.searches[id].due.Equal(want) {
			t.Fatalf("after a 3-hour sleep %s is due %v, want %v (spread by the site gap)", id, sc.searches[id].due, want)
		}
	}
}
