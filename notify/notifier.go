package notify

// Notifier is the desktop-notification channel, the second way Notifio tells the
// user about new listings (email being the first). The UI provides the
// implementation, backed by Fyne's App.SendNotification; this package only defines
// the interface so that the poller can be tested without a window.
//
// Notify must not block for long and must be safe to call from any goroutine.
// title and body are plain text; an implementation must not interpret markup in
// them (they contain listing titles, which come from web pages).
type Notifier interface {
	Notify(title, body string)
}

// NotifierFunc adapts a function to the Notifier interface.
type NotifierFunc func(title, body string)

// Notify calls f(title, body).
func (f NotifierFunc) Notify(title, body string) { f(title, body) }
