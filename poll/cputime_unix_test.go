//go:build unix

package poll

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time the process has used (user and system), garbage
// collection on other threads included.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
