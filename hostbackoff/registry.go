package hostbackoff

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"notifio/internal/model"
)

// ProbeTimeout is how long a probe may go without an outcome (Success or Record)
// before it expires and the next caller may probe instead.
const ProbeTimeout = 2 * time.Minute

// ReasonWaitingForProbe is the Decision.Reason a search gets while a sibling on the
// same site is the probe.
const ReasonWaitingForProbe = "waiting for the probe"

// maxFailures bounds the stored refusal count so it can never overflow; it is far
// past the last rung of every ladder.
const maxFailures = 1 << 20

// ErrTooEarly is returned by Registry.ProbeNow when the current rung's minimum wait
// since the last refusal has not yet passed.
var ErrTooEarly = errors.New("hostbackoff: too early to probe this site again")

// Verdict is what Admit tells a search.
type Verdict int

// The verdicts. The zero Verdict is none of them.
const (
	// Allow: the site has no backoff entry; go ahead.
	Allow Verdict = iota + 1
	// Probe: the site's wait has ended and this search is its single probe. Report
	// the outcome with Success or Record.
	Probe
	// Wait: do not request the site before Decision.Until.
	Wait
)

// String returns allow, probe or wait.
func (v Verdict) String() string {
	switch v {
	case Allow:
		return "allow"
	case Probe:
		return "probe"
	case Wait:
		return "wait"
	}
	return "unknown"
}

// Decision is Admit's answer for one search.
type Decision struct {
	Verdict Verdict
	// Until is, for Wait, when to ask again: the site's next-retry time, or when
	// the current probe expires. For Probe it is when this probe expires. Zero for
	// Allow.
	Until time.Time
	// Reason says why, in a short phrase for logs and status lines; empty for Allow.
	Reason string
}

// Entry is one site's backoff state, as Snapshot and Lookup report it and Restore
// takes it back. It is persisted as JSON.
type Entry struct {
	// Site is the registry key, normally SiteOf(host).
	Site string `json:"site"`
	// Kind is the kind of the latest refusal; it is written by name.
	Kind model.Refusal `json:"kind"`
	// Failures counts consecutive refusals of Kind; the rung is Ladders.Rung.
	Failures int `json:"failures"`
	// NextRetry is when the site may be tried again (by one probe).
	NextRetry time.Time `json:"next_retry"`
	// RetryAfter is the Retry-After that came with the latest refusal, 0 if none
	// (in JSON: nanoseconds).
	RetryAfter time.Duration `json:"retry_after_ns,omitzero"`
	// ProbeSearch is the search currently probing the site, "" if none.
	ProbeSearch string `json:"probe_search,omitzero"`
	// ProbeStarted is when ProbeSearch was admitted as the probe.
	ProbeStarted time.Time `json:"probe_started,omitzero"`
	// LastRefusal is when the latest refusal was recorded.
	LastRefusal time.Time `json:"last_refusal,omitzero"`
}

// Probing reports whether a probe is in flight at now (admitted, not expired).
func (e Entry) Probing(now time.Time) bool {
	return e.ProbeSearch != "" && !e.ProbeStarted.After(now) && now.Before(e.ProbeStarted.Add(ProbeTimeout))
}

// ManualProbeGap is how soon after a challenge the user's "I solved it" may
// send a probe: at once, but at most one a minute per site (each probe that is
// refused is a refusal, and its instant starts the next minute).
const ManualProbeGap = time.Minute

// Registry holds the backoff state of every site that has refused recently.
// Its ladders and jitter are given to NewRegistry.
//
// A Registry is safe for simultaneous use by multiple goroutines.
type Registry struct {
	mu      sync.Mutex
	ladders Ladders
	random  func() float64 // called only with mu held; nil means math/rand/v2
	sites   map[string]*Entry
}

// Options are a registry's settings.
type Options struct {
	// Ladders are the waits after consecutive refusals of each kind
	// (model.DefaultLadders is the policy).
	Ladders Ladders
	// Random is the jitter's source (values in [0, 1)), e.g. a seeded
	// *rand.Rand's Float64 for deterministic tests. It is only called with
	// the registry's lock held, so it need not be safe for concurrent use.
	// nil means math/rand/v2.
	Random func() float64
}

