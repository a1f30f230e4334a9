package ui

import (
	"context"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// jobBench is a job under test with what its answers do: a current answer
// sets label, a stale one is recorded in stale; working is its busy counter.
// Answers are dispatched to q, which the test runs on its own goroutine.
type jobBench struct {
	j       *job
	q       *queue
	label   *widget.Label
	stale   []string
	working int
}

func newJobBench(t *testing.T, cancels bool) *jobBench {
	test.NewTempApp(t)
	b := &jobBench{q: newQueue(), label: widget.NewLabel("")}
	b.j = &job{dispatch: b.q.dispatch, timeout: testSearchTimeout, cancels: cancels,
		busy: func(d int) { b.working += d }}
	return b
}

// gatedRun is one run on a jobBench: its work waits for release (and only
// for it, so the test decides the order answers arrive in), then answers
// with its name.
type gatedRun struct {
	release chan struct{}
	ctxErr  chan error // the run's context's error when its work ended
}

// start starts a run named name.
func (b *jobBench) start(name string) *gatedRun {
	r := &gatedRun{release: make(chan struct{}), ctxErr: make(chan error, 1)}
	b.j.start(func(ctx context.Context) func(bool) {
		<-r.release
		r.ctxErr <- ctx.Err()
		return func(current bool) {
			if current {
				b.label.SetText(name)
			} else {
				b.stale = append(b.stale, name)
			}
		}
	})
	return r
}

// TestJobNewerRunSupersedesTheOlder: of two runs, only the newer one's answer
// is applied, whatever the order they end in; the older one's arrives as not
// current, and its context is cancelled only when the job cancels.
func TestJobNewerRunSupersedesTheOlder(t *testing.T) {
	for _, c := range []struct{ cancels, olderLast bool }{{true, true}, {false, true}, {true, false}, {false, false}} {
		b := newJobBench(t, c.cancels)
		older := b.start("older")
		newer := b.start("newer")
		if b.working != 2 || !b.j.running() {
			t.Fatalf("%+v: two runs started: busy %d, running %v", c, b.working, b.j.running())
		}
		first, last := older, newer
		if c.olderLast {
			first, last = newer, older
		}
		close(first.release)
		b.q.runNext(t)
		close(last.release)
		b.q.runNext(t)
		if b.label.Text != "newer" {
			t.Errorf("%+v: the label shows %q, want the newer run's answer alone", c, b.label.Text)
		}
		if len(b.stale) != 1 || b.stale[0] != "older" {
			t.Errorf("%+v: stale answers %v, want [older]", c, b.stale)
		}
		if err := <-older.ctxErr; (err == context.Canceled) != c.cancels {
			t.Errorf("%+v: the superseded run's context ended with %v", c, err)
		}
		if b.working != 0 || b.j.running() {
			t.Errorf("%+v: after both answers busy %d, running %v", c, b.working, b.j.running())
		}
	}
}

// TestJobSupersedeWithoutANewRun: a run superseded with no newer one (the
// editor's save supersedes its test) answers as not current.
func TestJobSupersedeWithoutANewRun(t *testing.T) {
	b := newJobBench(t, true)
	r := b.start("test")
	b.j.supersede()
	if b.j.running() {
		t.Error("running after supersede")
	}
	close(r.release)
	b.q.runNext(t)
	if b.label.Text != "" || len(b.stale) != 1 {
		t.Errorf("a superseded run's answer was applied: label %q, stale %v", b.label.Text, b.stale)
	}
	if err := <-r.ctxErr; err != context.Canceled {
		t.Errorf("the superseded run's context ended with %v", err)
	}
}

// TestJobCancelKeepsTheRunCurrent: cancel (the window closed) cancels the
// context when the job cancels, and the answer still arrives as current; a
// job that does not cancel lets its run finish.
func TestJobCancelKeepsTheRunCurrent(t *testing.T) {
	for _, cancels := range []bool{true, false} {
		b := newJobBench(t, cancels)
		r := b.start("run")
		b.j.cancel()
		if b.j.running() != !cancels {
			t.Errorf("cancels %v: running %v after cancel", cancels, b.j.running())
		}
		close(r.release)
		b.q.runNext(t)
		if b.label.Text != "run" || len(b.stale) != 0 {
			t.Errorf("cancels %v: the cancelled run's answer: label %q, stale %v", cancels, b.label.Text, b.stale)
		}
		if err := <-r.ctxErr; (err == context.Canceled) != cancels {
			t.Errorf("cancels %v: the run's context ended with %v", cancels, err)
		}
	}
}
