// Command notifio watches rental and classifieds search-result pages and tells the
// user when a new listing appears: in its window, as a desktop notification, and by
// email. Without arguments it opens the window; with a subcommand it runs headless.
package main

import (
	"context"
	_ "embed"
	"log/slog"
	"os"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/widget"

	"notifio/ui/cli"
)

// version is set at build time from FyneApp.toml (see Makefile); "dev" otherwise.
var version = "dev"

// appID is the Fyne application ID; it must match FyneApp.toml.
const appID = "app.notifio.desktop"

//go:embed Icon.png
var iconPNG []byte

func main() {
	if cli.IsCommand(os.Args[1:]) {
		logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
		env := &cli.Env{Stdout: os.Stdout, Stderr: os.Stderr, Stdin: os.Stdin, Version: version, Logger: logger}
		os.Exit(cli.Run(context.Background(), env, os.Args[1:]))
	}
	a := app.NewWithID(appID)
	a.SetIcon(fyne.NewStaticResource("Icon.png", iconPNG))
	w := a.NewWindow("Notifio")
	w.SetContent(widget.NewLabel("Paste a search URL from your portal to start watching."))
	w.Resize(fyne.NewSize(900, 600))
	w.ShowAndRun()
}
