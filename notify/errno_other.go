//go:build !windows

package notify

import (
	"errors"
	"syscall"
)

// isConnRefused reports a refused TCP connection.
func isConnRefused(err error) bool { return errors.Is(err, syscall.ECONNREFUSED) }

// isConnBroken reports a connection reset or closed under us.
func isConnBroken(err error) bool {
	return errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ECONNABORTED)
}
