package hostbackoff_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"notifio/hostbackoff"

	"notifio/internal/model"
)

const site = "example.de"

var searches = []string{"s1", "s2", "s3", "s4", "s5"}

// exact returns a registry without jitter: every wait is the ladder step.
func exact() *hostbackoff.Registry {
	return hostbackoff.NewRegistry(hostbackoff.Options{Ladders: policy, Random: fixed(0.5)})
}

func at(d time.Duration) time.Time { return now.Add(d) }

func wantDecision(t *testing.T, got hostbackoff.Decision, v hostbackoff.Verdict, until time.Time, reason string) {
	t.Helper()
	if got.Verdict != v || !got.Until.Equal(until) || (reason != "*" && got.Reason != reason) {
		t.Errorf("decision = {%s %s %q}, want {%s %s %q}", got.Verdict, got.Until.Format(time.TimeOnly), got.Reason,
			v, until.Format(time.TimeOnly), reason)
	}
}

func TestVerdictNames(t *testing.T) {
	for v, want := range map[hostbackoff.Verdict]string{
		hostbackoff.Allow: "allow", hostbackoff.Probe: "probe", hostbackoff.Wait: "wait", 0: "unknown",
	} {
		if got := v.String(); got != want {
			t.Errorf("Verdict(%d).String() = %q, want %q", int(v), got, want)
		}
	}
}

func TestAdmitWithoutEntryAllows(t *testing.T) {
	r := hostbackoff.NewRegistry(hostbackoff.Options{Ladders: policy})
	for _, id := range searches {
		wantDecision(t, r.Admit(site, id, now), hostbackoff.Allow, time.Time{}, "")
	}
	if _, ok := r.Soonest(); ok {
		t.Error("Soonest on an empty registry reported a site")
	}
	var zero hostbackoff.Registry // the zero value works too
	wantDecision(t, zero.Admit(site, "s1", now), hostbackoff.Allow, time.Time{}, "")
	zero.Record(site, model.RefusalError, 0, now)
	if _, ok := zero.Lookup(site); !ok {
		t.Error("zero Registry did not record")
	}
}

// Each refusal arrives when the previous wait ends, from the probe: the table is the
// ladder, and Admit agrees with Record at every step.
func TestRecordClimbsTheLadder(t *testing.T) {
	m := time.Minute
	for _, tc := range []struct {
		k     model.Refusal
		waits []time.Duration
	}{
		{model.RefusalChallenge, []time.Duration{1 * m, 3 * m, 8 * m, 15 * m, 30 * m, 30 * m, 30 * m}},
		{model.RefusalRateLimited, []time.Duration{2 * m, 5 * m, 15 * m, 30 * m, 30 * m}},
		{model.RefusalDenied, []time.Duration{5 * m, 15 * m, 30 * m, 60 * m, 60 * m}},
		{model.RefusalError, []time.Duration{30 * time.Second, 2 * m, 5 * m, 5 * m}},
	} {
		t.Run(tc.k.String(), func(t *testing.T) {
			r := exact()
			clock := now
			for i, w := range tc.waits {
				if i > 0 {
					wantDecision(t, r.Admit(site, "s1", clock), hostbackoff.Probe, clock.Add(hostbackoff.ProbeTimeout), "*")
				}
				next := r.Record(site, tc.k, 0, clock)
				if want := clock.Add(w); !next.Equal(want) {
					t.Fatalf("refusal %d: next = %v, want +%v", i+1, next.Sub(clock), w)
				}
				e, _ := r.Lookup(site)
				if e.Kind != tc.k || e.Failures != i+1 || policy.Rung(e) != min(i+1, len(policy[tc.k])) {
					t.Fatalf("refusal %d: entry %+v rung %d", i+1, e, policy.Rung(e))
				}
				reason := fmt.Sprintf("backing off after %s (rung %d of %d)", tc.k, policy.Rung(e), len(policy[tc.k]))
				for _, id := range searches {
					wantDecision(t, r.Admit(site, id, clock.Add(w-time.Nanosecond)), hostbackoff.Wait, next, reason)
				}
				if s, ok := r.Soonest(); !ok || !s.Equal(next) {
					t.Fatalf("Soonest = %v, %v; want %v", s, ok, next)
				}
				clock = next
			}
		})
	}
}

