package ui

import (
	"errors"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"

	"notifio/notify"

	"notifio/internal/model"
)

// Issue 19, rough edge 5: at 800×600 the add dialog's test result had no
// height once Advanced was open, and Settings' Save and Test were below the
// fold.

// onScreen reports whether the user sees all of o: it is drawn (on the top
// overlay, or the window when none) whole inside the window and every scroll
// it sits in.
func onScreen(h *harness, o fyne.CanvasObject) bool {
	c := h.u.win.Canvas()
	root := c.Content()
	if top := c.Overlays().Top(); top != nil {
		root = top
	}
	shown, found := visibleHeight(root, o, fyne.NewPos(0, 0), 0, c.Size().Height)
	return found && o.Size().Height > 0 && shown >= o.Size().Height-1
}

// visibleHeight finds target under o (at pos) and returns how much of its
// height lies between top and bottom, the clip of the scrolls above it.
func visibleHeight(o, target fyne.CanvasObject, pos fyne.Position, top, bottom float32) (float32, bool) {
	if o == nil || !o.Visible() {
		return 0, false
	}
	pos = pos.Add(o.Position())
	if o == target {
		return max(0, min(bottom, pos.Y+o.Size().Height)-max(top, pos.Y)), true
	}
	var children []fyne.CanvasObject
	switch w := o.(type) {
	case *container.Scroll:
		top, bottom = max(top, pos.Y), min(bottom, pos.Y+w.Size().Height)
		children = []fyne.CanvasObject{w.Content} // (placed at -Offset already)
	case *fyne.Container:
		children = w.Objects
	case fyne.Widget:
		children = test.WidgetRenderer(w).Objects()
	}
	for _, ch := range children {
		if s, ok := visibleHeight(ch, target, pos, top, bottom); ok {
			return s, true
		}
	}
	return 0, false
}

func TestAddTestResultIsShownAt800x600WithAdvancedOpen(t *testing.T) {
	h := newHarness(t, model.Snapshot{})
	h.u.win.Resize(fyne.NewSize(800, 600))
	e := h.u.searches.editor
	test.Tap(h.u.searches.add)
	e.advanced.Open(0)
	test.Type(e.url, "https://www.kleinanzeigen.de/s-wohnung-mieten/berlin/c203l3331")
	h.b.dryRun = model.DryRun{Outcome: "ok", Message: "The page works: 2 listings.",
		Listings: []model.PageListing{{Title: "2-Zimmer in Kreuzberg"}, {Title: "Altbau in Neukölln"}}}
	test.Tap(e.testBtn)
	h.q.runNext(t)
	if e.outcome.Size().Height <= 0 {
		t.Fatalf("the test result has height %v", e.outcome.Size().Height)
	}
	if !onScreen(h, e.outcome) {
		t.Errorf("the test result %q is not on screen", e.outcome.Text)
	}
	for _, b := range []fyne.CanvasObject{e.saveBtn, e.testBtn, e.cancel} {
		if !onScreen(h, b) {
			t.Errorf("a dialog button is off screen at %v", fyne.CurrentApp().Driver().AbsolutePositionForObject(b))
		}
	}
}

func TestSettingsSaveAndTestAreOnScreenAt800x600(t *testing.T) {
	h := newHarness(t, model.Snapshot{})
	h.u.win.Resize(fyne.NewSize(800, 600))
	h.u.selectView(viewSettings)
	v := h.u.settings
	v.preset.SetSelected("Gmail") // its hint takes two lines above the form
	for name, b := range map[string]fyne.CanvasObject{"Save": v.saveBtn, "Send test email": v.testBtn} {
		if !onScreen(h, b) {
			t.Errorf("%s is off screen: at %v in a %v window", name,
				fyne.CurrentApp().Driver().AbsolutePositionForObject(b), h.u.win.Canvas().Size())
		}
	}
	// What the buttons did shows too, without scrolling.
	h.b.sendErr = &notify.DeliveryError{Err: errors.New("535 5.7.8 Username and Password not accepted"), Code: 535,
		Hint: "Use an app password: Google account › Security › App passwords"}
	fillEmail(h)
	test.Tap(v.testBtn)
	h.q.runNext(t)
	if !onScreen(h, v.testResult) {
		t.Errorf("the test email's result %q is off screen", v.testResult.Text)
	}
}
