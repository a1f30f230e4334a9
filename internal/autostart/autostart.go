// Package autostart makes Notifio's watcher start when the user logs in: an XDG
// autostart entry on Linux and the other free desktops, a value under the
// user's Run key on Windows, a LaunchAgent on macOS. Each runs
// `notifio --hidden` (plus --data DIR when the user keeps the data elsewhere)
// with the absolute path of the binary that turned it on.
package autostart

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Name is what the entry is called where the system lists it (the autostart
// file's Name, the Run key's value name, the LaunchAgent's label is Label).
const Name = "Notifio"

// Label is the LaunchAgent's label and the base name of its file (the app ID
// of FyneApp.toml).
const Label = "app.notifio.desktop"

// Status is whether Notifio starts at login, and how.
type Status struct {
	// On is true when an entry exists and is not switched off.
	On bool
	// Where is the file or registry value that holds the entry.
	Where string
	// Command is the command line the entry runs ("" when off).
	Command string
}

// Command is the command line an entry runs: the binary, --hidden, and
// --data DIR when dataDir is not "" (made absolute: login has no working
// directory of the user's).
func Command(exe, dataDir string) ([]string, error) {
	if exe == "" {
		return nil, errors.New("autostart: the path of the Notifio program is unknown")
	}
	abs, err := filepath.Abs(exe)
	if err != nil {
		return nil, fmt.Errorf("autostart: the path of the Notifio program: %w", err)
	}
	args := []string{abs, "--hidden"}
	if dataDir != "" {
		d, err := filepath.Abs(dataDir)
		if err != nil {
			return nil, fmt.Errorf("autostart: the data folder %s: %w", dataDir, err)
		}
		args = append(args, "--data", d)
	}
	return args, nil
}

// Enable makes the command (from Command) run at login, replacing an entry
// that was there.
func Enable(args []string) error {
	if len(args) == 0 {
		return errors.New("autostart: no command to start")
	}
	return enable(args)
}

// Disable removes the entry; no entry is not an error.
func Disable() error { return disable() }

// Get reports whether Notifio starts at login.
func Get() (Status, error) { return status() }

// Executable is the absolute path of the running binary, links resolved (a
// `go run` binary in a temporary folder is refused by the caller, not here).
func Executable() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("autostart: where this program is: %w", err)
	}
	if r, err := filepath.EvalSymlinks(exe); err == nil {
		exe = r
	}
	return exe, nil
}
