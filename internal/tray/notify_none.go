//go:build !windows && !darwin && !((linux || freebsd || openbsd || netbsd) && !android)

package tray

import "log/slog"

// Notifier: no desktop notifications on this system.
func Notifier(*slog.Logger) func(title, body string) { return nil }
