//go:build !linux

package ui

// trayHostLikely reports whether a tray can work here: Windows and macOS always
// have one.
func trayHostLikely() bool { return true }
