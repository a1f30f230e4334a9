package main

import (
	"context"
	"log/slog"
	"os"

	"notifio/cli"
	"notifio/internal/tray"
)

// runHidden is `notifio --hidden`: the watcher (what `notifio run` runs, its
// control API included) with an icon in the tray, and no window. Where no tray
// host answers it watches on without an icon and says so once in the log.
// Quit in the tray stops the watcher as SIGTERM and POST /v1/quit do.
func runHidden(args windowArgs, logger *slog.Logger) int {
	env := commandEnv(logger)
	env.Notify = tray.Notifier(logger) // the desktop notifications the window's process used to show
	run := append(args.flags(), "run")
	if ok, why := tray.HostAnswers(); !ok {
		logger.Info("no tray icon: "+why+"; Notifio watches on without one",
			"hint", "open the window by starting Notifio again (notifio)")
		return cli.Run(context.Background(), env, run)
	}
	menus := make(chan *tray.Menu, 1)
	env.OnWatching = func(w *cli.Watcher, quit func()) {
		m, _ := tray.NewMenu(w.Service, tray.Options{Logger: logger, Quit: quit,
			Open: func() error { _, err := startDetached(args.flags(), os.DevNull); return err }})
		menus <- m
	}
	done := make(chan int, 1)
	go func() {
		done <- cli.Run(context.Background(), env, run)
		tray.Stop()
	}()
	select {
	case m := <-menus:
		tray.Run(m, iconPNG) // on the main goroutine; returns once the watcher stopped
		return <-done
	case code := <-done: // the watcher did not start (another runs, the data is damaged, …)
		return code
	}
}
