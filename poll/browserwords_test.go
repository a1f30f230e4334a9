package poll

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"notifio/poll/browser"

	"notifio/poll/words"
)

func TestBrowserErrorsSpeakToTheUser(t *testing.T) {
	cases := []struct {
		err  error
		want string // "" when the error is not the user's to act on
	}{
		{&browser.NotInstalledError{Hint: "install Chromium (sudo apt install chromium)"}, "No browser that Notifio can use is installed (Chrome, Chromium, Edge or Brave). Install Chromium (sudo apt install chromium)."},
		{fmt.Errorf("%w: this computer shows no desktop (no display)", browser.ErrNoWindow), "Open idealista.com in your own browser, solve the check there"},
		{browser.ErrWindowOpen, "A window for solving a check is open already. Finish there and close it first."},
		{errors.New("browser: start the browser: exec format error"), ""},
	}
	for _, c := range cases {
		err := fmt.Errorf("poll: open a window to solve the check: %w", BrowserError(c.err, "idealista.com"))
		words, ok := words.UserWords(err)
		if c.want == "" {
			if ok {
				t.Errorf("%v: worded as %q, want it left to the log", c.err, words)
			}
			continue
		}
		if !ok || !strings.Contains(words, c.want) || strings.Contains(words, "browser:") {
			t.Errorf("%v: the user reads %q (%v), want %q and no package prefix", c.err, words, ok, c.want)
		}
		if !errors.Is(err, c.err) && !errors.Is(err, browser.ErrNotInstalled) {
			t.Errorf("%v: the cause is lost for errors.Is", c.err)
		}
	}
	if BrowserError(nil, "x") != nil {
		t.Error("BrowserError(nil) is not nil")
	}
}
