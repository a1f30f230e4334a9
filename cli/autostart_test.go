//go:build !windows && !darwin

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestAutostartOnStatusOff(t *testing.T) {
	cfg := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", cfg)
	data := t.TempDir()
	entry := filepath.Join(cfg, "autostart", "notifio.desktop")

	code, out, errs := run(t, data, "autostart", "status")
	if code != 0 || !strings.Contains(out, "does not start when you log in") {
		t.Fatalf("status before: %d %q %q", code, out, errs)
	}
	code, out, errs = run(t, data, "autostart", "on")
	if code != 0 || !strings.Contains(out, "starts when you log in") || !strings.Contains(out, "--hidden --data "+data) {
		t.Fatalf("on: %d %q %q", code, out, errs)
	}
	b, err := os.ReadFile(entry)
	if err != nil || !strings.Contains(string(b), "Exec=/") || !strings.Contains(string(b), " --hidden --data "+data+"\n") {
		t.Fatalf("the entry: %s, %v", b, err)
	}
	code, out, _ = run(t, data, "autostart", "status", "--json")
	if code != 0 || !strings.Contains(out, `"on": true`) {
		t.Fatalf("status --json: %d %s", code, out)
	}
	if code, _, errs = run(t, data, "autostart", "off"); code != 0 {
		t.Fatalf("off: %d %s", code, errs)
	}
	if _, err := os.Stat(entry); !os.IsNotExist(err) {
		t.Fatalf("the entry is left after off: %v", err)
	}
	if code, _, errs = run(t, data, "autostart", "maybe"); code != 2 || !strings.Contains(errs, "on, off or status") {
		t.Fatalf("a wrong action: %d %q", code, errs)
	}
}
