//go:build !windows && !darwin

package autostart

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// file is the XDG autostart entry: $XDG_CONFIG_HOME/autostart/notifio.desktop
// (~/.config when XDG_CONFIG_HOME is unset or not absolute, as the
// specification says).
func file() (string, error) {
	dir := os.Getenv("XDG_CONFIG_HOME")
	if !filepath.IsAbs(dir) {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("autostart: no home folder: %w", err)
		}
		dir = filepath.Join(home, ".config")
	}
	return filepath.Join(dir, "autostart", "notifio.desktop"), nil
}

func enable(args []string) error {
	path, err := file()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("autostart: %w", err)
	}
	return writeAtomic(path, desktopEntry(args))
}

// desktopEntry is the autostart file's text.
func desktopEntry(args []string) []byte {
	var b bytes.Buffer
	b.WriteString("[Desktop Entry]\nType=Application\nName=" + Name + "\n")
	b.WriteString("Comment=Watches your searches in the background and tells you about new listings\n")
	b.WriteString("Exec=" + execLine(args) + "\n")
	b.WriteString("Icon=" + Label + "\nTerminal=false\nX-GNOME-Autostart-enabled=true\n")
	return b.Bytes()
}

// execLine quotes a command for a desktop entry's Exec key: an argument with
// a reserved character is put in double quotes with ", `, $ and \ escaped by a
// backslash; % is doubled (field codes); then the value's own escaping doubles
// every backslash.
func execLine(args []string) string {
	parts := make([]string, len(args))
	for i, a := range args {
		a = strings.ReplaceAll(a, "%", "%%")
		if a == "" || strings.ContainsAny(a, " \t\n\"'\\><~|&;$*?#()`") {
			var q strings.Builder
			q.WriteByte('"')
			for _, r := range a {
				if strings.ContainsRune("\"`$\\", r) {
					q.WriteByte('\\')
				}
				q.WriteRune(r)
			}
			q.WriteByte('"')
			a = q.String()
		}
		parts[i] = a
	}
	line := strings.Join(parts, " ")
	line = strings.ReplaceAll(line, "\\", "\\\\")
	return strings.ReplaceAll(line, "\n", "\\n")
}

func disable() error {
	path, err := file()
	if err != nil {
		return err
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("autostart: %w", err)
	}
	return nil
}

func status() (Status, error) {
	path, err := file()
	if err != nil {
		return Status{}, err
	}
	st := Status{Where: path}
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return st, nil
	}
	if err != nil {
		return st, fmt.Errorf("autostart: %w", err)
	}
	on := true
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		k, v, _ := strings.Cut(sc.Text(), "=")
		switch strings.TrimSpace(k) {
		case "Exec":
			st.Command = strings.ReplaceAll(strings.TrimSpace(v), "\\\\", "\\")
		case "Hidden":
			on = on && strings.TrimSpace(v) != "true"
		case "X-GNOME-Autostart-enabled":
			on = on && strings.TrimSpace(v) != "false"
		}
	}
	st.On = on && st.Command != ""
	if !st.On {
		st.Command = ""
	}
	return st, nil
}

// writeAtomic writes a file whole or not at all.
func writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".notifio-*.tmp")
	if err != nil {
		return fmt.Errorf("autostart: %w", err)
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("autostart: %w", err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("autostart: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("autostart: %w", err)
	}
	return nil
}
