package ui

import (
	"context"
	"time"
)

// job is one kind of a view's background work (the editor's dry run, its
// save, Settings' test email), written once: started from a Fyne callback,
// the work runs on a goroutine of its own and its answer comes back in one
// dispatch to the UI goroutine, so no callback waits for the network, the
// database or the keyring.
//
// Each start supersedes the run before it, and supersede does so without a
// new run: a superseded run's answer still arrives, marked not current, so
// the view never shows an answer to a question it no longer asks (a test of
// the form as it was) but can still do what a late answer needs (a save
// that went through refreshes the window).
//
// The views differ in three ways, each a field: whether a superseded or
// cancelled run's context is cancelled (cancels), whether runs count in the
// view's busy counter (busy), and what the answer does when not current (the
// work's done function). The window's Close cancels the jobs that cancel.
//
// A job is used from the UI goroutine only; the work it runs must not touch
// widgets (it gets none: it returns a function that does, for the dispatch).
type job struct {
	dispatch func(func()) // to the UI goroutine (UI.dispatch)
	timeout  time.Duration
	// cancels: a run that is superseded, or cancelled by cancel, has its
	// context cancelled. A test is (its answer is no longer wanted); a save
	// is not, as it may have committed already and cut off would leave the
	// user not knowing whether it did.
	cancels bool
	// busy, when set, is the view's busy counter (countBusy): 1 as a run
	// starts, -1 as its answer arrives, current or not. nil: the view shows
	// its own progress.
	busy func(delta int)

	serial int                // the current run's; answers of others are stale
	stop   context.CancelFunc // the current run's, nil when none is under way
}

// start supersedes the run under way and runs work on its own goroutine with
// a context that ends after the job's timeout. work returns what to do with
// its answer on the UI goroutine; that function is told whether the run is
// still the current one.
func (j *job) start(work func(ctx context.Context) (done func(current bool))) {
	j.supersede()
	ctx, cancel := context.WithTimeout(context.Background(), j.timeout)
	j.stop = cancel
	serial := j.serial
	if j.busy != nil {
		j.busy(1)
	}
	go func() {
		done := work(ctx)
		cancel()
		j.dispatch(func() {
			current := serial == j.serial
			if current {
				j.stop = nil
			}
			if j.busy != nil {
				j.busy(-1)
			}
			done(current)
		})
	}()
}

// supersede makes the run under way, if any, stale: its answer arrives as
// not current. When the job cancels, its context is cancelled too.
func (j *job) supersede() {
	j.serial++
	j.cancel()
	j.stop = nil
}

// cancel cancels the context of the run under way when the job cancels (a
// dialog closed, the window closed); the run stays current, so its answer
// (most likely the context's error) arrives as current. When the job does not
// cancel, nothing happens.
func (j *job) cancel() {
	if j.cancels && j.stop != nil {
		j.stop()
		j.stop = nil
	}
}

// running reports whether a run is under way that was neither superseded nor
// cancelled.
func (j *job) running() bool { return j.stop != nil }
