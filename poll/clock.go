package poll

import "time"

// Clock is the loop's source of time. The real clock is the default; tests pass a
// fake one and step it, so nothing in the loop's tests sleeps.
type Clock interface {
	// Now returns the current wall-clock time.
	Now() time.Time
	// NewTimer returns a timer that fires once after d.
	NewTimer(d time.Duration) Timer
}

// Timer is the part of *time.Timer the loop uses.
type Timer interface {
	// C is the channel the time is delivered on.
	C() <-chan time.Time
	// Stop prevents the timer from firing; it reports whether it stopped it.
	Stop() bool
}

// RealClock is the system clock. Times carry no monotonic reading, so that after a
// laptop wakes from sleep, due times compare by the wall clock and countdowns stay
// right.
type RealClock struct{}

// Now returns the wall-clock time without its monotonic reading.
func (RealClock) Now() time.Time { return time.Now().Round(0) }

// NewTimer wraps time.NewTimer.
func (RealClock) NewTimer(d time.Duration) Timer { return realTimer{time.NewTimer(d)} }

type realTimer struct{ t *time.Timer }

func (r realTimer) C() <-chan time.Time { return r.t.C }
func (r realTimer) Stop() bool          { return r.t.Stop() }