func TestKindChangeStartsItsOwnLadder(t *testing.T) {
	r := exact()
	r.Record(site, model.RefusalChallenge, 0, at(0))
	r.Record(site, model.RefusalChallenge, 0, at(1*time.Minute))
	if next := r.Record(site, model.RefusalChallenge, 0, at(4*time.Minute)); !next.Equal(at(12 * time.Minute)) {
		t.Fatalf("third challenge: next = %v", next)
	}
	// A network blip is not punished with the wait earned by three challenges.
	if next := r.Record(site, model.RefusalError, 0, at(12*time.Minute)); !next.Equal(at(12*time.Minute + 30*time.Second)) {
		t.Fatalf("error after challenges: next = %v, want rung 1 (30s)", next.Sub(at(12*time.Minute)))
	}
	e, _ := r.Lookup(site)
	if e.Kind != model.RefusalError || e.Failures != 1 || policy.Rung(e) != 1 {
		t.Fatalf("after kind change: %+v", e)
	}
	// And back to challenge: its ladder starts again at rung 1.
	if next := r.Record(site, model.RefusalChallenge, 0, at(13*time.Minute)); !next.Equal(at(14 * time.Minute)) {
		t.Fatalf("challenge after error: next = %v, want rung 1 (1m)", next.Sub(at(13*time.Minute)))
	}
	// A kind outside the four is recorded as error.
	r.Record("other.de", model.Refusal(42), 0, now)
	if e, _ := r.Lookup("other.de"); e.Kind != model.RefusalError {
		t.Errorf("Kind(42) recorded as %s", e.Kind)
	}
}

func TestRecordHonoursRetryAfter(t *testing.T) {
	r := exact()
	next := r.Record(site, model.RefusalRateLimited, 10*time.Minute, now)
	if !next.Equal(at(10 * time.Minute)) {
		t.Fatalf("next = +%v, want +10m", next.Sub(now))
	}
	e, _ := r.Lookup(site)
	if e.RetryAfter != 10*time.Minute {
		t.Errorf("RetryAfter = %v", e.RetryAfter)
	}
	wantDecision(t, r.Admit(site, "s1", now), hostbackoff.Wait, next,
		"backing off after rate_limited (rung 1 of 4, Retry-After 10m0s)")
	// Shorter than the ladder: the ladder wins.
	if next := r.Record(site, model.RefusalRateLimited, time.Minute, at(10*time.Minute)); !next.Equal(at(15 * time.Minute)) {
		t.Errorf("short Retry-After: next = +%v, want +5m", next.Sub(at(10*time.Minute)))
	}
	// Huge: capped at an hour. Negative: ignored.
	if next := r.Record(site, model.RefusalRateLimited, 1000*time.Hour, at(15*time.Minute)); !next.Equal(at(75 * time.Minute)) {
		t.Errorf("huge Retry-After: next = +%v, want +1h", next.Sub(at(15*time.Minute)))
	}
	if next := r.Record("b.de", model.RefusalError, -time.Hour, now); !next.Equal(at(30 * time.Second)) {
		t.Errorf("negative Retry-After: next = +%v", next.Sub(now))
	}
	if e, _ := r.Lookup("b.de"); e.RetryAfter != 0 {
		t.Errorf("negative Retry-After stored as %v", e.RetryAfter)
	}
}

