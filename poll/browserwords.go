package poll

import (
	"errors"

	"notifio/poll/browser"

	"notifio/internal/model"
)

// BrowserError gives an error of the user's browser the user's words, as a
// *UserError, where they can act on it: no browser installed, no window can be
// opened on this computer, a window for a check is open already. Other
// errors are returned as they are (the window says them plainly and logs
// them). SolveInBrowser and BrowserAvailable return their errors through it.
func BrowserError(err error, site string) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, browser.ErrNotInstalled):
		hint := "Install one of them."
		var ni *browser.NotInstalledError
		if errors.As(err, &ni) && ni.Hint != "" {
			hint = sentence(ni.Hint)
		}
		return model.NewUserError(err, "No browser that Notifio can use is installed (Chrome, Chromium, Edge or Brave).",
			hint+" Until then Notifio reads pages without a browser.")
	case errors.Is(err, browser.ErrWindowOpen):
		return model.NewUserError(err, "A window for solving a check is open already.", "Finish there and close it first.")
	case errors.Is(err, browser.ErrNoWindow):
		return model.NewUserError(err, "Notifio cannot open a browser window on this computer.",
			"Open "+site+" in your own browser, solve the check there, then press “I solved it — probe now”.")
	}
	return err
}
