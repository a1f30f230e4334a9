// Package datadir is the one place Notifio's data folder is found: the
// --data flag, else NOTIFIO_DATA, else the per-user default. The window, the
// watcher and the command line resolve it alike.
package datadir

import (
	"fmt"
	"os"
	"path/filepath"
)

// Env is the environment variable that names the data folder.
const Env = "NOTIFIO_DATA"

// Given is the folder the user named: flag (--data) when set, else
// NOTIFIO_DATA, else "" (the default, which Default finds).
func Given(flag string) string {
	if flag != "" {
		return flag
	}
	return os.Getenv(Env)
}

// Default is the per-user data directory: os.UserConfigDir()/notifio.
func Default() (string, error) {
	base, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("finding the per-user config directory: %w (pass a data directory with --data)", err)
	}
	return filepath.Join(base, "notifio"), nil
}

// Resolve is the folder to use: the one given (Given), else Default.
func Resolve(flag string) (string, error) {
	if d := Given(flag); d != "" {
		return d, nil
	}
	return Default()
}