func TestProbeExclusivityFiveSearches(t *testing.T) {
	r := exact()
	next := r.Record(site, model.RefusalChallenge, 0, now) // +1m
	expiry := next.Add(hostbackoff.ProbeTimeout)

	// While waiting, nobody goes.
	for _, id := range searches {
		wantDecision(t, r.Admit(site, id, next.Add(-time.Second)), hostbackoff.Wait, next, "*")
	}
	// The wait ends: s3 happens to ask first and is the one probe.
	wantDecision(t, r.Admit(site, "s3", next), hostbackoff.Probe, expiry, "probe after challenge (rung 1 of 5)")
	for _, id := range searches {
		if id == "s3" {
			continue
		}
		for _, d := range []time.Duration{0, time.Second, 90 * time.Second} {
			wantDecision(t, r.Admit(site, id, next.Add(d)), hostbackoff.Wait, expiry, hostbackoff.ReasonWaitingForProbe)
		}
	}
	// The probe asking again keeps the probe, with the same expiry.
	wantDecision(t, r.Admit(site, "s3", next.Add(10*time.Second)), hostbackoff.Probe, expiry, "*")
	if e, _ := r.Lookup(site); !e.Probing(next) || e.ProbeSearch != "s3" || !e.ProbeStarted.Equal(next) {
		t.Errorf("entry while probing: %+v", e)
	}
	if s, _ := r.Soonest(); !s.Equal(expiry) {
		t.Errorf("Soonest while probing = %v, want the probe's expiry", s)
	}

	// The probe is refused: the site climbs a rung and everybody waits again.
	next2 := r.Record(site, model.RefusalChallenge, 0, next.Add(3*time.Second))
	if want := next.Add(3*time.Second + 3*time.Minute); !next2.Equal(want) {
		t.Fatalf("after refused probe: next = %v, want %v", next2, want)
	}
	for _, id := range searches {
		wantDecision(t, r.Admit(site, id, next.Add(4*time.Second)), hostbackoff.Wait, next2, "backing off after challenge (rung 2 of 5)")
	}
	// The next probe goes to whoever asks first, s1 this time; it succeeds.
	wantDecision(t, r.Admit(site, "s1", next2), hostbackoff.Probe, next2.Add(hostbackoff.ProbeTimeout), "*")
	wantDecision(t, r.Admit(site, "s2", next2), hostbackoff.Wait, next2.Add(hostbackoff.ProbeTimeout), hostbackoff.ReasonWaitingForProbe)
	r.Success(site, next2.Add(2*time.Second))
	for _, id := range searches {
		wantDecision(t, r.Admit(site, id, next2.Add(3*time.Second)), hostbackoff.Allow, time.Time{}, "")
	}
	if _, ok := r.Lookup(site); ok {
		t.Error("Success left an entry")
	}
	// A refusal after success starts at rung 1.
	if n := r.Record(site, model.RefusalChallenge, 0, next2.Add(time.Hour)); !n.Equal(next2.Add(time.Hour + time.Minute)) {
		t.Errorf("after success: next = %v", n)
	}
}

func TestProbeExpiry(t *testing.T) {
	r := exact()
	due := r.Record(site, model.RefusalError, 0, now) // +30s
	wantDecision(t, r.Admit(site, "s1", due), hostbackoff.Probe, due.Add(2*time.Minute), "*")
	// s1 never reports back.
	wantDecision(t, r.Admit(site, "s2", due.Add(2*time.Minute-time.Nanosecond)), hostbackoff.Wait, due.Add(2*time.Minute), hostbackoff.ReasonWaitingForProbe)
	if e, _ := r.Lookup(site); !e.Probing(due.Add(2*time.Minute-time.Nanosecond)) || e.Probing(due.Add(2*time.Minute)) {
		t.Error("Probing does not end exactly two minutes after the probe began")
	}
	// Two minutes without an outcome: the next caller probes.
	second := due.Add(2 * time.Minute)
	wantDecision(t, r.Admit(site, "s2", second), hostbackoff.Probe, second.Add(2*time.Minute), "*")
	// The stale prober is now a sibling like any other.
	wantDecision(t, r.Admit(site, "s1", second.Add(time.Second)), hostbackoff.Wait, second.Add(2*time.Minute), hostbackoff.ReasonWaitingForProbe)
	// The stale probe's late outcome still counts: it is a fact about the site.
	r.Record(site, model.RefusalError, 0, second.Add(5*time.Second))
	if e, _ := r.Lookup(site); e.Failures != 2 || e.ProbeSearch != "" {
		t.Errorf("after late refusal: %+v", e)
	}
}

