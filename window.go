package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"notifio/internal/api"
	"notifio/internal/tray"
	"notifio/storage"
	"notifio/ui"

	"notifio/poll/words"

	"notifio/internal/datadir"
)

// watcherStartTimeout bounds the wait for a watcher the window started to
// answer on its socket (opening a large database, restoring a backup).
const watcherStartTimeout = 30 * time.Second

// runWindow is `notifio`: the window, a process of its own that attaches to the
// running watcher (starting one when none runs) and is only a view and a
// remote control of it. Closing it ends this process; the watcher watches on.
func runWindow(args windowArgs, logger *slog.Logger) int {
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
	if args.dataDir == "" && args.connect == "" {
		d, err := datadir.Default()
		if err != nil {
			return fatalWindow(a, "Notifio cannot find a folder for its data: "+err.Error(), nil)
		}
		args.dataDir = d
	}
	l, err := attach(args, logger)
	if err != nil {
		return fatalWindow(a, startWords(err), freshStart(args, err, logger))
	}
	trayIcon, _ := tray.HostAnswers()
	wp := &ui.WatcherProcess{TrayIcon: trayIcon}
	if args.connect == "" { // the watcher of this machine: this window can stop and start it
		wp.QuitAll = l.stopWatcher
		wp.Restart = func() error { return l.startWatcher(args) }
	}
	var opts ui.Options
	opts.Version, opts.DataDir, opts.Watcher = version, l.info.DataDir, wp
	if args.connect == "" {
		opts.StartAtLogin = startAtLogin{args}
	}
	u := ui.New(a, l, opts)
	l.setObserver(func() { fyne.Do(u.WatcherGone) }, func() { fyne.Do(u.WatcherBack) })
	u.ShowAndRun()
	return 0
}

// attach connects to the watcher of args (its data folder's socket, or
// --connect's), starting one when none runs on this machine's data.
func attach(args windowArgs, logger *slog.Logger) (*link, error) {
	sock := api.SocketPath(args.dataDir)
	if args.connect != "" {
		p, err := api.ParseConnect(args.connect)
		if err != nil {
			return nil, err
		}
		sock = p
	}
	l := newLink(sock)
	info, err := l.whoAnswers()
	if err == nil {
		l.info = info
		return l, nil
	}
	if args.connect != "" || !errors.Is(err, api.ErrNotRunning) {
		return nil, err
	}
	logger.Info("no watcher runs: starting one", "data", args.dataDir)
	if err := l.startWatcher(args); err != nil {
		return nil, err
	}
	return l, nil
}

// watcherLog is where a watcher the window started writes its log.
func watcherLog(dataDir string) string { return filepath.Join(dataDir, "watcher.log") }

// startWatcher starts `notifio --hidden` for the data folder, on its own, and
// waits until it answers (or says why it could not start).
func (l *link) startWatcher(args windowArgs) error {
	if err := os.MkdirAll(args.dataDir, 0o700); err != nil {
		return fmt.Errorf("make the data folder: %w", err)
	}
	logPath := watcherLog(args.dataDir)
	exited, err := startDetached(append(windowArgs{dataDir: args.dataDir}.flags(), hiddenFlag), logPath)
	if err != nil {
		return err
	}
	deadline := time.Now().Add(watcherStartTimeout)
	for {
		info, err := l.whoAnswers()
		if err == nil {
			l.info = info
			return nil
		}
		select {
		case <-exited:
			return &watcherExited{dataDir: args.dataDir, log: lastLines(logPath, 4)}
		case <-time.After(100 * time.Millisecond): // the watcher opening its database
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the watcher started but did not answer within %v (its log: %s)", watcherStartTimeout, logPath)
		}
	}
}

// watcherExited is a watcher the window started that ended at once.
type watcherExited struct {
	dataDir string
	log     string
}

func (e *watcherExited) Error() string {
	return "the watcher stopped as soon as it started. Its last words:\n" + e.log
}

// lastLines is the end of a log file, for the user to read.
func lastLines(path string, n int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return "(no log: " + err.Error() + ")"
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// startWords says why the window could not attach.
func startWords(err error) string {
	if w, ok := words.UserWords(err); ok {
		return w
	}
	return "Notifio could not start: " + err.Error()
}

// freshStart is the way out when the watcher could not start because the
// database is damaged and no backup passed the check: start empty (the
// damaged file is kept beside it), then a new window starts a new watcher.
func freshStart(args windowArgs, err error, logger *slog.Logger) *fatalAction {
	var ex *watcherExited
	if !errors.As(err, &ex) {
		return nil
	}
	db, openErr := storage.Open(ex.dataDir, storage.Options{})
	if openErr == nil {
		_ = db.Close()
		return nil
	}
	if !errors.Is(openErr, storage.ErrDamaged) {
		return nil
	}
	return &fatalAction{label: "Start with an empty database", run: func() error {
		moved, err := storage.StartFresh(ex.dataDir, storage.Options{})
		if err != nil {
			return err
		}
		logger.Warn("started with an empty database", "damaged_file_kept_at", moved)
		_, err = startDetached(args.flags(), os.DevNull) // a new window, which starts the watcher
		return err
	}}
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
			a.Quit()
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

// whoAnswersTimeout bounds asking the socket who answers.
const whoAnswersTimeout = 3 * time.Second

func (l *link) whoAnswers() (api.Info, error) {
	ctx, cancel := context.WithTimeout(context.Background(), whoAnswersTimeout)
	defer cancel()
	return l.Info(ctx)
}

// quitTimeout bounds asking the watcher to quit.
const quitTimeout = 10 * time.Second

// stopWatcher is the window's Quit all: the watcher is asked over its socket
// to stop cleanly (POST /v1/quit, the path SIGTERM takes; on every system).
func (l *link) stopWatcher() error {
	ctx, cancel := context.WithTimeout(context.Background(), quitTimeout)
	defer cancel()
	_, err := l.Quit(ctx)
	return err
}
