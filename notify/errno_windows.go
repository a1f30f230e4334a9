package notify

import (
	"errors"
	"syscall"
)

// Winsock error codes; syscall.ECONNREFUSED and friends never match them.
const (
	wsaECONNABORTED syscall.Errno = 10053
	wsaECONNRESET   syscall.Errno = 10054
	wsaECONNREFUSED syscall.Errno = 10061
	errorBrokenPipe syscall.Errno = 109 // ERROR_BROKEN_PIPE
)

// isConnRefused reports a refused TCP connection.
func isConnRefused(err error) bool {
	return errors.Is(err, wsaECONNREFUSED) || errors.Is(err, syscall.ECONNREFUSED)
}

// isConnBroken reports a connection reset or closed under us.
func isConnBroken(err error) bool {
	return errors.Is(err, wsaECONNRESET) || errors.Is(err, wsaECONNABORTED) ||
		errors.Is(err, errorBrokenPipe) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)
}