func TestSoonestAcrossSites(t *testing.T) {
	r := exact()
	r.Record("a.de", model.RefusalDenied, 0, now)      // +5m
	r.Record("b.de", model.RefusalError, 0, now)       // +30s
	r.Record("c.de", model.RefusalRateLimited, 0, now) // +2m
	if s, ok := r.Soonest(); !ok || !s.Equal(at(30*time.Second)) {
		t.Fatalf("Soonest = %v, %v", s, ok)
	}
	r.Admit("b.de", "s1", at(30*time.Second)) // b.de is probing until +2m30s
	if s, _ := r.Soonest(); !s.Equal(at(2 * time.Minute)) {
		t.Fatalf("Soonest with b.de probing = +%v, want c.de's +2m", s.Sub(now))
	}
	r.Success("c.de", at(time.Minute))
	if s, _ := r.Soonest(); !s.Equal(at(2*time.Minute + 30*time.Second)) {
		t.Fatalf("Soonest = +%v, want b.de's probe expiry +2m30s", s.Sub(now))
	}
	r.Forget("b.de")
	if s, _ := r.Soonest(); !s.Equal(at(5 * time.Minute)) {
		t.Fatalf("Soonest = +%v, want +5m", s.Sub(now))
	}
	if got := strings.Join(r.Sites(), ","); got != "a.de" {
		t.Errorf("Sites = %s", got)
	}
}

func TestLookupReturnsACopy(t *testing.T) {
	r := exact()
	r.Record(site, model.RefusalChallenge, 0, now)
	e, ok := r.Lookup(site)
	if !ok {
		t.Fatal("no entry")
	}
	e.Failures = 99
	e.NextRetry = time.Time{}
	if e2, _ := r.Lookup(site); e2.Failures != 1 || !e2.NextRetry.Equal(at(time.Minute)) {
		t.Errorf("Lookup's copy changed the registry: %+v", e2)
	}
	if _, ok := r.Lookup("nowhere.de"); ok {
		t.Error("Lookup found a site that never refused")
	}
}

func TestProbeNow(t *testing.T) {
	r := exact()
	clock := now
	for range 3 { // challenge rung 3: an 8m wait, but the user may probe after a minute
		clock = r.Record(site, model.RefusalChallenge, 0, clock)
	}
	refused := now.Add(time.Minute + 3*time.Minute) // the third refusal's instant
	e, _ := r.Lookup(site)
	wantAllowed := refused.Add(time.Minute)
	if !policy.ManualProbeAt(e).Equal(wantAllowed) {
		t.Fatalf("ManualProbeAt = %v, want %v", policy.ManualProbeAt(e), wantAllowed)
	}

	when, err := r.ProbeNow(site, refused.Add(30*time.Second))
	if !errors.Is(err, hostbackoff.ErrTooEarly) || !when.Equal(wantAllowed) {
		t.Fatalf("ProbeNow too early = %v, %v; want %v, ErrTooEarly", when, err, wantAllowed)
	}
	if e2, _ := r.Lookup(site); !e2.NextRetry.Equal(e.NextRetry) {
		t.Fatal("a refused ProbeNow changed the wait")
	}
	when, err = r.ProbeNow(site, wantAllowed.Add(-time.Nanosecond))
	if !errors.Is(err, hostbackoff.ErrTooEarly) || !when.Equal(wantAllowed) {
		t.Fatalf("ProbeNow a moment too early = %v, %v", when, err)
	}

	when, err = r.ProbeNow(site, wantAllowed)
	if err != nil || !when.Equal(wantAllowed) {
		t.Fatalf("ProbeNow when allowed = %v, %v", when, err)
	}
	wantDecision(t, r.Admit(site, "s4", wantAllowed), hostbackoff.Probe, wantAllowed.Add(hostbackoff.ProbeTimeout), "*")
	wantDecision(t, r.Admit(site, "s5", wantAllowed), hostbackoff.Wait, wantAllowed.Add(hostbackoff.ProbeTimeout), hostbackoff.ReasonWaitingForProbe)
	// With the probe in flight, ProbeNow changes nothing.
	if when, err := r.ProbeNow(site, wantAllowed.Add(time.Second)); err != nil || !when.Equal(wantAllowed.Add(time.Second)) {
		t.Fatalf("ProbeNow while probing = %v, %v", when, err)
	}
	wantDecision(t, r.Admit(site, "s5", wantAllowed.Add(time.Second)), hostbackoff.Wait, wantAllowed.Add(hostbackoff.ProbeTimeout), hostbackoff.ReasonWaitingForProbe)
	// The ladder was not reset: still challenged means rung 4.
	r.Record(site, model.RefusalChallenge, 0, wantAllowed.Add(2*time.Second))
	if e, _ := r.Lookup(site); policy.Rung(e) != 4 {
		t.Errorf("after manual probe refused: rung %d, want 4", policy.Rung(e))
	}
	// At most one manual probe a minute: the refused probe starts the next minute.
	again := wantAllowed.Add(2 * time.Second)
	if when, err := r.ProbeNow(site, again.Add(30*time.Second)); !errors.Is(err, hostbackoff.ErrTooEarly) || !when.Equal(again.Add(time.Minute)) {
		t.Errorf("a second manual probe within the minute = %v, %v; want ErrTooEarly until %v", when, err, again.Add(time.Minute))
	}
	if _, err := r.ProbeNow(site, again.Add(time.Minute)); err != nil {
		t.Errorf("a manual probe a minute after the refused one: %v", err)
	}

	// No entry: nothing to wait for.
	if when, err := r.ProbeNow("fine.de", now); err != nil || !when.Equal(now) {
		t.Errorf("ProbeNow without entry = %v, %v", when, err)
	}
	// The minimum ignores Retry-After and jitter: error rung 1 with Retry-After 50m
	// may be probed by hand after 25.5 s.
	r.Record("ra.de", model.RefusalError, 50*time.Minute, now)
	if when, err := r.ProbeNow("ra.de", at(25*time.Second)); !errors.Is(err, hostbackoff.ErrTooEarly) || !when.Equal(at(25500*time.Millisecond)) {
		t.Errorf("ProbeNow early on error rung 1 = %v, %v", when, err)
	}
	if _, err := r.ProbeNow("ra.de", at(26*time.Second)); err != nil {
		t.Errorf("ProbeNow on error rung 1 after 26s: %v", err)
	}
	wantDecision(t, r.Admit("ra.de", "s1", at(26*time.Second)), hostbackoff.Probe, at(26*time.Second+hostbackoff.ProbeTimeout), "*")
}

