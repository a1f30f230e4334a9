package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"notifio/cli"
	"notifio/storage"
)

// While the window runs (and holds the database), `notifio sites` answers
// from the status file the window writes, as it does for `notifio run`;
// closing the window removes the file.
func TestWindowPublishesStatusForTheCommandLine(t *testing.T) {
	dir := t.TempDir()
	db, err := storage.Open(dir, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.AddSearch(storage.Search{Name: "Flats", URL: "http://127.0.0.1:1/s", Site: "127.0.0.1", Interval: time.Hour, Paused: true}); err != nil {
		t.Fatal(err)
	}
	// The test driver would run the watcher's UI updates on its goroutines, a
	// race with this one; the window is not under test here, so they wait.
	w := &watcher{dir: dir, log: slog.New(slog.NewTextHandler(io.Discard, nil)), dispatch: func(func()) {}}
	if err := w.start(test.NewTempApp(t), db); err != nil {
		t.Fatal(err)
	}
	stopped := false
	defer func() {
		if !stopped {
			w.stop()
		}
	}()
	status := filepath.Join(dir, "status.json")
	deadline := time.Now().Add(5 * time.Second)
	for _, err := os.Stat(status); err != nil; _, err = os.Stat(status) {
		if time.Now().After(deadline) {
			t.Fatal("the window wrote no status file")
		}
		time.Sleep(20 * time.Millisecond) // the writer's first write is on its own goroutine
	}
	for _, args := range [][]string{{"sites"}, {"search", "list"}} {
		var out, errOut bytes.Buffer
		code := cli.Run(context.Background(), &cli.Env{Stdout: &out, Stderr: &errOut}, append([]string{"--data", dir}, args...))
		if code != 0 || !strings.Contains(out.String(), map[string]string{"sites": "127.0.0.1", "search": "Flats"}[args[0]]) {
			t.Errorf("notifio %s while the window runs: exit %d\n%s\n%s", strings.Join(args, " "), code, out.String(), errOut.String())
		}
	}
	w.stop()
	stopped = true
	if _, err := os.Stat(status); !os.IsNotExist(err) {
		t.Errorf("the status file stays after the window closed: %v", err)
	}
}
