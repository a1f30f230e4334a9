package ui

import (
	"testing"

	"fyne.io/fyne/v2/test"

	"notifio/internal/model"
)

// Issue 19, rough edge 13: saving (a database commit, a keyring write of up to
// 20 s) ran in the button's callback and froze the window until it was done.

func TestSaveEmailSettingsRunsOffTheUIGoroutine(t *testing.T) {
	h := newHarness(t, model.Snapshot{})
	h.u.selectView(viewSettings)
	v := h.u.settings
	fillEmail(h)
	gate := make(chan struct{})
	h.b.mu.Lock()
	h.b.saveGate = gate
	h.b.mu.Unlock()
	test.Tap(v.saveBtn)
	h.b.mu.Lock()
	done := len(h.b.saved)
	h.b.mu.Unlock()
	if done != 0 {
		t.Fatal("Save waited for the keyring on the UI goroutine")
	}
	if !v.activity.Visible() || !v.saveBtn.Disabled() {
		t.Errorf("no progress while saving: activity %v, Save disabled %v", v.activity.Visible(), v.saveBtn.Disabled())
	}
	close(gate)
	h.q.runNext(t)
	h.requireText("Email settings saved.")
	if v.activity.Visible() || v.saveBtn.Disabled() {
		t.Errorf("still busy after saving: activity %v, Save disabled %v", v.activity.Visible(), v.saveBtn.Disabled())
	}
}

func TestSaveASearchRunsOffTheUIGoroutine(t *testing.T) {
	h := newHarness(t, model.Snapshot{})
	e := h.u.searches.editor
	test.Tap(h.u.searches.add)
	test.Type(e.url, "https://www.kleinanzeigen.de/s-wohnung-mieten/berlin/c203l3331")
	gate := make(chan struct{})
	h.b.mu.Lock()
	h.b.saveGate = gate
	h.b.mu.Unlock()
	test.Tap(e.saveBtn)
	h.b.mu.Lock()
	done := len(h.b.added)
	h.b.mu.Unlock()
	if done != 0 {
		t.Fatal("Save waited for the database on the UI goroutine")
	}
	if !e.activity.Visible() || !e.saveBtn.Disabled() || !e.testBtn.Disabled() {
		t.Errorf("no progress while saving: activity %v, Save disabled %v, Test disabled %v",
			e.activity.Visible(), e.saveBtn.Disabled(), e.testBtn.Disabled())
	}
	close(gate)
	h.q.runNext(t)
	h.q.runAll()
	if h.u.win.Canvas().Overlays().Top() != nil {
		t.Error("the dialog is still open after the save")
	}
	if h.u.searches.selected != "s1" {
		t.Errorf("the new search is not selected (%q)", h.u.searches.selected)
	}
}