// NewRegistry returns an empty registry with the given settings.
func NewRegistry(o Options) *Registry { return &Registry{ladders: o.Ladders, random: o.Random} }

// entry returns the site's live entry, or nil. Callers hold mu.
func (r *Registry) entry(site string) *Entry { return r.sites[site] }

// Record counts a refusal of kind k from site at now and returns when the site may
// be tried again. A refusal of the same kind as the last one climbs a rung; a
// different kind starts that kind's ladder at rung 1. The wait is DelayFor with the
// registry's jitter and retryAfter (0 if the response had none), measured from now.
// Record is also the outcome of a probe in flight: it ends the probe. A kind
// outside the four is recorded as Error.
//
// Do not call Record for failures that mean this machine is offline; see the
// package documentation.
func (r *Registry) Record(site string, k model.Refusal, retryAfter time.Duration, now time.Time) time.Time {
	if !k.Valid() {
		k = model.RefusalError
	}
	retryAfter = max(retryAfter, 0)
	r.mu.Lock()
	defer r.mu.Unlock()
	e := r.entry(site)
	if e == nil {
		if r.sites == nil {
			r.sites = make(map[string]*Entry)
		}
		e = &Entry{Site: site}
		r.sites[site] = e
	}
	if e.Kind == k && e.Failures >= 1 {
		e.Failures = min(e.Failures+1, maxFailures)
	} else {
		e.Kind, e.Failures = k, 1
	}
	e.NextRetry = now.Add(r.ladders.DelayFor(k, e.Failures, retryAfter, r.random))
	e.RetryAfter = retryAfter
	e.LastRefusal = now
	e.ProbeSearch, e.ProbeStarted = "", time.Time{}
	return e.NextRetry
}

// Success clears the site: it answered normally, so every search on it is allowed
// again and the next refusal starts at rung 1. It is also the outcome of a probe.
// Spacing out the released searches is the scheduler's job.
func (r *Registry) Success(site string, now time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.sites, site)
}

// Forget drops the site's entry without it having answered, e.g. when the user
// removes the last search on it.
func (r *Registry) Forget(site string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.sites, site)
}

// Admit decides whether searchID may request site at now:
//
//   - no entry for the site: Allow;
//   - before the site's next-retry time: Wait until it;
//   - after it, with no probe in flight: Probe, and searchID becomes the probe;
//   - while another search's probe is in flight: Wait, with reason
//     ReasonWaitingForProbe, until the probe expires (ProbeTimeout after it began)
//     or its outcome is recorded, whichever comes first.
//
// A search that already holds the probe and asks again gets Probe again with the
// same expiry; the probe is not restarted.
func (r *Registry) Admit(site, searchID string, now time.Time) Decision {
	r.mu.Lock()
	defer r.mu.Unlock()
	e := r.entry(site)
	if e == nil {
		return Decision{Verdict: Allow}
	}
	if now.Before(e.NextRetry) {
		return Decision{Verdict: Wait, Until: e.NextRetry, Reason: "backing off after " + describe(r.ladders, *e)}
	}
	if e.Probing(now) {
		expiry := e.ProbeStarted.Add(ProbeTimeout)
		if e.ProbeSearch == searchID {
			return Decision{Verdict: Probe, Until: expiry, Reason: "probe after " + describe(r.ladders, *e)}
		}
		return Decision{Verdict: Wait, Until: expiry, Reason: ReasonWaitingForProbe}
	}
	e.ProbeSearch, e.ProbeStarted = searchID, now
	return Decision{Verdict: Probe, Until: now.Add(ProbeTimeout), Reason: "probe after " + describe(r.ladders, *e)}
}

// describe is the kind and rung of an entry, e.g. "challenge (rung 2 of 5)", plus
// the Retry-After when it decided the wait.
func describe(ls Ladders, e Entry) string {
	s := fmt.Sprintf("%s (rung %d of %d", e.Kind, ls.Rung(e), len(ls.of(e.Kind)))
	if e.RetryAfter > ls.Step(e) {
		s += fmt.Sprintf(", Retry-After %s", min(e.RetryAfter, MaxWait))
	}
	return s + ")"
}

