//go:build !windows

package fetch

import "syscall"

var unreachableErrnos = []syscall.Errno{
	syscall.ENETUNREACH, syscall.EHOSTUNREACH, syscall.ENETDOWN, syscall.EADDRNOTAVAIL,
}

func errnoReason(e syscall.Errno) string {
	switch e {
	case syscall.ECONNREFUSED:
		return "connection refused"
	case syscall.ECONNRESET:
		return "connection reset"
	case syscall.ENETUNREACH:
		return "network unreachable"
	case syscall.EHOSTUNREACH:
		return "no route to host"
	case syscall.ENETDOWN:
		return "network is down"
	case syscall.EADDRNOTAVAIL:
		return "no usable local network address"
	case syscall.EPIPE:
		return "connection closed early"
	}
	return ""
}
