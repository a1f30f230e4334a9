package ui

import (
	"context"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// gatedRun is one run of a job under test: its work waits for release (and
// only for it, so the test decides the order answers arrive in), then answers
// with its name.
type gatedRun struct {
	release chan struct{}
	ctxErr  chan error // the run's context's error when its work ended
}

func newGatedRun() *gatedRun {
	return &gatedRun{release: make(chan struct{}), ctxErr: make(chan error, 1)}
}

// start starts r on j; its answer sets label (current) or is counted in
// stale (not current).
func (r *gatedRun) start(j *job, name string, label *widget.Label, stale *[]string) {
	j.start(func(ctx context.Context) func(bool) {
		<-r.release
		r.ctxErr <- ctx.Err()
		return func(current bool) {
			if current {
				label.SetText(name)
			} else {
				*stale = append(*stale, name)
			}
		}
	})
}

// TestJobNewerRunSupersedesTheOlder: of two runs, only the newer one's answer
// is applied, whatever the order they end in; the older one's arrives as not
// current, and its context is cancelled only when the job cancels.
func TestJobNewerRunSupersedesTheOlder(t *testing.T) {
	test.NewTempApp(t)
	for _, c := range []struct{ cancels, olderLast bool }{{true, true}, {false, true}, {true, false}, {false, false}} {
		cancels := c.cancels
		q := newQueue()
		label := widget.NewLabel("")
		var stale []string
		working := 0
		j := &job{dispatch: q.dispatch, timeout: testSearchTimeout, cancels: cancels,
			busy: func(d int) { working += d }}

		older, newer := newGatedRun(), newGatedRun()
		older.start(j, "older", label, &stale)
		newer.start(j, "newer", label, &stale)
		if working != 2 || !j.running() {
			t.Fatalf("cancels %v: two runs started: busy %d, running %v", cancels, working, j.running())
		}
		first, last := older, newer
		if c.olderLast {
			first, last = newer, older
		}
		close(first.release)
		q.runNext(t)
		close(last.release)
		q.runNext(t)
		if label.Text != "newer" {
			t.Errorf("%+v: the label shows %q, want the newer run's answer alone", c, label.Text)
		}
		if j.running() {
			t.Errorf("cancels %v: still running after the current answer", cancels)
		}
		if len(stale) != 1 || stale[0] != "older" {
			t.Errorf("cancels %v: stale answers %v, want [older]", cancels, stale)
		}
		if err := <-older.ctxErr; (err == context.Canceled) != cancels {
			t.Errorf("cancels %v: the superseded run's context ended with %v", cancels, err)
		}
		if working != 0 {
			t.Errorf("cancels %v: busy counter %d after both answers, want 0", cancels, working)
		}
	}
}

// TestJobSupersedeWithoutANewRun: a run superseded with no newer one (the
// editor's save supersedes its test) answers as not current.
func TestJobSupersedeWithoutANewRun(t *testing.T) {
	test.NewTempApp(t)
	q := newQueue()
	label := widget.NewLabel("")
	var stale []string
	j := &job{dispatch: q.dispatch, timeout: testSearchTimeout, cancels: true}
	r := newGatedRun()
	r.start(j, "test", label, &stale)
	j.supersede()
	if j.running() {
		t.Error("running after supersede")
	}
	close(r.release)
	q.runNext(t)
	if label.Text != "" || len(stale) != 1 {
		t.Errorf("a superseded run's answer was applied: label %q, stale %v", label.Text, stale)
	}
	if err := <-r.ctxErr; err != context.Canceled {
		t.Errorf("the superseded run's context ended with %v", err)
	}
}

// TestJobCancelKeepsTheRunCurrent: cancel (a dialog or the window closed)
// cancels the context when the job cancels, and the answer still arrives as
// current; a job that does not cancel lets its run finish.
func TestJobCancelKeepsTheRunCurrent(t *testing.T) {
	test.NewTempApp(t)
	for _, cancels := range []bool{true, false} {
		q := newQueue()
		label := widget.NewLabel("")
		var stale []string
		j := &job{dispatch: q.dispatch, timeout: testSearchTimeout, cancels: cancels}
		r := newGatedRun()
		r.start(j, "run", label, &stale)
		j.cancel()
		if j.running() != !cancels {
			t.Errorf("cancels %v: running %v after cancel", cancels, j.running())
		}
		close(r.release)
		q.runNext(t)
		if label.Text != "run" || len(stale) != 0 {
			t.Errorf("cancels %v: the cancelled run's answer: label %q, stale %v", cancels, label.Text, stale)
		}
		if err := <-r.ctxErr; (err == context.Canceled) != cancels {
			t.Errorf("cancels %v: the run's context ended with %v", cancels, err)
		}
	}
}