// Soonest returns when the next site comes due: the earliest next-retry time, or,
// for a site with a probe in flight, when that probe expires. The time may be in
// the past (a site already due, or a probe already expired). false when no site is
// waiting.
func (r *Registry) Soonest() (time.Time, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var soonest time.Time
	found := false
	for _, e := range r.sites {
		due := e.NextRetry
		if e.ProbeSearch != "" {
			due = later(due, e.ProbeStarted.Add(ProbeTimeout))
		}
		if !found || due.Before(soonest) {
			soonest, found = due, true
		}
	}
	return soonest, found
}

// Lookup returns a copy of the site's entry, for observers.
func (r *Registry) Lookup(site string) (Entry, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if e := r.entry(site); e != nil {
		return *e, true
	}
	return Entry{}, false
}

// Sites returns the sites that have an entry, sorted.
func (r *Registry) Sites() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	sites := make([]string, 0, len(r.sites))
	for s := range r.sites {
		sites = append(sites, s)
	}
	slices.Sort(sites)
	return sites
}

// ProbeNow is the user's "I have solved the challenge in my browser — probe now".
// It is allowed a minute after a challenge (for other kinds once the current
// rung's minimum wait has passed; see Ladders.ManualProbeAt); the site then becomes
// due at now, so the next Admit gets Probe, and the result is now. Before that it
// returns the time it will be allowed and ErrTooEarly.
//
// The ladder is not reset: if the probe is refused again, the site climbs a rung.
// A site with no entry, one already due, or one with a probe in flight is left as
// it is, and ProbeNow returns now and nil.
func (r *Registry) ProbeNow(site string, now time.Time) (time.Time, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	e := r.entry(site)
	if e == nil || !now.Before(e.NextRetry) {
		return now, nil
	}
	if at := r.ladders.ManualProbeAt(*e); now.Before(at) {
		return at, ErrTooEarly
	}
	e.NextRetry = now
	return now, nil
}

// Snapshot returns a copy of every entry, sorted by site, for persisting.
func (r *Registry) Snapshot() []Entry {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]Entry, 0, len(r.sites))
	for _, e := range r.sites {
		out = append(out, *e)
	}
	slices.SortFunc(out, func(a, b Entry) int { return cmp.Compare(a.Site, b.Site) })
	return out
}

// Restore replaces the registry's state with entries, typically a Snapshot read
// back at start-up. It never forgets a wait: every entry with a site is kept, even
// one whose wait has passed (its refusal count still matters). It repairs what a
// restart or a clock change can break:
//
//   - a next-retry time more than MaxWait after now (the clock moved back) is
//     clamped to now + MaxWait, and a last-refusal time after now to now;
//   - an in-flight probe that started after now or has expired is dropped, so a
//     probe whose process died cannot hold its siblings back; a fresh one is kept
//     (it expires within ProbeTimeout), so a crash loop cannot probe on every start;
//   - a kind outside the four becomes Error, and a failure count below 1 becomes 1;
//   - of two entries for one site, the one with the later next-retry time wins.
func (r *Registry) Restore(entries []Entry, now time.Time) {
	sites := make(map[string]*Entry, len(entries))
	for _, in := range entries {
		if in.Site == "" {
			continue
		}
		e := in
		if !e.Kind.Valid() {
			e.Kind = model.RefusalError
		}
		e.Failures = min(max(e.Failures, 1), maxFailures)
		e.RetryAfter = max(e.RetryAfter, 0)
		if ceiling := now.Add(MaxWait); e.NextRetry.After(ceiling) {
			e.NextRetry = ceiling
		}
		if e.LastRefusal.After(now) {
			e.LastRefusal = now
		}
		if e.ProbeSearch == "" || !e.Probing(now) {
			e.ProbeSearch, e.ProbeStarted = "", time.Time{}
		}
		if prev, ok := sites[e.Site]; ok && !e.NextRetry.After(prev.NextRetry) {
			continue
		}
		sites[e.Site] = &e
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sites = sites
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
