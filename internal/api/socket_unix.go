//go:build !windows

package api

import (
	"fmt"
	"net"
	"os"
	"syscall"
)

// listenPrivate listens on path with a socket only its owner may open: the
// umask is tightened around the bind so that the file is never, even for a
// moment, open to others.
func listenPrivate(path string) (net.Listener, error) {
	old := syscall.Umask(0o177)
	l, err := net.Listen("unix", path)
	syscall.Umask(old)
	if err != nil {
		return nil, err
	}
	if err := os.Chmod(path, 0o600); err != nil {
		l.Close()
		return nil, err
	}
	return l, nil
}

// checkOwner refuses a socket that is not this user's.
func checkOwner(path string) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return fmt.Errorf("%w (%s): %w", ErrNotRunning, path, err)
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() {
		return fmt.Errorf("api: the socket %s belongs to another user (uid %d); Notifio talks only to its own user's watcher", path, st.Uid)
	}
	return nil
}
