package ui

import "fyne.io/fyne/v2/widget"

// countBusy counts an action starting (delta 1) or ending (-1) in *working
// and shows the activity while any is under way: a view's actions (a save, a
// test) overlap, and the first to end must not hide the other's activity.
func countBusy(a *widget.Activity, working *int, delta int) {
	*working += delta
	if *working > 0 {
		a.Show()
		a.Start()
		return
	}
	a.Stop()
	a.Hide()
}
