//go:build windows

package fetch

import "syscall"

// Winsock error codes (winerror.h); syscall's ENETUNREACH & co. are invented
// values on Windows and never returned by the network stack.
const (
	wsaENETDOWN      syscall.Errno = 10050
	wsaENETUNREACH   syscall.Errno = 10051
	wsaECONNRESET    syscall.Errno = 10054
	wsaECONNREFUSED  syscall.Errno = 10061
	wsaEHOSTUNREACH  syscall.Errno = 10065
	wsaEADDRNOTAVAIL syscall.Errno = 10049
)

var unreachableErrnos = []syscall.Errno{
	wsaENETUNREACH, wsaEHOSTUNREACH, wsaENETDOWN, wsaEADDRNOTAVAIL,
}

func errnoReason(e syscall.Errno) string {
	switch e {
	case wsaECONNREFUSED, syscall.ECONNREFUSED:
		return "connection refused"
	case wsaECONNRESET, syscall.ECONNRESET:
		return "connection reset"
	case wsaENETUNREACH:
		return "network unreachable"
	case wsaEHOSTUNREACH:
		return "no route to host"
	case wsaENETDOWN:
		return "network is down"
	case wsaEADDRNOTAVAIL:
		return "no usable local network address"
	}
	return ""
}
