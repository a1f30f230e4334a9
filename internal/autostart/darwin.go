//go:build darwin

package autostart

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// file is the LaunchAgent: ~/Library/LaunchAgents/app.notifio.desktop.plist.
func file() (string, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("autostart: no home folder: %w", err)
	}
	return filepath.Join(home, "Library", "LaunchAgents", Label+".plist"), nil
}

func enable(args []string) error {
	path, err := file()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("autostart: %w", err)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, plist(args), 0o644); err != nil {
		return fmt.Errorf("autostart: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("autostart: %w", err)
	}
	return nil
}

// plist is the LaunchAgent: run the command once at login, not kept alive
// (Quit means quit).
func plist(args []string) []byte {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>Label</key><string>` + Label + `</string>
	<key>ProgramArguments</key>
	<array>
`)
	for _, a := range args {
		b.WriteString("\t\t<string>")
		_ = xml.EscapeText(&b, []byte(a))
		b.WriteString("</string>\n")
	}
	b.WriteString(`	</array>
	<key>RunAtLoad</key><true/>
	<key>ProcessType</key><string>Interactive</string>
</dict>
</plist>
`)
	return b.Bytes()
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

// status reads the ProgramArguments back from the LaunchAgent.
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
	var args []string
	d := xml.NewDecoder(bytes.NewReader(b))
	inArray := false
	for {
		tok, err := d.Token()
		if err != nil {
			break
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if t.Name.Local == "array" {
				inArray = true
			} else if inArray && t.Name.Local == "string" {
				var s string
				if d.DecodeElement(&s, &t) == nil {
					args = append(args, s)
				}
			}
		case xml.EndElement:
			if t.Name.Local == "array" {
				inArray = false
			}
		}
	}
	st.On = len(args) > 0
	st.Command = strings.Join(args, " ")
	return st, nil
}
