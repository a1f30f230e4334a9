// Command notifio watches rental and classifieds search-result pages and tells the
// user when a new listing appears: in its window, as a desktop notification, and by
// email. Without arguments it opens the window (attached to the running watcher,
// which it starts when none runs); `notifio --hidden` is the watcher with its tray
// icon; with a subcommand it runs headless.
package main

import (
	"context"
	_ "embed"
	"fmt"
	"log/slog"
	"os"

	// Imported first for its side effect: a "C" locale reads as English before
	// Fyne initialises (no locale error on every command).
	"notifio/cli"
	_ "notifio/ui/locale"

	"notifio/internal/datadir"
)

// version is set at build time from FyneApp.toml (see Makefile); "dev" otherwise.
var version = "dev"

// appID is the Fyne application ID; it must match FyneApp.toml.
const appID = "app.notifio.desktop"

//go:embed Icon.png
var iconPNG []byte

// headlessMemoryLimit is the soft memory limit of the watcher (`notifio run`,
// `--hidden`) and `once` up to 1,000 searches (16 KiB more per search beyond;
// GOMEMLIMIT overrides it): the RSS budget of docs/PERFORMANCE.md is 80 MB,
// of which the binary and its libraries take ~25 MB and the
// database's mapped pages up to ~15 MB at 1,000 searches.
const headlessMemoryLimit = 40 << 20

// hiddenFlag starts the watcher with its tray icon and no window (what start
// at login runs).
const hiddenFlag = "--hidden"

func main() {
	args := os.Args[1:]
	isCommand := cli.IsCommand(args)
	if isCommand {
		cli.AttachConsole() // Windows: print to the console the command came from
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	slog.SetDefault(logger)
	if isCommand {
		os.Exit(cli.Run(context.Background(), commandEnv(logger), args))
	}
	global, hidden, err := splitWindowArgs(args)
	if err != nil {
		os.Exit(cli.Run(context.Background(), commandEnv(logger), args)) // says what is wrong
	}
	if hidden {
		os.Exit(runHidden(global, logger))
	}
	os.Exit(runWindow(global, logger))
}

func commandEnv(logger *slog.Logger) *cli.Env {
	return &cli.Env{Stdout: os.Stdout, Stderr: os.Stderr, Stdin: os.Stdin, Version: version, Logger: logger,
		MemoryLimit: headlessMemoryLimit}
}

// windowArgs are the options of the window and of --hidden: the data folder
// and the socket to attach to.
type windowArgs struct {
	dataDir string // "" until resolved: --data, NOTIFIO_DATA, the default
	connect string // --connect or NOTIFIO_CONNECT; "" means the data folder's watcher
}

// splitWindowArgs reads `notifio [--hidden] [--data DIR] [--connect unix:PATH]`;
// anything else is an error (cli.Run then says what).
func splitWindowArgs(args []string) (windowArgs, bool, error) {
	rest, connect, err := cli.SplitConnect(args)
	if err != nil {
		return windowArgs{}, false, err
	}
	rest, dir, _, err := cli.SplitGlobal(rest)
	if err != nil {
		return windowArgs{}, false, err
	}
	hidden := false
	for _, a := range rest {
		if a != hiddenFlag {
			return windowArgs{}, false, fmt.Errorf("unknown argument %q", a)
		}
		hidden = true
	}
	dir = datadir.Given(dir)
	if connect == "" {
		connect = os.Getenv("NOTIFIO_CONNECT")
	}
	return windowArgs{dataDir: dir, connect: connect}, hidden, nil
}

// flags are the arguments that give another process of Notifio the same data
// folder (the window started from the tray, the watcher started by the
// window).
func (a windowArgs) flags() []string {
	if a.dataDir == "" {
		return nil
	}
	return []string{"--data", a.dataDir}
}
