// Command notifio watches rental and classifieds search-result pages and tells the
// user when a new listing appears: in its window, as a desktop notification, and by
// email. Without arguments it opens the window; with a subcommand it runs headless.
package main

import (
	"context"
	_ "embed"
	"errors"
	"log/slog"
	"os"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"notifio/notify"
	"notifio/poll"
	"notifio/storage"
	"notifio/ui"
	"notifio/ui/cli"
)

// version is set at build time from FyneApp.toml (see Makefile); "dev" otherwise.
var version = "dev"

// appID is the Fyne application ID; it must match FyneApp.toml.
const appID = "app.notifio.desktop"

//go:embed Icon.png
var iconPNG []byte

func main() {
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	slog.SetDefault(logger)
	if cli.IsCommand(os.Args[1:]) {
		env := &cli.Env{Stdout: os.Stdout, Stderr: os.Stderr, Stdin: os.Stdin, Version: version, Logger: logger}
		os.Exit(cli.Run(context.Background(), env, os.Args[1:]))
	}
	rest, dir, _, err := cli.SplitGlobal(os.Args[1:])
	if err != nil || len(rest) > 0 {
		os.Exit(cli.Run(context.Background(), &cli.Env{Stdout: os.Stdout, Stderr: os.Stderr, Version: version}, os.Args[1:]))
	}
	os.Exit(runWindow(dir, logger))
}

// runWindow opens the window over the watcher and returns the exit code. Shutdown:
// the window closes, the poll context is cancelled, its goroutines are waited for,
// then the database closes.
func runWindow(dir string, logger *slog.Logger) int {
	app.SetMetadata(fyne.AppMetadata{
		ID: appID, Name: "Notifio", Version: version, Release: version != "dev",
		Icon:       fyne.NewStaticResource("Icon.png", iconPNG),
		Migrations: map[string]bool{"fyneDo": true},
	})
	a := app.NewWithID(appID)
	a.SetIcon(fyne.NewStaticResource("Icon.png", iconPNG))
	if dir == "" {
		dir = os.Getenv("NOTIFIO_DATA")
	}
	if dir == "" {
		d, err := storage.DefaultDir()
		if err != nil {
			return fatalWindow(a, "Notifio cannot find a folder for its data: "+err.Error())
		}
		dir = d
	}
	db, err := storage.Open(dir, storage.Options{})
	if err != nil {
		msg := "Notifio could not open its data (" + dir + "):\n" + err.Error()
		if errors.Is(err, storage.ErrAlreadyRunning) {
			msg = "Notifio is already running (data: " + dir + ").\nLook for its window or its icon in the system tray."
		}
		return fatalWindow(a, msg)
	}
	defer db.Close()
	secrets := notify.NewSecrets(dir)
	relay := notify.NewRelay(db, poll.EmailSource(db, secrets), notify.RelayOptions{Logger: logger})
	var u *ui.UI
	var uiMu sync.Mutex
	svc, err := poll.New(db, poll.Options{
		DataDir: dir, Relay: relay, Secrets: secrets, Logger: logger,
		Notify: func(title, body string) {
			uiMu.Lock()
			defer uiMu.Unlock()
			if u != nil {
				u.Notify(title, body)
			}
		},
	})
	if err != nil {
		return fatalWindow(a, "Notifio could not start: "+err.Error())
	}
	defer svc.Close()
	uiMu.Lock()
	u = ui.New(a, svc, ui.Options{})
	uiMu.Unlock()
	if rec := db.Recovered(); rec != nil {
		logger.Warn("database restored", "what", rec.String())
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); relay.Run(ctx) }()
	go func() {
		defer wg.Done()
		if err := svc.Run(ctx); err != nil {
			logger.Error("watcher stopped", "err", err)
		}
	}()
	u.ShowAndRun()
	cancel()
	wg.Wait()
	return 0
}

// fatalWindow shows why Notifio cannot start, in a window the user can close.
func fatalWindow(a fyne.App, msg string) int {
	w := a.NewWindow("Notifio")
	quit := widget.NewButton("Close", func() { a.Quit() })
	w.SetContent(container.NewVBox(widget.NewLabel(msg), quit))
	w.ShowAndRun()
	return 1
}
