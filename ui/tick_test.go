package ui

import (
	"fmt"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"notifio/poll"
)

// manySearches is n scheduled searches whose next checks are i+1 minutes away.
func manySearches(n int) poll.Snapshot {
	s := poll.Snapshot{At: t0}
	for i := range n {
		s.Searches = append(s.Searches, poll.SearchSnapshot{
			ID: fmt.Sprintf("s%02d", i), Name: fmt.Sprintf("Search %02d", i),
			URL:  fmt.Sprintf("https://site%d.example/s/%d", i%10, i),
			Site: fmt.Sprintf("site%d.example", i%10), Interval: time.Hour, State: poll.StateScheduled,
			NextCheck: t0.Add(time.Duration(i+1) * time.Minute), LastOutcome: "ok",
			Baselined: true, BaselineCount: 25, LastCount: 25,
		})
	}
	return s
}

// boundRow is the row widget the list bound to item id.
func boundRow(t *testing.T, h *harness, id int) *searchRowWidget {
	t.Helper()
	w, ok := h.u.searches.bound[id]
	if !ok {
		t.Fatalf("no row widget is bound to item %d", id)
	}
	return w
}

func TestTickSetsOnlyTheStatusLabelOfRowsOnScreen(t *testing.T) {
	h := newHarness(t, manySearches(50))
	first, last := h.u.searches.shownRows()
	if first != 0 || last < 3 || last > 20 {
		t.Fatalf("the list shows rows %d..%d of 50 in a 620 px window", first, last)
	}
	w := boundRow(t, h, 0)
	if w.status.Text != "next check in 1:00" {
		t.Fatalf("row 0 says %q before the tick", w.status.Text)
	}
	// Mark the other labels: a tick that rebinds the row (List.Refresh) would
	// overwrite them.
	w.name.Text, w.detail.Text = "untouched name", "untouched detail"

	h.clock.Advance(time.Second)
	h.u.tick()
	if w.status.Text != "next check in 0:59" {
		t.Errorf("row 0 says %q after a second, want %q", w.status.Text, "next check in 0:59")
	}
	if got := boundRow(t, h, 1).status.Text; got != "next check in 1:59" {
		t.Errorf("row 1 says %q after a second, want %q", got, "next check in 1:59")
	}
	if w.name.Text != "untouched name" || w.detail.Text != "untouched detail" {
		t.Errorf("the tick rebound the whole row: name %q, detail %q", w.name.Text, w.detail.Text)
	}
	h.requireText("next check in 0:59")
	if boundRow(t, h, 0) != w {
		t.Error("the tick made the list bind row 0 to another widget")
	}
}

func TestTickLeavesRowsScrolledOutOfView(t *testing.T) {
	h := newHarness(t, manySearches(50))
	old := boundRow(t, h, 0)
	before := old.status.Text

	h.u.searches.list.ScrollTo(40)
	first, last := h.u.searches.shownRows()
	if first > 40 || last < 40 {
		t.Fatalf("after scrolling to row 40 the list shows rows %d..%d", first, last)
	}
	if w := boundRow(t, h, 40); w.status.Text != "next check in 41:00" {
		t.Fatalf("row 40 says %q", w.status.Text)
	}
	h.clock.Advance(time.Second)
	h.u.tick()
	if got := boundRow(t, h, 40).status.Text; got != "next check in 40:59" {
		t.Errorf("row 40 on screen says %q after a second, want %q", got, "next check in 40:59")
	}
	// Row 0's widget went to the list's pool when it scrolled out (or was bound
	// to another row on screen, which the tick may set).
	if old.id == 0 && old.status.Text != before {
		t.Errorf("the row scrolled out of view was set to %q", old.status.Text)
	}
	h.requireText("next check in 40:59")

	// Scrolled back, the row gets its current words from the list.
	h.u.searches.list.ScrollToTop()
	if got := boundRow(t, h, 0).status.Text; got != "next check in 0:59" {
		t.Errorf("row 0 back on screen says %q, want %q", got, "next check in 0:59")
	}
}

func TestCountdownWiderOrNarrowerKeepsTheDetailAfterIt(t *testing.T) {
	s := manySearches(1)
	s.Searches[0].NextCheck = t0.Add(10 * time.Minute)
	h := newHarness(t, s)
	w := boundRow(t, h, 0)
	h.clock.Advance(time.Second) // "10:00" → "9:59": narrower
	h.u.tick()
	if w.status.Text != "next check in 9:59" {
		t.Fatalf("the row says %q", w.status.Text)
	}
	if w.status.Size().Width < w.status.MinSize().Width {
		t.Errorf("the status is cut: %v wide, needs %v", w.status.Size().Width, w.status.MinSize().Width)
	}
	if end := w.status.Position().X + w.status.Size().Width; w.detail.Position().X < end {
		t.Errorf("the detail starts at %v, inside the status that ends at %v", w.detail.Position().X, end)
	}
	if gap := w.detail.Position().X - (w.status.Position().X + w.status.Size().Width); gap > 20 {
		t.Errorf("a %v px hole between the status and the detail", gap)
	}
}

func TestTickTouchesNoRowsWhileAnotherViewOrHidden(t *testing.T) {
	h := newHarness(t, manySearches(5))
	w := boundRow(t, h, 0)
	h.u.selectView(viewSettings)
	h.clock.Advance(time.Second)
	h.u.tick()
	if w.status.Text != "next check in 1:00" {
		t.Errorf("a tick on the settings view set the searches' row to %q", w.status.Text)
	}
	h.u.selectView(viewSearches) // catches up when shown
	if w.status.Text != "next check in 0:59" {
		t.Errorf("back on the searches view the row says %q, want %q", w.status.Text, "next check in 0:59")
	}

	h.u.hide()
	h.clock.Advance(time.Second)
	h.u.tick()
	if w.status.Text != "next check in 0:59" {
		t.Errorf("a tick while hidden set the row to %q", w.status.Text)
	}
	h.u.show() // catches up at once, without waiting for the ticker
	if w.status.Text != "next check in 0:58" {
		t.Errorf("shown again the row says %q, want %q", w.status.Text, "next check in 0:58")
	}
}

func TestTickerStopsWhileHidden(t *testing.T) {
	a := test.NewTempApp(t)
	clock := &fakeClock{t: t0}
	b := newFakeBackend(clock)
	b.set(manySearches(3))
	q := newQueue()
	u := New(a, b, Options{Now: clock.Now, Dispatch: q.dispatch, TickEvery: time.Millisecond})
	defer u.Close()
	u.win.Resize(fyne.NewSize(900, 620))
	q.runNext(t) // ticking

	u.hide()
	time.Sleep(20 * time.Millisecond) // at most one tick was already on its way
	q.runAll()
	drain := func() {
		for {
			select {
			case <-q.signal:
			default:
				return
			}
		}
	}
	drain()
	time.Sleep(50 * time.Millisecond) // fifty periods
	select {
	case <-q.signal:
		t.Error("the ticker dispatched while the window was hidden")
	default:
	}

	u.show()
	clock.Advance(2 * time.Second)
	q.runNext(t) // ticking again
	if got := u.searches.rows[0].status; got != "next check in 0:58" {
		t.Errorf("after the window came back the first row says %q, want %q", got, "next check in 0:58")
	}
}
