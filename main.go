// Command notifio watches rental and classifieds search-result pages and tells the
// user when a new listing appears: in its window, as a desktop notification, and by
// email. Without arguments it opens the window; with a subcommand it runs headless.
package main

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"runtime/debug"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	// Imported first for its side effect: a "C" locale reads as English before
	// Fyne initialises (no locale error on every command).
	"notifio/cli"
	"notifio/poll"
	"notifio/storage"
	"notifio/ui"
	_ "notifio/ui/locale"
)

// version is set at build time from FyneApp.toml (see Makefile); "dev" otherwise.
var version = "dev"

// appID is the Fyne application ID; it must match FyneApp.toml.
const appID = "app.notifio.desktop"

//go:embed Icon.png
var iconPNG []byte

// headlessMemoryLimit is the soft memory limit of `notifio run` and `once` up
// to 1,000 searches (16 KiB more per search beyond; GOMEMLIMIT overrides it): the RSS budget of docs/PERFORMANCE.md is 80 MB,
// of which the binary and its libraries take ~25 MB and the
// database's mapped pages up to ~15 MB at 1,000 searches.
const headlessMemoryLimit = 40 << 20

func main() {
	isCommand := cli.IsCommand(os.Args[1:])
	if isCommand {
		cli.AttachConsole() // Windows: print to the console the command came from
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	slog.SetDefault(logger)
	if isCommand {
		env := &cli.Env{Stdout: os.Stdout, Stderr: os.Stderr, Stdin: os.Stdin, Version: version, Logger: logger,
			MemoryLimit: headlessMemoryLimit}
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
	startPprof(os.Getenv("NOTIFIO_PPROF"), logger)
	if os.Getenv("GOGC") == "" {
		// The window's live Go heap is ~23 MB (a third of it the fonts); at
		// Go's default the heap may double that before a collection. Half
		// keeps ~12 MB less resident for a collection every ~20 s
		// (docs/PERFORMANCE.md, window soak).
		debug.SetGCPercent(50)
	}
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
			return fatalWindow(a, "Notifio cannot find a folder for its data: "+err.Error(), nil)
		}
		dir = d
	}
	w := &watcher{dir: dir, log: logger}
	defer w.stop()
	db, err := storage.Open(dir, storage.Options{Logf: logf(logger)})
	switch {
	case errors.Is(err, storage.ErrDamaged):
		// No backup passed the check: the user chooses to start empty; the
		// damaged file is kept beside it.
		return fatalWindow(a, "Notifio's database is damaged and no backup could be restored:\n"+err.Error()+
			"\n\nYou can start with an empty database; the damaged file is kept so nothing is deleted.",
			&fatalAction{label: "Start with an empty database", run: func() error {
				moved, err := storage.StartFresh(dir, storage.Options{})
				if err != nil {
					return err
				}
				logger.Warn("started with an empty database", "damaged_file_kept_at", moved)
				db, err := storage.Open(dir, storage.Options{Logf: logf(logger)})
				if err != nil {
					return err
				}
				return w.start(a, db)
			}})
	case errors.Is(err, storage.ErrAlreadyRunning):
		return fatalWindow(a, "Notifio is already running (data: "+dir+").\nLook for its window or its icon in the system tray.", nil)
	case err != nil:
		return fatalWindow(a, "Notifio could not open its data ("+dir+"):\n"+err.Error(), nil)
	}
	if err := w.start(a, db); err != nil {
		return fatalWindow(a, "Notifio could not start: "+err.Error(), nil)
	}
	a.Run()
	return 0
}

// watcher is the running core behind the window: database, poll loop, relays.
type watcher struct {
	dir    string
	log    *slog.Logger
	db     *storage.DB
	svc    *poll.Service
	ui     *ui.UI
	cancel context.CancelFunc
	// dispatch runs UI work on the UI goroutine (nil: fyne.Do); tests queue it.
	dispatch func(func())
	// stopStatus ends the status file that `notifio sites` reads while the
	// window holds the database.
	stopStatus func()
	wg         sync.WaitGroup
}

// start builds the watcher over an open database and shows the main window.
func (w *watcher) start(a fyne.App, db *storage.DB) error {
	w.db = db
	var u *ui.UI
	var uiMu sync.Mutex
	core, err := cli.NewWatcher(db, poll.Options{
		DataDir: w.dir, Logger: w.log,
		Notify: func(title, body string) {
			uiMu.Lock()
			defer uiMu.Unlock()
			if u != nil {
				u.Notify(title, body)
			}
		},
	})
	if err != nil {
		return err
	}
	svc := core.Service
	w.svc = svc
	w.stopStatus = cli.StatusFile(w.dir, svc.Snapshot, w.log)
	uiMu.Lock()
	u = ui.New(a, ui.NewBackend(svc, core.Ops), ui.Options{Version: version, DataDir: w.dir, Dispatch: w.dispatch})
	uiMu.Unlock()
	ctx, cancel := context.WithCancel(context.Background())
	w.cancel = cancel
	w.wg.Add(3)
	go func() { defer w.wg.Done(); _ = core.Relay.Run(ctx) }()
	go func() { defer w.wg.Done(); _ = core.Push.Run(ctx) }()
	go func() {
		defer w.wg.Done()
		if err := svc.Run(ctx); err != nil {
			w.log.Error("watcher stopped", "err", err)
		}
	}()
	w.ui = u
	u.Show()
	if rec := db.Recovered(); rec != nil {
		w.log.Warn("database restored", "what", rec.String())
		dialog.ShowInformation("Notifio restored your data", rec.String(), u.Window())
	}
	if err := db.BackupErr(); err != nil {
		w.log.Warn("backup failed", "err", err)
	}
	return nil
}

// stop cancels the poll loop, waits for it and closes the database.
func (w *watcher) stop() {
	if w.ui != nil {
		w.ui.Close()
	}
	if w.cancel != nil {
		w.cancel()
	}
	w.wg.Wait()
	if w.stopStatus != nil {
		w.stopStatus()
	}
	if w.svc != nil {
		w.svc.Close()
	}
	if w.db != nil {
		_ = w.db.Close()
	}
}

func logf(l *slog.Logger) func(string, ...any) {
	return func(format string, args ...any) { l.Info(fmt.Sprintf(format, args...)) }
}

// fatalAction is an optional way out offered by fatalWindow.
type fatalAction struct {
	label string
	run   func() error
}

// fatalWindow shows why Notifio cannot start, in a window the user can close,
// with an optional way out.
func fatalWindow(a fyne.App, msg string, action *fatalAction) int {
	w := a.NewWindow("Notifio")
	label := widget.NewLabel(msg)
	label.Wrapping = fyne.TextWrapWord
	box := container.NewVBox(label)
	if action != nil {
		var btn *widget.Button
		btn = widget.NewButton(action.label, func() {
			btn.Disable()
			if err := action.run(); err != nil {
				label.SetText(msg + "\n\nThat did not work: " + err.Error())
				btn.Enable()
				return
			}
			w.Close()
		})
		btn.Importance = widget.HighImportance
		box.Add(btn)
	}
	box.Add(widget.NewButton("Quit", func() { a.Quit() }))
	w.SetContent(box)
	w.Resize(fyne.NewSize(560, 240))
	w.ShowAndRun()
	return 1
}
