package cli

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"notifio/internal/api"
)

// `notifio desktop` shows and changes the watcher's desktop notification
// setting: in the data folder when no watcher runs (kept across runs), and
// over the socket of a running watcher, which applies it at once. Before
// it, the setting could only be changed in the window.
func TestDesktopSwitch(t *testing.T) {
	dir := t.TempDir()
	if code, out, errOut := run(t, dir, "desktop"); code != 0 || !strings.Contains(out, "Desktop notifications are on") {
		t.Fatalf("desktop: exit %d, %q %q", code, out, errOut)
	}
	if code, out, errOut := run(t, dir, "desktop", "off"); code != 0 || !strings.Contains(out, "are off") {
		t.Fatalf("desktop off: exit %d, %q %q", code, out, errOut)
	}
	if code, out, _ := run(t, dir, "desktop", "--json"); code != 0 || strings.Join(strings.Fields(out), "") != `{"on":false}` {
		t.Fatalf("desktop --json after off: exit %d, %q", code, out)
	}
	if code, _, errOut := run(t, dir, "desktop", "maybe"); code != 2 || !strings.Contains(errOut, "say on or off") {
		t.Errorf("desktop maybe: exit %d, %q", code, errOut)
	}

	done, c := startWatcher(t, dir)
	if on, err := c.DesktopNotifications(); err != nil || on {
		t.Fatalf("the watcher started with desktop notifications %v (%v), want the saved off", on, err)
	}
	if code, out, errOut := run(t, dir, "desktop", "on"); code != 0 || !strings.Contains(out, "are on") {
		t.Fatalf("desktop on with a watcher: exit %d, %q %q", code, out, errOut)
	}
	if on, err := c.DesktopNotifications(); err != nil || !on {
		t.Errorf("the running watcher has desktop notifications %v (%v) after `desktop on`", on, err)
	}
	if code, _, errOut := run(t, dir, "quit"); code != 0 {
		t.Fatalf("quit: exit %d, %q", code, errOut)
	}
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("run did not end after quit")
	}
}

// startWatcher starts `notifio run` on the data folder, as a user would,
// and returns once it answers on its socket; done receives its exit code.
func startWatcher(t *testing.T, dir string) (done chan int, c *api.Client) {
	t.Helper()
	done = make(chan int, 1)
	go func() {
		env := &Env{Stdout: io.Discard, Stderr: io.Discard, Version: "test", Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
		done <- Run(context.Background(), env, []string{"--data", dir, "run"})
	}()
	c = api.NewClient(api.SocketPath(dir))
	deadline := time.Now().Add(20 * time.Second)
	for {
		if _, err := c.Info(context.Background()); err == nil {
			return done, c
		}
		if time.Now().After(deadline) {
			t.Fatal("the watcher did not answer")
		}
		time.Sleep(20 * time.Millisecond) // the watcher opening its database
	}
}
