package api

import (
	"context"
	"time"

	"notifio/internal/model"
)

// The operations, declared once: the Server serves Watcher and Delivery,
// the Client is both (each operation one request), the window's Backend
// and the command line's backend are the two together. A new operation is
// added here, then to the server's routes and the client.
var (
	_ Watcher  = (*Client)(nil)
	_ Delivery = (*Client)(nil)
)

// Watcher is the watcher's operations (*poll.Service; over the socket,
// *Client). Implementations are safe for concurrent use (the Service has its
// lock); the slow ones (TestSearch, SolveInBrowser, CheckNow) are called off
// any UI goroutine.
type Watcher interface {
	// Subscribe calls fn with a fresh snapshot after every change (from any
	// goroutine) and returns a function that stops the subscription.
	Subscribe(fn func(model.Snapshot)) (cancel func())
	// Snapshot returns the current state.
	Snapshot() model.Snapshot

	AddSearch(ctx context.Context, in model.SearchInput) (model.Search, error)
	UpdateSearch(ctx context.Context, id string, in model.SearchInput) (model.Search, error)
	// Search returns one saved search, selectors and cookie reference
	// included, so an edit starts from what is stored.
	Search(id string) (model.Search, error)
	RemoveSearch(id string) error
	SetPaused(id string, paused bool) error
	PauseAll(paused bool) error
	// CheckNow queues an immediate check; a waiting site returns a *model.WaitError.
	CheckNow(id string) error
	// TestSearch runs one dry-run poll of the URL, saving nothing.
	TestSearch(ctx context.Context, in model.SearchInput) (model.DryRun, error)
	// SiteRate is the total request rate of a site's searches if a search with the
	// given URL and interval were added (or edited, excluding exceptID).
	SiteRate(rawURL string, interval time.Duration, exceptID string) (perMinute float64, warning string)

	Listings(searchID string) ([]model.Listing, error)
	MarkViewed(searchID string) error
	// HeldNowPassing returns the listings the search's filters held back
	// that its filters as saved now let through.
	HeldNowPassing(searchID string) ([]model.Listing, error)
	// ShowHeld moves held-back listings into the search's listings (no email).
	ShowHeld(searchID string, ls []model.Listing) (int, error)

	// ProbeNow lets the user say "I solved the challenge in my browser".
	ProbeNow(site string) (time.Time, error)
	// SolveInBrowser opens a window of the user's browser at the site's page
	// for them to solve its check, and returns when they closed it or
	// SolveDone ended it (over the socket, started is nil).
	SolveInBrowser(ctx context.Context, site string, started func(model.SolveWindow)) (model.SolveResult, error)
	// SolveDone ends the site's open "solve" window as closing it does
	// (the dialog's Done button).
	SolveDone(site string) error
	// BrowserAvailable is nil when a browser is installed for "Read with a
	// browser", else the error saying what to install.
	BrowserAvailable() error
	// BrowserDefault reports whether a new search of the URL's site reads
	// with a browser (as the site's other searches do).
	BrowserDefault(rawURL string) bool
	// RefusalPage is the path of the saved copy of the site's last refusal page.
	RefusalPage(site string) (string, bool)

	// AlertSettings and SetAlertSettings are when the user is told that a
	// search stopped working (SetAlertSettings writes the database).
	AlertSettings() model.AlertSettings
	SetAlertSettings(a model.AlertSettings) error

	// DesktopNotifications and SetDesktopNotifications are whether the
	// watcher shows desktop notifications (a setting of the watcher's, which
	// shows them whether a window is open or not).
	DesktopNotifications() (bool, error)
	SetDesktopNotifications(on bool) error
}

// Delivery is the operations on email and push channels (*notify.Ops; over
// the socket, *Client). Implementations are safe for concurrent use.
type Delivery interface {
	// EmailConfig returns the saved SMTP settings.
	EmailConfig() (model.Config, error)
	// SetEmailConfig saves them and the password (slow: the keyring); the
	// warning says when there is no keyring.
	SetEmailConfig(cfg model.Config, password string) (warning string, err error)
	// SendTestEmail sends a test email ("" password: the saved one).
	SendTestEmail(ctx context.Context, cfg model.Config, password string) error
	// RetryOutbox puts the emails that need attention back in the queue.
	RetryOutbox() error

	// Channels are the push channels with how their pushes are doing.
	Channels() ([]model.ChannelState, error)
	// AddChannel saves a push channel, its URL in the keyring (slow); the
	// warning says when there is no keyring.
	AddChannel(in model.NewChannel) (model.Channel, string, error)
	// TestChannel sends one test push.
	TestChannel(ctx context.Context, name string) error
	// RemoveChannel removes a channel and its URL (slow: the keyring).
	RemoveChannel(name string) (warning string, err error)
}
