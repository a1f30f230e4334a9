package hostbackoff_test

import (
	"testing"
	"time"

	"pgregory.net/rapid"

	"notifio/hostbackoff"

	"notifio/internal/model"
)

type probeHold struct {
	search string
	start  time.Time
}

// Random sequences of refusals, successes, admissions, manual probes, restores and
// clock movements on two sites never break the policy's promises.
func TestRegistryInvariants(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := hostbackoff.NewRegistry(hostbackoff.Options{Ladders: policy, Random: func() float64 { return 0.37 }})
		clock := now
		sites := []string{"a.de", "b.de"}
		ids := []string{"s1", "s2", "s3", "s4", "s5"}
		probe := map[string]*probeHold{} // the probe the model believes is live

		t.Repeat(map[string]func(*rapid.T){
			"tick": func(t *rapid.T) {
				clock = clock.Add(time.Duration(rapid.Int64Range(0, int64(20*time.Minute)).Draw(t, "dt")))
			},
			"record": func(t *rapid.T) {
				s := rapid.SampledFrom(sites).Draw(t, "site")
				k := rapid.SampledFrom(model.Refusals()).Draw(t, "kind")
				ra := time.Duration(rapid.Int64Range(-int64(time.Hour), int64(3*time.Hour)).Draw(t, "retryAfter"))
				prev, had := r.Lookup(s)
				next := r.Record(s, k, ra, clock)
				e, _ := r.Lookup(s)
				if next.Before(clock) || next.After(clock.Add(hostbackoff.MaxWait)) || !next.Equal(e.NextRetry) {
					t.Fatalf("Record returned %v at %v (entry %v)", next, clock, e.NextRetry)
				}
				wantFailures := 1
				if had && prev.Kind == k {
					wantFailures = prev.Failures + 1
				}
				if e.Failures != wantFailures || e.Kind != k {
					t.Fatalf("after %s: %+v, want failures %d", k, e, wantFailures)
				}
				if min := e.LastRefusal.Add(policy.Step(e) * 85 / 100); next.Before(min) {
					t.Fatalf("wait %v shorter than the rung minimum %v", next.Sub(clock), min.Sub(clock))
				}
				delete(probe, s)
			},
			"success": func(t *rapid.T) {
				s := rapid.SampledFrom(sites).Draw(t, "site")
				r.Success(s, clock)
				delete(probe, s)
			},
			"admit": func(t *rapid.T) {
				s := rapid.SampledFrom(sites).Draw(t, "site")
				id := rapid.SampledFrom(ids).Draw(t, "search")
				e, had := r.Lookup(s)
				d := r.Admit(s, id, clock)
				switch d.Verdict {
				case hostbackoff.Allow:
					if had {
						t.Fatalf("Allow for a site with an entry: %+v", e)
					}
				case hostbackoff.Wait:
					if !had || !d.Until.After(clock) {
						t.Fatalf("Wait %+v at %v (entry %v)", d, clock, had)
					}
				case hostbackoff.Probe:
					if !had || clock.Before(e.NextRetry) {
						t.Fatalf("Probe before the wait ended: %+v at %v", e, clock)
					}
					if p := probe[s]; p != nil && p.search != id && clock.Before(p.start.Add(hostbackoff.ProbeTimeout)) {
						t.Fatalf("%s probes while %s's probe from %v is live", id, p.search, p.start)
					}
					if p := probe[s]; p == nil || p.search != id || !clock.Before(p.start.Add(hostbackoff.ProbeTimeout)) {
						probe[s] = &probeHold{id, clock}
					}
				default:
					t.Fatalf("verdict %v", d.Verdict)
				}
			},
			"probeNow": func(t *rapid.T) {
				s := rapid.SampledFrom(sites).Draw(t, "site")
				e, had := r.Lookup(s)
				when, err := r.ProbeNow(s, clock)
				if err != nil && (!had || !when.After(clock) || !when.Equal(policy.ManualProbeAt(e))) {
					t.Fatalf("ProbeNow = %v, %v at %v for %+v", when, err, clock, e)
				}
				if err == nil {
					if e2, ok := r.Lookup(s); ok && e2.NextRetry.After(clock) {
						t.Fatalf("ProbeNow allowed but the site still waits until %v", e2.NextRetry)
					}
				}
			},
			"restore": func(t *rapid.T) {
				shift := time.Duration(rapid.Int64Range(-int64(3*time.Hour), int64(time.Minute)).Draw(t, "clockShift"))
				before := r.Snapshot()
				clock = clock.Add(shift) // a restart, perhaps with the clock moved back
				r.Restore(before, clock)
				if got := len(r.Snapshot()); got != len(before) {
					t.Fatalf("Restore kept %d of %d entries", got, len(before))
				}
				for s, p := range probe {
					if e, _ := r.Lookup(s); e.ProbeSearch != p.search {
						delete(probe, s) // dropped as stale
					}
				}
			},
			"": func(t *rapid.T) {
				soonest, ok := r.Soonest()
				snap := r.Snapshot()
				if ok != (len(snap) > 0) {
					t.Fatalf("Soonest ok=%v with %d entries", ok, len(snap))
				}
				for _, e := range snap {
					if ok && soonest.After(e.NextRetry) && e.ProbeSearch == "" {
						t.Fatalf("Soonest %v after %s's next retry %v", soonest, e.Site, e.NextRetry)
					}
					if e.Failures < 1 || policy.Rung(e) < 1 || policy.Rung(e) > len(policy[e.Kind]) {
						t.Fatalf("bad entry %+v", e)
					}
					if e.NextRetry.After(clock.Add(hostbackoff.MaxWait)) {
						t.Fatalf("%s waits until %v, more than MaxWait after %v", e.Site, e.NextRetry, clock)
					}
				}
			},
		})
	})
}
