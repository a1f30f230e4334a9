package main

import (
	"notifio/internal/api"
	"notifio/ui"
)

// The window can take the API's client as its backend: attached to a running
// watcher, it calls the same operations over the socket.
var _ ui.Backend = (*api.Client)(nil)
