package cli

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"notifio/internal/api"
)

// `notifio quit` stops the running watcher over its socket (every system;
// Windows has no SIGTERM): `run` ends cleanly, the socket is gone; with no
// watcher it says there is nothing to stop.
func TestQuitStopsTheRunningWatcher(t *testing.T) {
	dir := t.TempDir()
	if code, out, _ := run(t, dir, "quit"); code != 0 || !strings.Contains(out, "nothing to stop") {
		t.Fatalf("quit with no watcher: exit %d, %q", code, out)
	}
	done, _ := startWatcher(t, dir)
	code, out, errOut := run(t, dir, "quit")
	if code != 0 || !strings.Contains(out, "stopped watching") {
		t.Fatalf("quit: exit %d\n%s\n%s", code, out, errOut)
	}
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("run ended with %d", code)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("run did not end after quit")
	}
	if _, err := os.Stat(api.SocketPath(dir)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the socket is still there: %v", err)
	}
}
