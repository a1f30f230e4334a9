package ui

import (
	"errors"
	"testing"

	"fyne.io/fyne/v2/test"

	"notifio/notify"

	"notifio/internal/model"
)

// Issue 19, rough edge 4: an earlier Test or validation error stayed under the
// next result, and a test email's error under a new validation error.

func TestAddAValidationErrorClearsAnEarlierTestError(t *testing.T) {
	h := newHarness(t, model.Snapshot{})
	e := h.u.searches.editor
	test.Tap(h.u.searches.add)
	test.Type(e.url, "https://www.kleinanzeigen.de/s-wohnung-mieten/berlin/c203l3331")
	h.b.dryRunErr = errors.New("connection refused")
	test.Tap(e.testBtn)
	h.q.runNext(t)
	if e.outcome.Text == "" {
		t.Fatal("the failed test shows nothing")
	}
	e.url.SetText("ftp://example.com/list")
	test.Tap(e.testBtn)
	if !e.problem.Visible() {
		t.Fatal("no validation problem shown")
	}
	if e.outcome.Visible() && e.outcome.Text != "" {
		t.Errorf("the earlier test error stays under the new problem: %q", e.outcome.Text)
	}
}

func TestAddATestResultClearsAnEarlierSaveError(t *testing.T) {
	h := newHarness(t, model.Snapshot{})
	e := h.u.searches.editor
	test.Tap(h.u.searches.add)
	test.Type(e.url, "https://www.kleinanzeigen.de/s-wohnung-mieten/berlin/c203l3331")
	e.interval.SetText("10 seconds")
	test.Tap(e.saveBtn)
	if !e.problem.Visible() {
		t.Fatal("no validation problem shown")
	}
	e.interval.SetText("5 minutes")
	h.b.dryRun = model.DryRun{Outcome: "ok", Message: "The page works: 3 listings."}
	test.Tap(e.testBtn)
	h.q.runNext(t)
	if e.problem.Visible() {
		t.Errorf("the earlier problem stays above the test result: %q", e.problem.Text)
	}
}

func TestSettingsAValidationErrorClearsAnEarlierTestEmailError(t *testing.T) {
	h := newHarness(t, model.Snapshot{})
	h.u.selectView(viewSettings)
	v := h.u.settings
	h.b.sendErr = &notify.DeliveryError{Err: errors.New("535 5.7.8 Username and Password not accepted"), Code: 535}
	fillEmail(h)
	test.Tap(v.testBtn)
	h.q.runNext(t)
	if !v.testResult.Visible() {
		t.Fatal("the failed test email shows nothing")
	}
	v.port.SetText("five-eight-seven")
	test.Tap(v.saveBtn)
	h.q.runAll()
	if !v.problem.Visible() {
		t.Fatal("no validation problem shown")
	}
	if v.testResult.Visible() {
		t.Errorf("the earlier test email error stays under the new problem: %q", v.testResult.Text)
	}
}
