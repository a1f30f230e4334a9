package poll

import (
	"testing"
	"time"

	"notifio/storage"
)

// The user's choice about desktop notifications is a watcher setting (it
// was the window's Fyne preference, which the watcher, a process of its own,
// could not read): off, the watcher shows none for new listings; on, it
// does; the choice survives a restart.
func TestDesktopNotificationsFollowTheWatchersSetting(t *testing.T) {
	h := newHarness(t, "")
	a := newSite(t, "127.0.0.2", "1")
	h.add("Kreuzberg", a.srv.URL+"/s", time.Minute)
	h.pollNext(time.Hour) // baseline
	if on, err := h.svc.DesktopNotifications(); !on || err != nil {
		t.Fatalf("desktop notifications by default: %v %v, want on", on, err)
	}
	if err := h.svc.SetDesktopNotifications(false); err != nil {
		t.Fatal(err)
	}
	h.reopen(storage.Options{}) // a restart
	if on, _ := h.svc.DesktopNotifications(); on {
		t.Fatal("desktop notifications are on again after a restart")
	}
	a.add("2")
	h.pollNext(time.Hour)
	if n := h.notesWith("new on Kreuzberg"); n != 0 || len(h.outbox()) != 1 {
		t.Fatalf("notifications off: %d desktop notifications %q, %d digests; want none and the email", n, h.notes, len(h.outbox()))
	}
	if err := h.svc.SetDesktopNotifications(true); err != nil {
		t.Fatal(err)
	}
	a.add("3")
	h.pollNext(time.Hour)
	if n := h.notesWith("1 new on Kreuzberg"); n != 1 {
		t.Errorf("notifications on: desktop notifications %q, want one", h.notes)
	}
}
