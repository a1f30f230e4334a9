//go:build windows

package autostart

import (
	"errors"
	"fmt"
	"strings"
	"syscall"

	"golang.org/x/sys/windows/registry"
)

// runKey is the user's Run key: what Windows starts when they sign in.
const runKey = `Software\Microsoft\Windows\CurrentVersion\Run`

const where = `HKEY_CURRENT_USER\` + runKey + `\` + Name

func enable(args []string) error {
	k, _, err := registry.CreateKey(registry.CURRENT_USER, runKey, registry.SET_VALUE)
	if err != nil {
		return fmt.Errorf("autostart: the Run key: %w", err)
	}
	defer k.Close()
	if err := k.SetStringValue(Name, commandLine(args)); err != nil {
		return fmt.Errorf("autostart: the Run key: %w", err)
	}
	return nil
}

// commandLine quotes args as Windows' command-line parser reads them back.
func commandLine(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = syscall.EscapeArg(a)
	}
	return strings.Join(q, " ")
}

func disable() error {
	k, err := registry.OpenKey(registry.CURRENT_USER, runKey, registry.SET_VALUE)
	if errors.Is(err, registry.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("autostart: the Run key: %w", err)
	}
	defer k.Close()
	if err := k.DeleteValue(Name); err != nil && !errors.Is(err, registry.ErrNotExist) {
		return fmt.Errorf("autostart: the Run key: %w", err)
	}
	return nil
}

func status() (Status, error) {
	st := Status{Where: where}
	k, err := registry.OpenKey(registry.CURRENT_USER, runKey, registry.QUERY_VALUE)
	if errors.Is(err, registry.ErrNotExist) {
		return st, nil
	}
	if err != nil {
		return st, fmt.Errorf("autostart: the Run key: %w", err)
	}
	defer k.Close()
	v, _, err := k.GetStringValue(Name)
	if errors.Is(err, registry.ErrNotExist) {
		return st, nil
	}
	if err != nil {
		return st, fmt.Errorf("autostart: the Run key: %w", err)
	}
	st.On, st.Command = v != "", v
	return st, nil
}
