package tray

import (
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"notifio/internal/model"
)

// fakeWatcher is the watcher as the tray sees it: snapshots it publishes and
// the searches' paused state.
type fakeWatcher struct {
	mu       sync.Mutex
	snap     model.Snapshot
	subs     []func(model.Snapshot)
	pauseErr error
	pauses   []bool
}

func (f *fakeWatcher) Snapshot() model.Snapshot {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.snap
}

func (f *fakeWatcher) Subscribe(fn func(model.Snapshot)) func() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.subs = append(f.subs, fn)
	return func() {}
}

func (f *fakeWatcher) PauseAll(paused bool) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.pauses = append(f.pauses, paused)
	if f.pauseErr != nil {
		return f.pauseErr
	}
	f.snap.At = f.snap.At.Add(time.Second)
	for i := range f.snap.Searches {
		f.snap.Searches[i].State = model.StateScheduled
		if paused {
			f.snap.Searches[i].State = model.StatePaused
		}
	}
	return nil
}

func (f *fakeWatcher) publish(s model.Snapshot) {
	f.mu.Lock()
	f.snap = s
	subs := slices.Clone(f.subs)
	f.mu.Unlock()
	for _, fn := range subs {
		fn(s)
	}
}

var t0 = time.Date(2026, 12, 4, 12, 0, 0, 0, time.UTC)

func twoSearches() model.Snapshot {
	return model.Snapshot{At: t0, Searches: []model.SearchSnapshot{
		{ID: "a", Name: "Kreuzberg", State: model.StateScheduled},
		{ID: "b", Name: "Madrid centro", State: model.StateScheduled},
	}}
}

func labels(items []Item) []string {
	var l []string
	for _, it := range items {
		l = append(l, it.Label)
	}
	return l
}

func TestMenuSaysAndDoes(t *testing.T) {
	w := &fakeWatcher{snap: twoSearches()}
	opened, quit := 0, 0
	m, cancel := NewMenu(w, Options{Open: func() error { opened++; return nil }, Quit: func() { quit++ }})
	defer cancel()
	changes := 0
	m.onChange(func() { changes++ })

	items := m.Items()
	want := []string{"All searches are working", "", "Open Notifio", "Pause all searches", "", "Quit Notifio (stop watching)"}
	if !slices.Equal(labels(items), want) {
		t.Fatalf("menu %q, want %q", labels(items), want)
	}
	if items[itemHealth].Enabled {
		t.Error("the health line can be clicked")
	}
	items[itemOpen].Action()
	if opened != 1 {
		t.Errorf("Open Notifio started the window %d times", opened)
	}
	items[itemPause].Action()
	if !slices.Equal(w.pauses, []bool{true}) || changes == 0 {
		t.Fatalf("Pause all: PauseAll(%v), %d changes", w.pauses, changes)
	}
	items = m.Items()
	if items[itemPause].Label != "Resume all searches" || items[itemHealth].Label != "All searches are paused" {
		t.Fatalf("after pausing: %q", labels(items))
	}
	items[itemPause].Action()
	if !slices.Equal(w.pauses, []bool{true, false}) {
		t.Fatalf("Resume all: PauseAll(%v)", w.pauses)
	}
	m.Items()[itemQuit].Action()
	if quit != 1 {
		t.Errorf("Quit stopped the watcher %d times", quit)
	}
}

func TestMenuFollowsHealth(t *testing.T) {
	w := &fakeWatcher{snap: model.Snapshot{At: t0}}
	m, cancel := NewMenu(w, Options{})
	defer cancel()
	if got := m.Items(); got[itemHealth].Label != "No searches yet" || got[itemPause].Enabled {
		t.Fatalf("no searches: %q, pause enabled %v", got[itemHealth].Label, got[itemPause].Enabled)
	}
	s := twoSearches()
	s.At = t0.Add(time.Minute)
	s.Searches[1].Health = model.Health{Kind: model.HealthBlocked, Problem: "idealista.com is rate-limiting us"}
	w.publish(s)
	if got := m.Items()[itemHealth].Label; got != "Madrid centro: idealista.com is rate-limiting us" {
		t.Fatalf("one blocked: %q", got)
	}
	if got := m.Tooltip(); got != "Notifio: Madrid centro: idealista.com is rate-limiting us" {
		t.Fatalf("tooltip %q", got)
	}
	s.At = t0.Add(2 * time.Minute)
	s.Searches[0].Health = model.Health{Kind: model.HealthSessionExpired, Problem: "log in again"}
	w.publish(s)
	if got := m.Items()[itemHealth].Label; got != "2 searches need you" {
		t.Fatalf("two troubled: %q", got)
	}
	old := twoSearches() // overtaken on its way: ignored
	w.publish(old)
	if got := m.Items()[itemHealth].Label; got != "2 searches need you" {
		t.Fatalf("an older snapshot won: %q", got)
	}
}

func TestPauseFailureKeepsTheMenu(t *testing.T) {
	w := &fakeWatcher{snap: twoSearches(), pauseErr: errors.New("disk full")}
	m, cancel := NewMenu(w, Options{})
	defer cancel()
	m.Items()[itemPause].Action()
	if got := m.Items()[itemPause].Label; got != "Pause all searches" {
		t.Fatalf("after a failed pause the menu offers %q", got)
	}
}
