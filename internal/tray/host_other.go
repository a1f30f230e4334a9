//go:build !((linux || freebsd || openbsd || netbsd) && !android) && !(darwin && !cgo)

package tray

import "log/slog"

// HostAnswers reports whether a tray shows icons here: Windows and macOS
// always have one.
func HostAnswers() (ok bool, why string) { return true, "" }

// Notifier: desktop notifications from the watcher on Windows and macOS are
// not done yet (the window's Fyne did them when the watcher lived in it).
func Notifier(*slog.Logger) func(title, body string) { return nil }
