package hostbackoff_test

import (
	"math"
	"testing"
	"time"

	"pgregory.net/rapid"

	"notifio/hostbackoff"

	"notifio/internal/model"
)

// fixed returns a random function that always answers v.
// policy is the ladders the watcher gives its registry.
var policy = hostbackoff.Ladders(model.DefaultLadders())

func fixed(v float64) func() float64 { return func() float64 { return v } }

// almostOne is the largest float64 below 1, the top of random()'s range.
var almostOne = math.Nextafter(1, 0)

func TestLaddersAsSpecified(t *testing.T) {
	m := time.Minute
	want := map[model.Refusal][]time.Duration{
		model.RefusalChallenge:   {1 * m, 3 * m, 8 * m, 15 * m, 30 * m},
		model.RefusalRateLimited: {2 * m, 5 * m, 15 * m, 30 * m},
		model.RefusalDenied:      {5 * m, 15 * m, 30 * m, 60 * m},
		model.RefusalError:       {30 * time.Second, 2 * m, 5 * m},
	}
	if len(policy) != len(want) {
		t.Fatalf("Ladders has %d kinds, want %d", len(policy), len(want))
	}
	for k, steps := range want {
		got := policy[k]
		if len(got) != len(steps) {
			t.Fatalf("%s ladder = %v, want %v", k, got, steps)
		}
		for i := range steps {
			if got[i] != steps[i] {
				t.Errorf("%s rung %d = %v, want %v", k, i+1, got[i], steps[i])
			}
		}
	}
}

func TestKindNames(t *testing.T) {
	for _, tc := range []struct {
		k    model.Refusal
		name string
	}{
		{model.RefusalChallenge, "challenge"},
		{model.RefusalRateLimited, "rate_limited"},
		{model.RefusalDenied, "denied"},
		{model.RefusalError, "error"},
	} {
		if got := tc.k.String(); got != tc.name {
			t.Errorf("%d.String() = %q, want %q", int(tc.k), got, tc.name)
		}
		if k, ok := model.ParseRefusal(tc.name); !ok || k != tc.k {
			t.Errorf("ParseKind(%q) = %v, %v", tc.name, k, ok)
		}
	}
	for _, bad := range []string{"", "Challenge", "unknown", "rate-limited", " error"} {
		if k, ok := model.ParseRefusal(bad); ok {
			t.Errorf("ParseKind(%q) = %v, true; want false", bad, k)
		}
	}
	if got := model.Refusal(0).String(); got != "unknown" {
		t.Errorf("Kind(0).String() = %q", got)
	}
}

// With random() = 0.5 the jitter factor is exactly 1, so DelayFor is the step.
func TestDelayForSteps(t *testing.T) {
	m := time.Minute
	tests := []struct {
		k        model.Refusal
		failures int
		want     time.Duration
	}{
		{model.RefusalChallenge, -3, 1 * m},
		{model.RefusalChallenge, 0, 1 * m},
		{model.RefusalChallenge, 1, 1 * m},
		{model.RefusalChallenge, 2, 3 * m},
		{model.RefusalChallenge, 3, 8 * m},
		{model.RefusalChallenge, 4, 15 * m},
		{model.RefusalChallenge, 5, 30 * m},
		{model.RefusalChallenge, 6, 30 * m},
		{model.RefusalChallenge, math.MaxInt, 30 * m},
		{model.RefusalRateLimited, 1, 2 * m},
		{model.RefusalRateLimited, 2, 5 * m},
		{model.RefusalRateLimited, 3, 15 * m},
		{model.RefusalRateLimited, 4, 30 * m},
		{model.RefusalRateLimited, 9, 30 * m},
		{model.RefusalDenied, 1, 5 * m},
		{model.RefusalDenied, 2, 15 * m},
		{model.RefusalDenied, 3, 30 * m},
		{model.RefusalDenied, 4, 60 * m},
		{model.RefusalDenied, 100, 60 * m},
		{model.RefusalError, math.MinInt, 30 * time.Second},
		{model.RefusalError, 1, 30 * time.Second},
		{model.RefusalError, 2, 2 * m},
		{model.RefusalError, 3, 5 * m},
		{model.RefusalError, 4, 5 * m},
		// A kind outside the four uses the error ladder.
		{model.Refusal(0), 2, 2 * m},
		{model.Refusal(99), 9, 5 * m},
	}
	for _, tc := range tests {
		if got := policy.DelayFor(tc.k, tc.failures, 0, fixed(0.5)); got != tc.want {
			t.Errorf("DelayFor(%s, %d, 0, 0.5) = %v, want %v", tc.k, tc.failures, got, tc.want)
		}
	}
}

