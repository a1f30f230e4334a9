//go:build !unix

package poll

import "time"

var started = time.Now()

// cpuTime is, where there is no getrusage (Windows), the wall time since the
// test binary started: the steady-state figures are measured on Linux.
func cpuTime() time.Duration { return time.Since(started) }
