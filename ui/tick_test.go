package ui

import (
	"fmt"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"

	"notifio/internal/model"
)

// manySearches is n scheduled searches whose next checks are i+1 minutes away.
func manySearches(n int) model.Snapshot {
	s := model.Snapshot{At: t0}
	for i := range n {
		s.Searches = append(s.Searches, model.SearchSnapshot{
			ID: fmt.Sprintf("s%02d", i), Name: fmt.Sprintf("Search %02d", i),
			URL:  fmt.Sprintf("https://site%02d.example/s/%d", i/5, i),
			Site: fmt.Sprintf("site%02d.example", i/5), Interval: time.Hour, State: model.StateScheduled,
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
	if w := boundRow(t, h, 40); w.status.Text != "next check in 41 min" {
		t.Fatalf("row 40 says %q", w.status.Text)
	}
	h.clock.Advance(time.Minute)
	h.u.tick()
	if got := boundRow(t, h, 40).status.Text; got != "next check in 40 min" {
		t.Errorf("row 40 on screen says %q after a minute, want %q", got, "next check in 40 min")
	}
	// Row 0's widget went to the list's pool when it scrolled out (or was bound
	// to another row on screen, which the tick may set).
	if old.id == 0 && old.status.Text != before {
		t.Errorf("the row scrolled out of view was set to %q", old.status.Text)
	}
	h.requireText("next check in 40 min")

	// Scrolled back, the row gets its current words from the list.
	h.u.searches.list.ScrollToTop()
	if got := boundRow(t, h, 0).status.Text; got != "checking in a moment" {
		t.Errorf("row 0 back on screen says %q, want %q", got, "checking in a moment")
	}
}

func TestCountdownWiderOrNarrowerKeepsTheDetailAfterIt(t *testing.T) {
	s := manySearches(1)
	s.Searches[0].NextCheck = t0.Add(10 * time.Minute)
	h := newHarness(t, s)
	w := boundRow(t, h, 0)
	h.clock.Advance(time.Minute) // "10 min" → "9 min": narrower
	h.u.tick()
	if w.status.Text != "next check in 9 min" {
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

// fakeTicker is a Ticker whose ticks the test sends and whose Stop and Reset
// it sees, in order.
type fakeTicker struct {
	c      chan time.Time
	events chan string
}

func newFakeTicker() *fakeTicker {
	return &fakeTicker{c: make(chan time.Time), events: make(chan string, 16)}
}

func (f *fakeTicker) Chan() <-chan time.Time { return f.c }
func (f *fakeTicker) Stop()                  { f.record("stop") }
func (f *fakeTicker) Reset(time.Duration)    { f.record("reset") }

func (f *fakeTicker) record(e string) {
	select {
	case f.events <- e:
	default:
	}
}

// fire delivers one tick; it returns once the ticker goroutine took it.
func (f *fakeTicker) fire(t *testing.T) {
	t.Helper()
	select {
	case f.c <- time.Time{}:
	case <-time.After(10 * time.Second):
		t.Fatal("the ticker goroutine does not take ticks")
	}
}

// await waits for the ticker goroutine to call Stop or Reset.
func (f *fakeTicker) await(t *testing.T, want string) {
	t.Helper()
	select {
	case e := <-f.events:
		if e != want {
			t.Fatalf("the ticker goroutine called %s, want %s", e, want)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("the ticker goroutine never called %s", want)
	}
}

func TestTickerStopsWhileHidden(t *testing.T) {
	a := test.NewTempApp(t)
	clock := &fakeClock{t: t0}
	b := newFakeBackend(clock)
	b.set(manySearches(3))
	q := newQueue()
	ft := newFakeTicker()
	u := New(a, b, Options{Now: clock.Now, Dispatch: q.dispatch, NewTicker: func(time.Duration) Ticker { return ft }})
	defer u.Close()
	u.win.Resize(fyne.NewSize(900, 620))
	ft.fire(t)
	q.runNext(t) // a tick reaches the UI goroutine

	u.hide()
	ft.await(t, "stop")
	// Stopped, the goroutine waits for the window alone: nobody takes a tick.
	select {
	case ft.c <- time.Time{}:
		t.Error("the ticker goroutine took a tick while the window was hidden")
	default:
	}
	select {
	case <-q.signal:
		t.Error("the ticker dispatched while the window was hidden")
	default:
	}

	u.show()
	ft.await(t, "reset")
	clock.Advance(2 * time.Second)
	ft.fire(t)
	q.runNext(t) // ticking again
	if got := u.searches.rows[0].status; got != "next check in 0:58" {
		t.Errorf("after the window came back the first row says %q, want %q", got, "next check in 0:58")
	}
}

// drawnText is the canvas text a label draws. A refresh of the label writes its
// text into it again, so a mark put there shows whether the label was refreshed.
func drawnText(t *testing.T, l fyne.Widget) *canvas.Text {
	t.Helper()
	var found *canvas.Text
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		switch o := o.(type) {
		case *canvas.Text:
			if found == nil {
				found = o
			}
		case fyne.Widget:
			for _, c := range test.WidgetRenderer(o).Objects() {
				walk(c)
			}
		case *fyne.Container:
			for _, c := range o.Objects {
				walk(c)
			}
		}
	}
	walk(l)
	if found == nil {
		t.Fatalf("%T draws no text", l)
	}
	return found
}

func TestTicksWithinTheMinuteRefreshNothing(t *testing.T) {
	s := manySearches(20)
	for i := range s.Searches { // 10 minutes and more away, each at its own second
		s.Searches[i].NextCheck = t0.Add(10*time.Minute + time.Duration(i*97)*time.Second)
	}
	s.Sites = []model.SiteSnapshot{{Site: "site0.example", Waiting: true, Kind: model.RefusalRateLimited, Rung: 1,
		NextProbe: t0.Add(25*time.Minute + 17*time.Second), Searches: 2}}
	h := newHarness(t, s)
	first, last := h.u.searches.shownRows()
	const mark = "not refreshed"
	var drawn []*canvas.Text
	for id := first; id <= last && id < len(s.Searches); id++ {
		d := drawnText(t, boundRow(t, h, id).status)
		d.Text = mark
		drawn = append(drawn, d)
	}
	for range 59 {
		h.clock.Advance(time.Second)
		h.u.tick()
	}
	for i, d := range drawn {
		if d.Text != mark {
			t.Errorf("row %d was refreshed within the minute: it draws %q", first+i, d.Text)
		}
	}
	h.clock.Advance(time.Second) // 14:01:00
	h.u.tick()
	for i, d := range drawn {
		if want := boundRow(t, h, first+i).status.Text; d.Text != want {
			t.Errorf("row %d draws %q at the minute, want %q", first+i, d.Text, want)
		}
	}

	// The same on the sites view.
	h.u.selectView(viewSites)
	next := h.u.sites.cards["site0.example"].next
	if next.Text != "Notifio asks again in 24 min (at 14:25)." {
		t.Fatalf("the site card says %q", next.Text)
	}
	d := drawnText(t, next)
	d.Text = mark
	for range 59 {
		h.clock.Advance(time.Second)
		h.u.tick()
	}
	if d.Text != mark {
		t.Errorf("the site's countdown was refreshed within the minute: it draws %q", d.Text)
	}
	h.clock.Advance(time.Second)
	h.u.tick()
	if d.Text != "Notifio asks again in 23 min (at 14:25)." {
		t.Errorf("the site's countdown draws %q at the minute", d.Text)
	}
}

// TestASnapshotRedrawsOnlyTheRowsThatChanged: every poll publishes a snapshot
// (two a poll: checking, then its result), and each made the whole list bind
// and shape every row again: 18% of the window's own CPU with 20 searches
// (issue 19). A snapshot now touches the rows whose words or look changed.
func TestASnapshotRedrawsOnlyTheRowsThatChanged(t *testing.T) {
	s := manySearches(5)
	h := newHarness(t, s)
	const mark = "not refreshed"
	d0, d1 := drawnText(t, boundRow(t, h, 0).name), drawnText(t, boundRow(t, h, 1).name)
	d0.Text, d1.Text = mark, mark

	s.At = t0.Add(time.Second)
	s.Searches[0].State = model.StateChecking
	h.publish(s)
	if got := boundRow(t, h, 0).status.Text; got != "checking…" {
		t.Fatalf("row 0 says %q, want it checking", got)
	}
	if d0.Text == mark {
		t.Error("the row that changed was not redrawn")
	}
	if d1.Text != mark {
		t.Errorf("a row that did not change was redrawn: it draws %q", d1.Text)
	}

	// A new search changes the list itself: every row is bound again.
	s.At = t0.Add(2 * time.Second)
	s.Searches = append(s.Searches, model.SearchSnapshot{ID: "s99", Name: "Search 99", Site: "site9.example",
		State: model.StateScheduled, NextCheck: t0.Add(time.Hour)})
	h.publish(s)
	if !h.hasText("Search 99") {
		t.Error("the new search is not listed")
	}
}

// TestSnapshotsWhileHiddenAreDrawnOnShow: hidden in the tray, a snapshot
// redraws nothing (the window is not drawn); shown again it is up to date.
func TestSnapshotsWhileHiddenAreDrawnOnShow(t *testing.T) {
	s := manySearches(3)
	h := newHarness(t, s)
	const mark = "not refreshed"
	d := drawnText(t, boundRow(t, h, 0).name)
	d.Text = mark
	h.u.hide()
	s.At = t0.Add(time.Second)
	s.Searches[0].Name = "Renamed"
	h.publish(s)
	if d.Text != mark {
		t.Errorf("a snapshot redrew a row while hidden: %q", d.Text)
	}
	h.u.show()
	if got := boundRow(t, h, 0).name.Text; got != "Renamed" {
		t.Errorf("shown again the row says %q, want %q", got, "Renamed")
	}
}

// TestASnapshotLeavesTheButtonsAlone: a snapshot that changes nothing about
// the selected search redraws no button. Setting the Pause button's words
// and icon on every snapshot redrew it and rendered its icon again each
// time, hidden in the tray too.
func TestASnapshotLeavesTheButtonsAlone(t *testing.T) {
	s := manySearches(2)
	h := newHarness(t, s)
	v := h.u.searches
	v.list.Select(0)
	const mark = "not refreshed"
	d := drawnText(t, v.pause)
	d.Text = mark
	s.At = t0.Add(time.Second)
	s.Searches[1].State = model.StateChecking
	h.publish(s)
	if d.Text != mark {
		t.Errorf("a snapshot that did not touch the selected search redrew the Pause button (it draws %q)", d.Text)
	}
	s.At = t0.Add(2 * time.Second)
	s.Searches[0].State = model.StatePaused
	h.publish(s)
	if v.pause.Text != "Resume" {
		t.Errorf("the selected search is paused and the button says %q, want Resume", v.pause.Text)
	}
}