func TestDelayForJitterBounds(t *testing.T) {
	for _, k := range model.Refusals() {
		for i, step := range policy[k] {
			failures := i + 1
			lo := policy.DelayFor(k, failures, 0, fixed(0))
			hi := policy.DelayFor(k, failures, 0, fixed(almostOne))
			wantLo := time.Duration(math.Round(float64(step) * 0.85))
			wantHi := min(time.Duration(math.Round(float64(step)*1.15)), hostbackoff.MaxWait)
			if lo != wantLo {
				t.Errorf("%s rung %d: lowest = %v, want %v", k, failures, lo, wantLo)
			}
			if hi != wantHi {
				t.Errorf("%s rung %d: highest = %v, want %v", k, failures, hi, wantHi)
			}
			for _, r := range []float64{0.1, 0.25, 0.5, 0.75, 0.9} {
				d := policy.DelayFor(k, failures, 0, fixed(r))
				if d < wantLo || d > wantHi {
					t.Errorf("%s rung %d random %.2f: %v outside [%v, %v]", k, failures, r, d, wantLo, wantHi)
				}
			}
		}
	}
	// Spot values from the formula.
	for _, tc := range []struct {
		r    float64
		want time.Duration
	}{
		{0, 51 * time.Second},            // 60 s × 0.85
		{0.5, 60 * time.Second},          // × 1.00
		{almostOne, 69 * time.Second},    // × 1.15
		{0.25, 55500 * time.Millisecond}, // × 0.925
	} {
		if got := policy.DelayFor(model.RefusalChallenge, 1, 0, fixed(tc.r)); got != tc.want {
			t.Errorf("challenge rung 1, random %v: %v, want %v", tc.r, got, tc.want)
		}
	}
	// The denied ceiling (60 m) jittered upwards is held at MaxWait.
	if got := policy.DelayFor(model.RefusalDenied, 4, 0, fixed(0.9)); got != time.Hour {
		t.Errorf("denied ceiling jittered up = %v, want 1h", got)
	}
	// Out-of-range random values are clamped, never producing a negative or huge wait.
	for _, r := range []float64{-1, math.NaN(), math.Inf(-1)} {
		if got := policy.DelayFor(model.RefusalChallenge, 1, 0, fixed(r)); got != 51*time.Second {
			t.Errorf("random %v: %v, want 51s", r, got)
		}
	}
	for _, r := range []float64{1, 7, math.Inf(1)} {
		if got := policy.DelayFor(model.RefusalChallenge, 1, 0, fixed(r)); got != 69*time.Second {
			t.Errorf("random %v: %v, want 69s", r, got)
		}
	}
}

func TestDelayForNilRandomUsesDefault(t *testing.T) {
	seen := map[time.Duration]bool{}
	for range 200 {
		d := policy.DelayFor(model.RefusalDenied, 1, 0, nil)
		if d < 255*time.Second || d > 345*time.Second {
			t.Fatalf("DelayFor(denied, 1, nil) = %v, outside 5m ±15%%", d)
		}
		seen[d] = true
	}
	if len(seen) < 10 {
		t.Errorf("nil random gave only %d distinct delays in 200 draws", len(seen))
	}
}

func TestDelayForRetryAfter(t *testing.T) {
	m := time.Minute
	tests := []struct {
		name       string
		k          model.Refusal
		failures   int
		retryAfter time.Duration
		want       time.Duration
	}{
		{"longer wins", model.RefusalRateLimited, 1, 10 * m, 10 * m},
		{"shorter loses", model.RefusalRateLimited, 3, 1 * m, 15 * m},
		{"equal", model.RefusalChallenge, 2, 3 * m, 3 * m},
		{"zero is none", model.RefusalError, 1, 0, 30 * time.Second},
		{"negative is ignored", model.RefusalError, 1, -5 * time.Hour, 30 * time.Second},
		{"huge is capped", model.RefusalRateLimited, 1, 27 * time.Hour, hostbackoff.MaxWait},
		{"largest duration is capped", model.RefusalDenied, 4, time.Duration(math.MaxInt64), hostbackoff.MaxWait},
		{"just under the cap", model.RefusalChallenge, 1, 59 * m, 59 * m},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := policy.DelayFor(tc.k, tc.failures, tc.retryAfter, fixed(0.5)); got != tc.want {
				t.Errorf("DelayFor(%s, %d, %v) = %v, want %v", tc.k, tc.failures, tc.retryAfter, got, tc.want)
			}
		})
	}
}

// For any inputs at all, a delay is never negative and never above MaxWait.
func TestDelayForNeverNegativeNorAboveMaxWait(t *testing.T) {
	specials := []float64{0, almostOne, 1, -1, 2, math.NaN(), math.Inf(1), math.Inf(-1), math.SmallestNonzeroFloat64}
	rapid.Check(t, func(t *rapid.T) {
		k := model.Refusal(rapid.IntRange(-2, 8).Draw(t, "kind"))
		failures := rapid.OneOf(rapid.Int(), rapid.IntRange(-3, 10), rapid.SampledFrom([]int{math.MinInt, math.MaxInt})).Draw(t, "failures")
		retryAfter := time.Duration(rapid.OneOf(rapid.Int64(), rapid.Int64Range(-int64(2*time.Hour), int64(2*time.Hour)),
			rapid.SampledFrom([]int64{math.MinInt64, math.MaxInt64})).Draw(t, "retryAfter"))
		r := rapid.OneOf(rapid.Float64Range(0, almostOne), rapid.Float64(), rapid.SampledFrom(specials)).Draw(t, "random")
		d := policy.DelayFor(k, failures, retryAfter, fixed(r))
		if d < 0 || d > hostbackoff.MaxWait {
			t.Fatalf("DelayFor(%d, %d, %v, %v) = %v", int(k), failures, retryAfter, r, d)
		}
		if retryAfter > 0 && d < min(retryAfter, hostbackoff.MaxWait) {
			t.Fatalf("Retry-After %v lost: delay %v", retryAfter, d)
		}
		if k.Valid() && r >= 0 && r < 1 && retryAfter <= 0 {
			l := policy[k]
			step := l[min(max(failures, 1)-1, len(l)-1)]
			lo := time.Duration(math.Round(float64(step) * 0.85))
			hi := min(time.Duration(math.Round(float64(step)*1.15)), hostbackoff.MaxWait)
			if d < lo || d > hi {
				t.Fatalf("jitter out of bounds: %v not in [%v, %v]", d, lo, hi)
			}
		}
	})
}
