package ui

import (
	"os"
	"path/filepath"
)

// trayHostLikely reports whether a tray can work here. On Linux the tray speaks
// D-Bus (StatusNotifierItem); without a session bus Fyne's systray cannot show an
// icon and panics on quit, and "close to tray" would hide the window for good.
func trayHostLikely() bool {
	if os.Getenv("DBUS_SESSION_BUS_ADDRESS") != "" {
		return true
	}
	if rt := os.Getenv("XDG_RUNTIME_DIR"); rt != "" {
		if _, err := os.Stat(filepath.Join(rt, "bus")); err == nil {
			return true
		}
	}
	return false
}
