package ui

import (
	"errors"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"notifio/notify"

	"notifio/internal/model"
)

// The layouts below are pinned as markup in testdata/. When a change is meant,
// delete the file, run the test, review testdata/failed/<name> and move it back.

func TestMarkupEmptyState(t *testing.T) {
	h := newHarness(t, model.Snapshot{})
	h.u.win.Resize(fyne.NewSize(800, 500))
	test.AssertRendersToMarkup(t, "main_empty.xml", h.u.win.Canvas())
}

func TestMarkupSearches(t *testing.T) {
	s := sample()
	s.Searches = s.Searches[:4]
	s.Outbox = model.OutboxSnapshot{NeedsAttention: 1, LastError: "535 5.7.8 Username and Password not accepted",
		Hint: "Check the username and password in Settings → Email"}
	h := newHarness(t, s)
	h.u.win.Resize(fyne.NewSize(900, 520))
	h.u.searches.selectSearch("a")
	test.AssertRendersToMarkup(t, "main_searches.xml", h.u.win.Canvas())
}

func TestMarkupSites(t *testing.T) {
	h := newHarness(t, sample())
	h.u.win.Resize(fyne.NewSize(900, 900))
	h.u.selectView(viewSites)
	test.AssertRendersToMarkup(t, "sites.xml", h.u.win.Canvas())
}

func TestMarkupAddDialog(t *testing.T) {
	h := newHarness(t, sample())
	h.u.win.Resize(fyne.NewSize(900, 700))
	test.Tap(h.u.searches.add)
	test.Type(h.u.searches.editor.url, "ftp://example.com")
	test.Tap(h.u.searches.editor.saveBtn)
	test.AssertRendersToMarkup(t, "add_dialog.xml", h.u.win.Canvas())
}

func TestMarkupSettingsAfterAFailedTestEmail(t *testing.T) {
	h := newHarness(t, model.Snapshot{})
	h.u.win.Resize(fyne.NewSize(900, 1000))
	h.u.selectView(viewSettings)
	h.b.sendErr = &notify.DeliveryError{Err: errors.New("535 5.7.8 Username and Password not accepted"), Code: 535,
		Hint: "Use an app password: Google account › Security › App passwords"}
	fillEmail(h)
	test.Tap(h.u.settings.testBtn)
	h.q.runNext(t)
	test.AssertRendersToMarkup(t, "settings.xml", h.u.win.Canvas())
}
