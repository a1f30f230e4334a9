package ui

// Show shows the window, or leaves Notifio in the tray when the user chose to
// start minimised and the platform has a tray. Use it instead of ShowAndRun when
// the app's event loop is already running or is run by the caller.
func (u *UI) Show() {
	if !u.startHidden || u.tray == nil {
		u.show()
	}
}
