package hostbackoff

import (
	"math"
	"math/rand/v2"
	"time"

	"notifio/internal/model"
)

// MaxWait caps every wait, whatever the ladder or the site's Retry-After says.
const MaxWait = time.Hour

// Jitter bounds: a wait is the ladder step times a factor in [jitterLow, jitterLow+jitterSpan).
const (
	jitterLow  = 0.85
	jitterSpan = 0.30
)

// Ladders holds the waits for consecutive refusals of each kind; the last rung
// is the ceiling. They are the registry's settings (Options.Ladders; the
// policy is model.DefaultLadders, where each ladder's reasons are), read-only
// once given.
type Ladders map[model.Refusal][]time.Duration

// of returns the ladder for k. A kind outside the four uses the Error ladder;
// a missing or empty ladder means MaxWait.
func (ls Ladders) of(k model.Refusal) []time.Duration {
	if l := ls[k]; len(l) > 0 {
		return l
	}
	if l := ls[model.RefusalError]; len(l) > 0 {
		return l
	}
	return []time.Duration{MaxWait}
}

// rungIndex is the zero-based rung for a failure count: failures below 1 count as
// 1, and counts past the ladder's end stay on the last rung.
func rungIndex(ladder []time.Duration, failures int) int {
	return min(max(failures, 1)-1, len(ladder)-1)
}

// stepFor is the un-jittered ladder step for a kind and failure count.
func (ls Ladders) stepFor(k model.Refusal, failures int) time.Duration {
	l := ls.of(k)
	return l[rungIndex(l, failures)]
}

// minimumFor is the shortest wait DelayFor can give for a kind and failure count
// before Retry-After: the step with the lowest jitter.
func (ls Ladders) minimumFor(k model.Refusal, failures int) time.Duration {
	return min(time.Duration(math.Round(float64(ls.stepFor(k, failures))*jitterLow)), MaxWait)
}

// DelayFor is how long to leave a site alone after its failures-th consecutive
// refusal of kind k:
//
//	step     = ladder[min(max(failures,1)-1, len-1)]
//	jittered = round(step × (0.85 + random()×0.3))
//	result   = min(max(jittered, retryAfter), MaxWait)
//
// Retry-After wins only when it is longer; a negative one is ignored. The result is
// never negative and never above MaxWait. random should return values in [0, 1);
// anything outside is clamped to it (NaN counts as 0). nil means math/rand/v2. A
// kind outside the four uses the Error ladder.
func (ls Ladders) DelayFor(k model.Refusal, failures int, retryAfter time.Duration, random func() float64) time.Duration {
	if random == nil {
		random = rand.Float64
	}
	r := random()
	if !(r >= 0) { // also catches NaN
		r = 0
	}
	r = min(r, 1)
	step := ls.stepFor(k, failures)
	jittered := time.Duration(math.Round(float64(step) * (jitterLow + r*jitterSpan)))
	return min(max(jittered, retryAfter, 0), MaxWait)
}

// Rung is an entry's 1-based position on its kind's ladder (the ceiling rung
// for any count past the end).
func (ls Ladders) Rung(e Entry) int { return rungIndex(ls.of(e.Kind), e.Failures) + 1 }

// Step is the un-jittered ladder step of an entry's current rung.
func (ls Ladders) Step(e Entry) time.Duration { return ls.stepFor(e.Kind, e.Failures) }

// ManualProbeAt is the earliest time ProbeNow allows a probe. After a
// challenge, which the user can solve in a browser, it is ManualProbeGap after
// the last refusal; for the other kinds, which nobody can solve, the current
// rung's minimum wait (its step × 0.85).
func (ls Ladders) ManualProbeAt(e Entry) time.Time {
	if e.Kind == model.RefusalChallenge {
		return e.LastRefusal.Add(ManualProbeGap)
	}
	return e.LastRefusal.Add(ls.minimumFor(e.Kind, e.Failures))
}
