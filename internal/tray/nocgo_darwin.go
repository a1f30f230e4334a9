//go:build darwin && !cgo

package tray

// A macOS build without cgo (the ci and mobile builds) has no tray: systray
// speaks to Cocoa through cgo.

// HostAnswers reports that this build shows no tray icon.
func HostAnswers() (ok bool, why string) {
	return false, "this build of Notifio has no tray (built without cgo)"
}

// Run is never called without a tray host; it returns at once.
func Run(*Menu, []byte) {}

// Stop does nothing: there is no icon.
func Stop() {}
