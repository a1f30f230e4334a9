package ui

import (
	"errors"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"notifio/notify"

	"notifio/internal/model"
)

// fillEmail fills the email form as a Gmail user would.
func fillEmail(h *harness) {
	v := h.u.settings
	v.preset.SetSelected("Gmail")
	test.Type(v.username, "anna@gmail.com")
	test.Type(v.password, "abcd efgh ijkl mnop") // From follows the username
	test.Type(v.to, "anna@gmail.com, ben@example.org")
}

func TestEmailPresetFillsTheServer(t *testing.T) {
	h := newHarness(t, model.Snapshot{})
	h.u.selectView(viewSettings)
	v := h.u.settings
	v.preset.SetSelected("Fastmail")
	if v.host.Text != "smtp.fastmail.com" || v.port.Text != "465" || v.security.Selected != "TLS (usually port 465)" {
		t.Errorf("Fastmail preset gave %q %q %q", v.host.Text, v.port.Text, v.security.Selected)
	}
	if !strings.Contains(v.presetHint.Text, "app password") {
		t.Errorf("preset hint = %q", v.presetHint.Text)
	}
}

func TestSaveEmailSettingsShowsTheKeyringWarning(t *testing.T) {
	h := newHarness(t, model.Snapshot{})
	h.u.selectView(viewSettings)
	h.b.warning = "No system keyring was found; the password is kept in a file only you can read."
	fillEmail(h)
	test.Tap(h.u.settings.saveBtn)
	h.q.runNext(t) // the save runs off the UI goroutine
	if len(h.b.saved) != 1 {
		t.Fatalf("SetEmailConfig calls = %d", len(h.b.saved))
	}
	got := h.b.saved[0]
	if got.Host != "smtp.gmail.com" || got.Port != 587 || got.Security != model.SecurityStartTLS ||
		strings.Join(got.To, "|") != "anna@gmail.com|ben@example.org" || h.b.passwords[0] != "abcd efgh ijkl mnop" {
		t.Errorf("saved %+v with password %q", got, h.b.passwords[0])
	}
	h.requireText("No system keyring was found")
	if h.u.settings.password.Text != "" {
		t.Error("the password stays in the form after saving")
	}
}

func TestInvalidEmailSettingsAreNotSentOrSaved(t *testing.T) {
	h := newHarness(t, model.Snapshot{})
	h.u.selectView(viewSettings)
	v := h.u.settings
	test.Type(v.from, "anna@gmail.com")
	test.Tap(v.testBtn)
	test.Tap(v.saveBtn)
	if len(h.b.sent) != 0 || len(h.b.saved) != 0 {
		t.Fatalf("invalid settings went out: sent %d, saved %d", len(h.b.sent), len(h.b.saved))
	}
	for _, want := range []string{"Enter the SMTP server", "Enter at least one recipient"} {
		if !strings.Contains(v.problem.Text, want) {
			t.Errorf("problems %q lack %q", v.problem.Text, want)
		}
	}
}

func TestSendTestEmailSuccess(t *testing.T) {
	h := newHarness(t, model.Snapshot{})
	h.u.selectView(viewSettings)
	fillEmail(h)
	test.Tap(h.u.settings.testBtn)
	if !h.u.settings.activity.Visible() || !h.u.settings.testBtn.Disabled() {
		t.Error("no activity shown while sending")
	}
	h.q.runNext(t)
	h.requireText("Test email sent to anna@gmail.com, ben@example.org.")
	if h.u.settings.activity.Visible() || h.u.settings.testBtn.Disabled() {
		t.Error("activity still on after sending")
	}
	if len(h.b.sent) != 1 || h.b.sent[0].Host != "smtp.gmail.com" {
		t.Errorf("SendTestEmail got %+v", h.b.sent)
	}
}

func TestSendTestEmailFailureShowsTheServersWordsAndAHint(t *testing.T) {
	h := newHarness(t, model.Snapshot{})
	h.u.selectView(viewSettings)
	h.b.sendErr = &notify.DeliveryError{
		Err:  errors.New("535 5.7.8 Username and Password not accepted"),
		Code: 535,
		Hint: "Use an app password: Google account › Security › App passwords",
	}
	fillEmail(h)
	test.Tap(h.u.settings.testBtn)
	h.q.runNext(t)
	h.requireText("The test email was not sent: 535 5.7.8 Username and Password not accepted")
	h.requireText("What to do: Use an app password")
}

func TestDefaultIntervalIsUsedForNewSearches(t *testing.T) {
	h := newHarness(t, model.Snapshot{})
	h.u.selectView(viewSettings)
	h.u.settings.interval.SetText("20 seconds")
	if !h.u.settings.intervalProblem.Visible() {
		t.Error("a 20 s default was accepted")
	}
	h.u.settings.interval.SetText("10 minutes")
	if h.u.settings.intervalProblem.Visible() {
		t.Error("a 10 minute default was refused")
	}
	test.Tap(h.u.searches.add)
	if got := h.u.searches.editor.interval.Text; got != "10 minutes" {
		t.Errorf("a new search starts at %q, want the chosen default", got)
	}
	if got := h.u.defaultInterval(); got != 10*time.Minute {
		t.Errorf("defaultInterval = %v", got)
	}
}

// Issue 37, item 8: after a provider preset, From follows the username (GMX
// left it empty until a red error), and a From the user wrote stays.
func TestFromFollowsTheUsernameAfterAPreset(t *testing.T) {
	h := newHarness(t, model.Snapshot{})
	h.u.selectView(viewSettings)
	v := h.u.settings
	v.preset.SetSelected("GMX")
	test.Type(v.username, "anna@gmx.de")
	if v.from.Text != "anna@gmx.de" {
		t.Fatalf("From is %q, want the username", v.from.Text)
	}
	test.Type(v.to, "anna@gmx.de")
	if _, err := v.config(); err != nil {
		t.Errorf("the GMX settings are refused: %v", err)
	}
	v.from.SetText("Anna <wohnung@gmx.de>")
	v.username.SetText("anna.b@gmx.de")
	if v.from.Text != "Anna <wohnung@gmx.de>" {
		t.Errorf("the user's own From was replaced by %q", v.from.Text)
	}
}
