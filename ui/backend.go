package ui

import "notifio/internal/api"

// Backend is everything the window needs: the watcher's operations and
// delivery's, as the control API declares them (api.Watcher, api.Delivery;
// the command line calls the same). Implementations are safe for concurrent
// use; the UI calls the slow ones (TestSearch, CheckNow, SendTestEmail) from
// a goroutine, never from a Fyne callback directly.
type Backend interface {
	api.Watcher
	api.Delivery
}

// NewBackend is the window's Backend over the watcher and delivery.
func NewBackend(w api.Watcher, d api.Delivery) Backend {
	return struct {
		api.Watcher
		api.Delivery
	}{w, d}
}
