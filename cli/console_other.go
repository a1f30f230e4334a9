//go:build !windows

package cli

// AttachConsole does nothing outside Windows: the terminal is already there.
func AttachConsole() {}
