package words

import "notifio/internal/model"

// A page that shows its listings only with JavaScript (poll/needsbrowser.go
// finds it): its words.

// SignalNeedsBrowser is the evidence of an unexpected page that is a script
// shell: its text is nearly empty and it runs scripts.
const SignalNeedsBrowser = "no listings, the page is built by scripts"

// MessageNeedsBrowser is what a test of such a page (Test this search,
// `notifio check`, `notifio once`) says.
const MessageNeedsBrowser = "This page needs a browser: it shows its listings only with JavaScript. " +
	"Tick \u201cRead with a browser\u201d (Edit, then Advanced; notifio search edit ID --browser) and Notifio reads it in your own Chrome, Chromium, Edge or Brave."

// NeedsBrowser reports whether a last answer (its outcome and evidence) was a
// page that shows its listings only with a browser.
func NeedsBrowser(outcome model.Outcome, signal string) bool {
	return outcome == model.OutcomeUnexpectedPage && signal == SignalNeedsBrowser
}
