//go:build windows

package main

import "syscall"

// detachAttr starts a process of its own, without a console window, that
// outlives this one.
func detachAttr() *syscall.SysProcAttr {
	const detachedProcess, newProcessGroup = 0x00000008, 0x00000200
	return &syscall.SysProcAttr{CreationFlags: detachedProcess | newProcessGroup, HideWindow: true}
}
