//go:build !windows

package main

import "syscall"

// detachAttr starts a process in a session of its own: it outlives this one
// and a terminal's hang-up.
func detachAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
