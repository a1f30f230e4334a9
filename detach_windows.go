//go:build windows

package main

import (
	"errors"
	"syscall"
)

// detachAttr starts a process of its own, without a console window, that
// outlives this one.
func detachAttr() *syscall.SysProcAttr {
	const detachedProcess, newProcessGroup = 0x00000008, 0x00000200
	return &syscall.SysProcAttr{CreationFlags: detachedProcess | newProcessGroup, HideWindow: true}
}

// stopProcess cannot ask a process on Windows to stop cleanly (no SIGTERM):
// the watcher is quit from its tray icon there.
func stopProcess(int) error {
	return errors.New("on Windows, quit the watcher from its icon in the tray (Quit Notifio)")
}
