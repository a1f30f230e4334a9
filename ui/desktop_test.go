package ui

import (
	"errors"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
)

// fakeDesktop is the fake backend's desktop notification setting (the
// shared fake stays as it is).
type fakeDesktop struct {
	mu   sync.Mutex
	off  bool
	sets chan bool // every SetDesktopNotifications, as it came
	fail error
}

var fakeDesktops sync.Map // *fakeBackend → *fakeDesktop

func (f *fakeBackend) desk() *fakeDesktop {
	v, _ := fakeDesktops.LoadOrStore(f, &fakeDesktop{sets: make(chan bool, 8)})
	return v.(*fakeDesktop)
}

func (f *fakeBackend) DesktopNotifications() (bool, error) {
	d := f.desk()
	d.mu.Lock()
	defer d.mu.Unlock()
	return !d.off, nil
}

func (f *fakeBackend) SetDesktopNotifications(on bool) error {
	d := f.desk()
	d.mu.Lock()
	defer d.mu.Unlock()
	d.sets <- on
	if d.fail != nil {
		return d.fail
	}
	d.off = !on
	return nil
}

// Settings' desktop notification box is the watcher's setting (it was a
// Fyne preference of the window, which the watcher could not read): it
// shows what the watcher has, a change goes to the watcher, and a change
// the watcher could not save is said and undone.
func TestDesktopNotificationsAreTheWatchersSetting(t *testing.T) {
	h := newHarness(t, sample())
	if !h.u.settings.notifications.Checked {
		t.Fatal("the box is off while the watcher shows notifications")
	}
	test.Tap(h.u.settings.notifications) // off
	h.q.runAll()
	d := h.b.desk()
	select {
	case on := <-d.sets:
		if on {
			t.Fatal("unticking the box asked the watcher to turn notifications on")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("unticking the box did not reach the watcher")
	}
	if on, _ := h.b.DesktopNotifications(); on {
		t.Fatal("unticking the box left the watcher's notifications on")
	}

	d.mu.Lock()
	d.fail = errors.New("poll: save the desktop notification setting: disk full")
	d.mu.Unlock()
	test.Tap(h.u.settings.notifications) // on, which fails
	h.q.runNext(t)
	if h.u.settings.notifications.Checked {
		t.Error("the box shows on although the watcher could not save it")
	}
	h.requireText("Could not change desktop notifications")

	h2 := newHarness(t, sample()) // another window over a watcher with them off
	h2.b.desk().off = true
	u2 := New(h2.app, h2.b, Options{Now: h2.clock.Now, Dispatch: h2.q.dispatch})
	t.Cleanup(u2.Close)
	if u2.settings.notifications.Checked {
		t.Error("a new window shows notifications on while the watcher has them off")
	}
}

// An older window kept "off" in its Fyne preferences: the first window of
// this version hands it to the watcher, once, so upgrading does not turn
// notifications on again.
func TestOldDesktopChoiceMovesToTheWatcher(t *testing.T) {
	h := newHarness(t, sample())
	h.app.Preferences().SetBool(oldPrefNotifications, false)
	u2 := New(h.app, h.b, Options{Now: h.clock.Now, Dispatch: h.q.dispatch})
	t.Cleanup(u2.Close)
	if on, _ := h.b.DesktopNotifications(); on || u2.settings.notifications.Checked {
		t.Fatal("the older window's \"off\" did not reach the watcher")
	}
	if !h.app.Preferences().BoolWithFallback(oldPrefNotifications, true) {
		t.Error("the old preference is still there: it would be handed over again")
	}
}
