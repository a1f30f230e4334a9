//go:build !windows

package main

import (
	"fmt"
	"os"
	"syscall"
)

// detachAttr starts a process in a session of its own: it outlives this one
// and a terminal's hang-up.
func detachAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }

// stopProcess asks the process pid to stop cleanly (SIGTERM: the watcher
// finishes its save and removes its socket).
func stopProcess(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return fmt.Errorf("find the watcher (pid %d): %w", pid, err)
	}
	if err := p.Signal(syscall.SIGTERM); err != nil {
		return fmt.Errorf("stop the watcher (pid %d): %w", pid, err)
	}
	return nil
}