func TestSnapshotJSONRoundTrip(t *testing.T) {
	r := exact()
	r.Record("b.de", model.RefusalRateLimited, 10*time.Minute, now)
	r.Record("a.de", model.RefusalChallenge, 0, now)
	r.Record("a.de", model.RefusalChallenge, 0, at(time.Minute))
	r.Admit("a.de", "s2", at(4*time.Minute))

	snap := r.Snapshot()
	if len(snap) != 2 || snap[0].Site != "a.de" || snap[1].Site != "b.de" {
		t.Fatalf("Snapshot not sorted by site: %+v", snap)
	}
	raw, err := json.Marshal(snap)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"site":"a.de","kind":"challenge","failures":2,"next_retry":"2026-03-02T12:04:00Z",` +
		`"probe_search":"s2","probe_started":"2026-03-02T12:04:00Z","last_refusal":"2026-03-02T12:01:00Z"},` +
		`{"site":"b.de","kind":"rate_limited","failures":1,"next_retry":"2026-03-02T12:10:00Z",` +
		`"retry_after_ns":600000000000,"last_refusal":"2026-03-02T12:00:00Z"}]`
	if string(raw) != want {
		t.Errorf("JSON:\n got %s\nwant %s", raw, want)
	}

	var back []hostbackoff.Entry
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	r2 := hostbackoff.NewRegistry(hostbackoff.Options{Ladders: policy})
	r2.Restore(back, at(4*time.Minute+30*time.Second))
	got := r2.Snapshot()
	if len(got) != len(snap) {
		t.Fatalf("restored %d entries, want %d", len(got), len(snap))
	}
	for i := range got {
		if got[i] != snap[i] {
			t.Errorf("restored %+v, want %+v", got[i], snap[i])
		}
	}
	// The restored fresh probe still holds its siblings back.
	wantDecision(t, r2.Admit("a.de", "s1", at(5*time.Minute)), hostbackoff.Wait, at(6*time.Minute), hostbackoff.ReasonWaitingForProbe)

	// A kind written by a newer Notifio loads as error and keeps its wait.
	var future []hostbackoff.Entry
	if err := json.Unmarshal([]byte(`[{"site":"x.de","kind":"geo_blocked","failures":3,"next_retry":"2026-03-02T12:20:00Z"}]`), &future); err != nil {
		t.Fatalf("unknown kind name: %v", err)
	}
	r2.Restore(future, now)
	if e, ok := r2.Lookup("x.de"); !ok || e.Kind != model.RefusalError || !e.NextRetry.Equal(at(20*time.Minute)) {
		t.Errorf("unknown kind restored as %+v, %v", e, ok)
	}
	if _, err := json.Marshal(hostbackoff.Entry{Site: "x", Kind: 0}); err == nil {
		t.Error("encoding the zero Kind did not fail")
	}
}

func TestRestoreRepairs(t *testing.T) {
	m := time.Minute
	entries := []hostbackoff.Entry{
		// The clock moved back a day: the wait would be 25 h from now.
		{Site: "clock.de", Kind: model.RefusalDenied, Failures: 4, NextRetry: at(25 * time.Hour), LastRefusal: at(24 * time.Hour)},
		// Exactly MaxWait away: kept as it is.
		{Site: "edge.de", Kind: model.RefusalDenied, Failures: 4, NextRetry: at(time.Hour), LastRefusal: now},
		// A wait already over is not forgotten: the count still matters.
		{Site: "past.de", Kind: model.RefusalChallenge, Failures: 3, NextRetry: at(-10 * m), LastRefusal: at(-18 * m)},
		// Probes: one fresh, one from the future, one expired, one without a search.
		{Site: "fresh.de", Kind: model.RefusalError, Failures: 1, NextRetry: at(-m), ProbeSearch: "s1", ProbeStarted: at(-30 * time.Second)},
		{Site: "ahead.de", Kind: model.RefusalError, Failures: 1, NextRetry: at(-m), ProbeSearch: "s1", ProbeStarted: at(time.Hour)},
		{Site: "stale.de", Kind: model.RefusalError, Failures: 1, NextRetry: at(-5 * m), ProbeSearch: "s1", ProbeStarted: at(-2 * m)},
		{Site: "nosearch.de", Kind: model.RefusalError, Failures: 1, NextRetry: at(-m), ProbeStarted: at(-10 * time.Second)},
		// Odd values.
		{Site: "odd.de", Kind: model.Refusal(0), Failures: -4, RetryAfter: -time.Minute, NextRetry: at(m)},
		{Site: "", Kind: model.RefusalDenied, Failures: 1, NextRetry: at(m)},
		// Two entries for one site: the later wait wins, in either order.
		{Site: "dup.de", Kind: model.RefusalChallenge, Failures: 1, NextRetry: at(m)},
		{Site: "dup.de", Kind: model.RefusalDenied, Failures: 2, NextRetry: at(15 * m)},
		{Site: "dup.de", Kind: model.RefusalError, Failures: 1, NextRetry: at(30 * time.Second)},
	}
	r := exact()
	r.Record("gone.de", model.RefusalDenied, 0, now) // Restore replaces the state
	r.Restore(entries, now)

	get := func(s string) hostbackoff.Entry {
		t.Helper()
		e, ok := r.Lookup(s)
		if !ok {
			t.Fatalf("%s forgotten", s)
		}
		return e
	}
	if got := strings.Join(r.Sites(), " "); got != "ahead.de clock.de dup.de edge.de fresh.de nosearch.de odd.de past.de stale.de" {
		t.Errorf("Sites = %s", got)
	}
	if e := get("clock.de"); !e.NextRetry.Equal(at(time.Hour)) || !e.LastRefusal.Equal(now) || e.Failures != 4 {
		t.Errorf("clock.de = %+v, want the wait clamped to now+1h and last refusal to now", e)
	}
	if e := get("edge.de"); !e.NextRetry.Equal(at(time.Hour)) {
		t.Errorf("edge.de = %+v", e)
	}
	if e := get("past.de"); !e.NextRetry.Equal(at(-10*m)) || e.Failures != 3 {
		t.Errorf("past.de = %+v", e)
	}
	wantDecision(t, r.Admit("past.de", "s1", now), hostbackoff.Probe, at(hostbackoff.ProbeTimeout), "probe after challenge (rung 3 of 5)")
	if next := r.Record("past.de", model.RefusalChallenge, 0, now); !next.Equal(at(15 * m)) {
		t.Errorf("past.de refused again: next = +%v, want rung 4 (15m)", next.Sub(now))
	}

	if e := get("fresh.de"); e.ProbeSearch != "s1" {
		t.Errorf("fresh probe dropped: %+v", e)
	}
	wantDecision(t, r.Admit("fresh.de", "s2", now), hostbackoff.Wait, at(90*time.Second), hostbackoff.ReasonWaitingForProbe)
	for _, s := range []string{"ahead.de", "stale.de", "nosearch.de"} {
		if e := get(s); e.ProbeSearch != "" || !e.ProbeStarted.IsZero() {
			t.Errorf("%s kept a stale probe: %+v", s, e)
		}
		wantDecision(t, r.Admit(s, "s2", now), hostbackoff.Probe, at(hostbackoff.ProbeTimeout), "*")
	}
	if e := get("odd.de"); e.Kind != model.RefusalError || e.Failures != 1 || e.RetryAfter != 0 {
		t.Errorf("odd.de = %+v", e)
	}
	if e := get("dup.de"); e.Kind != model.RefusalDenied || !e.NextRetry.Equal(at(15*m)) {
		t.Errorf("dup.de = %+v, want the 15m denied entry", e)
	}
	// Restoring nothing empties the registry.
	r.Restore(nil, now)
	if len(r.Snapshot()) != 0 {
		t.Error("Restore(nil) kept entries")
	}
}

// Twenty searches race for one site whose wait has just ended: exactly one probes.
// The rest of the API runs alongside, for the race detector.
func TestConcurrentUse(t *testing.T) {
	r := hostbackoff.NewRegistry(hostbackoff.Options{Ladders: policy})
	for round := range 50 {
		start := at(time.Duration(round) * 2 * time.Hour)
		due := r.Record(site, model.RefusalChallenge, 0, start)
		var (
			wg     sync.WaitGroup
			mu     sync.Mutex
			probes []string
		)
		for i := range 20 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				id := fmt.Sprintf("s%d", i)
				if d := r.Admit(site, id, due); d.Verdict == hostbackoff.Probe {
					mu.Lock()
					probes = append(probes, id)
					mu.Unlock()
				}
				other := fmt.Sprintf("site%d.de", i%4)
				r.Record(other, model.Refusal(i%4+1), time.Duration(i)*time.Second, start)
				r.Admit(other, id, start.Add(time.Hour))
				r.Soonest()
				r.Lookup(other)
				r.Snapshot()
				r.Sites()
				_, _ = r.ProbeNow(other, start.Add(time.Hour))
				if i%5 == 0 {
					r.Success(other, start)
				}
			}()
		}
		wg.Wait()
		if len(probes) != 1 {
			t.Fatalf("round %d: %d probes (%v), want exactly one", round, len(probes), probes)
		}
		snap := r.Snapshot()
		var wg2 sync.WaitGroup
		for range 4 {
			wg2.Add(1)
			go func() { defer wg2.Done(); r.Restore(snap, start) }()
		}
		wg2.Wait()
		r.Success(site, due)
	}
}

// The ladders are the registry's settings: a registry given other ladders
// waits by them, and its reasons count their rungs.
func TestRegistryWaitsByTheLaddersItIsGiven(t *testing.T) {
	ladders := hostbackoff.Ladders{model.RefusalRateLimited: {7 * time.Minute, 40 * time.Minute}}
	r := hostbackoff.NewRegistry(hostbackoff.Options{Ladders: ladders, Random: func() float64 { return 0.5 }})
	now := time.Date(2026, 7, 14, 12, 0, 0, 0, time.UTC)
	for i, want := range []time.Duration{7 * time.Minute, 40 * time.Minute, 40 * time.Minute} {
		if got := r.Record(site, model.RefusalRateLimited, 0, now).Sub(now); got != want {
			t.Fatalf("refusal %d: wait %v, want %v (the given ladder, jitter 1.0)", i+1, got, want)
		}
	}
	e, _ := r.Lookup(site)
	if ladders.Rung(e) != 2 || ladders.Step(e) != 40*time.Minute {
		t.Errorf("entry %+v: rung %d step %v, want the given ladder's ceiling", e, ladders.Rung(e), ladders.Step(e))
	}
	if d := r.Admit(site, "s1", now); !strings.Contains(d.Reason, "rung 2 of 2") {
		t.Errorf("reason %q, want it to count the given ladder's rungs", d.Reason)
	}
}
