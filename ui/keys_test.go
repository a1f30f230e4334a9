package ui

import (
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"notifio/internal/model"
)

// Issue 19, rough edges 6 and 11: Escape closes a dialog and Enter submits it;
// the remove confirmation's destructive button is in the danger style.

// press sends a key to the window as a key no widget took.
func press(h *harness, key fyne.KeyName) {
	h.u.win.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: key})
}

func TestEscapeClosesAndEnterSavesTheAddDialog(t *testing.T) {
	h := newHarness(t, model.Snapshot{})
	e := h.u.searches.editor
	test.Tap(h.u.searches.add)
	press(h, fyne.KeyEscape)
	if h.u.win.Canvas().Overlays().Top() != nil {
		t.Fatal("Escape did not close the add dialog")
	}

	test.Tap(h.u.searches.add)
	test.Type(e.url, "https://www.kleinanzeigen.de/s-wohnung-mieten/berlin/c203l3331")
	// Escape while typing in the address (a focused entry gets every key).
	e.url.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if h.u.win.Canvas().Overlays().Top() != nil {
		t.Fatal("Escape in the address field did not close the add dialog")
	}
	if len(h.b.added) != 0 {
		t.Fatal("Escape saved the search")
	}

	test.Tap(h.u.searches.add)
	test.Type(e.url, "https://www.kleinanzeigen.de/s-wohnung-mieten/berlin/c203l3331")
	e.url.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	// The save runs off the UI goroutine; its answer closes the dialog.
	h.q.runUntil(t, "the dialog to close after Enter saved the search", func() bool {
		return h.u.win.Canvas().Overlays().Top() == nil
	})
	if len(h.b.added) != 1 {
		t.Fatalf("Enter in the address field saved %d searches, want 1", len(h.b.added))
	}
}

func TestEscapeKeepsAndEnterRemovesInTheRemoveConfirmation(t *testing.T) {
	h := newHarness(t, sample())
	h.u.searches.selectSearch("f")
	test.Tap(h.u.searches.remove)
	if b := h.button("Remove"); b.Importance != widget.DangerImportance {
		t.Errorf("the destructive button has importance %v, want danger", b.Importance)
	}
	press(h, fyne.KeyEscape)
	if h.u.win.Canvas().Overlays().Top() != nil || len(h.b.removed) != 0 {
		t.Fatalf("Escape: dialog still open %v, removed %v", h.u.win.Canvas().Overlays().Top() != nil, h.b.removed)
	}
	test.Tap(h.u.searches.remove)
	press(h, fyne.KeyReturn)
	if !slices.Equal(h.b.removed, []string{"f"}) {
		t.Errorf("Enter removed %v, want [f]", h.b.removed)
	}
}

func TestEnterAndEscapeCloseAMessage(t *testing.T) {
	h := newHarness(t, sample())
	for _, key := range []fyne.KeyName{fyne.KeyEscape, fyne.KeyReturn, fyne.KeyEnter} {
		h.u.showMessage("Not yet", "The site asked us to wait.")
		press(h, key)
		if h.u.win.Canvas().Overlays().Top() != nil {
			t.Errorf("%s did not close the message", key)
		}
	}
}
