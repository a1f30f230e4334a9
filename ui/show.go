package ui

// Show shows the window. Use it instead of ShowAndRun when the app's event loop
// is already running or is run by the caller.
func (u *UI) Show() { u.show() }
