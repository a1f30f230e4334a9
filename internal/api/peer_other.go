//go:build !linux

package api

import "net"

// peerUID is not known here: the socket's mode keeps other users out.
func peerUID(*net.UnixConn) (int, bool) { return 0, false }
