package api

import (
	"fmt"
	"net"
	"os"
)

// listenPrivate listens on path. Windows gives the socket file the folder's
// permissions (the data directory is the user's own).
func listenPrivate(path string) (net.Listener, error) { return net.Listen("unix", path) }

// checkOwner checks that the socket exists; its folder's permissions keep
// other users out.
func checkOwner(path string) error {
	if _, err := os.Lstat(path); err != nil {
		return fmt.Errorf("%w (%s): %w", ErrNotRunning, path, err)
	}
	return nil
}
