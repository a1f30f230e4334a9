// Command notifio watches rental and classifieds search-result pages and tells the
// user when a new listing appears: in its window, as a desktop notification, and by
// email. Without arguments it opens the window; with a subcommand it runs headless.
package main

import (
	_ "embed"
	"fmt"
	"os"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/widget"
)

// version is set at build time from FyneApp.toml (see Makefile); "dev" otherwise.
var version = "dev"

// appID is the Fyne application ID; it must match FyneApp.toml.
const appID = "app.notifio.desktop"

//go:embed Icon.png
var iconPNG []byte

func main() {
	if len(os.Args) > 1 && (os.Args[1] == "--version" || os.Args[1] == "version") {
		fmt.Println("notifio", version)
		return
	}
	a := app.NewWithID(appID)
	a.SetIcon(fyne.NewStaticResource("Icon.png", iconPNG))
	w := a.NewWindow("Notifio")
	w.SetContent(widget.NewLabel("Paste a search URL from your portal to start watching."))
	w.Resize(fyne.NewSize(900, 600))
	w.ShowAndRun()
}
