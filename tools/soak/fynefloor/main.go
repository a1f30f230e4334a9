// Command fynefloor is the CPU floor of a Fyne window on this machine: an app
// with one label and a tray menu that does nothing at all, shown or started
// hidden in the tray as Notifio's window can be. soak.sh runs it after the
// window, so the window's figures can be read against what Fyne itself costs
// (docs/PERFORMANCE.md, "Window soak").
//
//	fynefloor [-hidden]
package main

import (
	"flag"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

func main() {
	hidden := flag.Bool("hidden", false, "start hidden in the tray (the window is never shown)")
	flag.Parse()
	a := app.NewWithID("app.notifio.fynefloor")
	w := a.NewWindow("Fyne floor")
	w.SetContent(widget.NewLabel("Nothing happens here."))
	w.Resize(fyne.NewSize(900, 600))
	if desk, ok := a.(desktop.App); ok {
		desk.SetSystemTrayMenu(fyne.NewMenu("Fyne floor", fyne.NewMenuItem("Show", w.Show)))
	}
	w.SetCloseIntercept(w.Hide)
	if !*hidden {
		w.Show()
	}
	a.Run()
}
