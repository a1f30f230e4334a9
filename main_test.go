package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"notifio/cli"
	"notifio/internal/api"
	"notifio/storage"
	"notifio/ui"

	"notifio/internal/model"
)

// startWatcher runs `notifio run` of dir in this process (the real watcher and
// its API on the data folder's socket) until the returned stop is called.
func startWatcher(t *testing.T, dir string) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	env := &cli.Env{Stdout: io.Discard, Stderr: io.Discard, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	go func() { done <- cli.Run(ctx, env, []string{"--data", dir, "run"}) }()
	waitAnswers(t, newLink(api.SocketPath(dir)), done)
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			if code := <-done; code != 0 {
				t.Errorf("the watcher ended with %d", code)
			}
		})
	}
	t.Cleanup(stop)
	return stop
}

// waitAnswers waits until a watcher answers on the link's socket.
func waitAnswers(t *testing.T, l *link, done <-chan int) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		if _, err := l.whoAnswers(); err == nil {
			return
		}
		select {
		case code := <-done:
			t.Fatalf("the watcher ended with %d before it answered", code)
		case <-time.After(20 * time.Millisecond): // the watcher opening its database
		}
		if time.Now().After(deadline) {
			t.Fatal("the watcher did not answer")
		}
	}
}

// seed makes a data folder with one paused search (nothing is fetched).
func seed(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	db, err := storage.Open(dir, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.AddSearch(model.Search{Name: "Flats in Kreuzberg", URL: "http://127.0.0.1:1/s", Site: "127.0.0.1",
		Interval: time.Hour, Paused: true}); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

// queue holds the window's UI work for the test goroutine to run.
type queue struct {
	mu sync.Mutex
	fs []func()
}

func (q *queue) dispatch(f func()) { q.mu.Lock(); q.fs = append(q.fs, f); q.mu.Unlock() }

func (q *queue) run() {
	for {
		q.mu.Lock()
		fs := q.fs
		q.fs = nil
		q.mu.Unlock()
		if len(fs) == 0 {
			return
		}
		for _, f := range fs {
			f()
		}
	}
}

// texts is every label and button text of the window and its dialogs.
func texts(w fyne.Window) string {
	var out []string
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if o == nil || !o.Visible() {
			return
		}
		switch v := o.(type) {
		case *widget.Label:
			out = append(out, v.Text)
			return
		case *widget.Button:
			out = append(out, v.Text)
		case *fyne.Container:
			for _, c := range v.Objects {
				walk(c)
			}
			return
		}
		if wd, ok := o.(fyne.Widget); ok {
			for _, c := range test.WidgetRenderer(wd).Objects() {
				walk(c)
			}
		}
	}
	walk(w.Canvas().Content())
	for _, o := range w.Canvas().Overlays().List() {
		walk(o)
	}
	return strings.Join(out, "\n")
}

// until runs the window's work until cond holds.
func until(t *testing.T, q *queue, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		q.run()
		if cond() {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("waited in vain for " + what)
		}
		time.Sleep(20 * time.Millisecond) // snapshots arriving from the watcher's process side
	}
}

// The window on the real API client over a real watcher: it shows the
// watcher's searches, says when the watcher stopped and that it is back.
func TestWindowOverTheRealWatcher(t *testing.T) {
	dir := seed(t)
	stop := startWatcher(t, dir)
	l := newLink(api.SocketPath(dir))
	q := &queue{}
	a := test.NewTempApp(t)
	restarted := 0
	u := ui.New(a, l, ui.Options{Dispatch: q.dispatch, TickEvery: time.Hour,
		Watcher: &ui.WatcherProcess{Restart: func() error { restarted++; return nil }}})
	t.Cleanup(u.Close)
	l.setObserver(func() { q.dispatch(u.WatcherGone) }, func() { q.dispatch(u.WatcherBack) })
	u.Window().Resize(fyne.NewSize(900, 620))
	u.Show()
	until(t, q, "the search from the watcher", func() bool { return strings.Contains(texts(u.Window()), "Flats in Kreuzberg") })

	stop()
	until(t, q, "the window to say the watcher stopped", func() bool {
		return strings.Contains(texts(u.Window()), "Notifio's watcher has stopped")
	})
	if !strings.Contains(texts(u.Window()), "Start watching again") {
		t.Fatalf("the window offers no way to start the watcher again:\n%s", texts(u.Window()))
	}

	startWatcher(t, dir) // as "Start watching again" or the tray would
	until(t, q, "the window to see the watcher back", func() bool {
		return !strings.Contains(texts(u.Window()), "Notifio's watcher has stopped")
	})
}

// helperEnv makes the test binary a window process that saves a search.
const helperEnv = "NOTIFIO_TEST_WINDOW_SAVE"

// TestHelperWindowSave is the window's Save as a process of its own: it adds
// a search through the API client on the socket helperEnv names and waits
// for the answer, which the test never lets through.
func TestHelperWindowSave(t *testing.T) {
	sock := os.Getenv(helperEnv)
	if sock == "" {
		t.Skip("run by TestKillingTheWindowDuringASaveLosesNothing")
	}
	_, err := newLink(sock).AddSearch(context.Background(), model.SearchInput{Name: "Saved as the window died",
		URL: "http://127.0.0.1:1/new", Interval: time.Hour})
	fmt.Println("answered", err) // never reached: killed first
}

// holdAnswers forwards connections from its own socket to the watcher's and
// holds every answer back; requests receives each request once it went
// through whole.
func holdAnswers(t *testing.T, to string) (sock string, requests <-chan string) {
	t.Helper()
	sock = filepath.Join(t.TempDir(), "hold.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	reqs := make(chan string, 4)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				w, err := net.Dial("unix", to)
				if err != nil {
					return
				}
				defer w.Close()
				req, err := readRequest(bufio.NewReader(c))
				if err != nil {
					return
				}
				if _, err := w.Write([]byte(req)); err != nil {
					return
				}
				reqs <- req
				_, _ = io.Copy(io.Discard, w) // the answer, never passed on
			}()
		}
	}()
	return sock, reqs
}

// readRequest reads one HTTP request with a Content-Length body, as it came.
func readRequest(br *bufio.Reader) (string, error) {
	var b strings.Builder
	n := 0
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			return "", err
		}
		b.WriteString(line)
		if k, v, ok := strings.Cut(line, ":"); ok && strings.EqualFold(k, "Content-Length") {
			_, _ = fmt.Sscan(strings.TrimSpace(v), &n)
		}
		if line == "\r\n" {
			break
		}
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(br, body); err != nil {
		return "", err
	}
	b.Write(body)
	return b.String(), nil
}

// A window killed with -9 while its save is on its way loses nothing: the
// watcher owns the save, and the search is there, once, after the window died.
func TestKillingTheWindowDuringASaveLosesNothing(t *testing.T) {
	dir := seed(t)
	startWatcher(t, dir)
	sock, requests := holdAnswers(t, api.SocketPath(dir))
	window := exec.Command(os.Args[0], "-test.run=^TestHelperWindowSave$", "-test.v")
	window.Env = append(os.Environ(), helperEnv+"="+sock)
	out, _ := window.StdoutPipe()
	if err := window.Start(); err != nil {
		t.Fatal(err)
	}
	var req string
	select {
	case req = <-requests:
	case <-time.After(20 * time.Second):
		t.Fatal("the window's save never reached the watcher")
	}
	if !strings.HasPrefix(req, "POST /v1/searches ") {
		t.Fatalf("the window sent %q", req)
	}
	if err := window.Process.Kill(); err != nil { // kill -9, the answer still held back
		t.Fatal(err)
	}
	said, _ := io.ReadAll(out)
	_ = window.Wait()
	if strings.Contains(string(said), "answered") {
		t.Fatalf("the window got its answer before it died: %s", said)
	}
	l := newLink(api.SocketPath(dir))
	var found int
	until(t, &queue{}, "the saved search in the watcher", func() bool {
		found = 0
		for _, s := range l.Snapshot().Searches {
			if s.Name == "Saved as the window died" {
				found++
			}
		}
		return found > 0
	})
	if found != 1 {
		t.Fatalf("the search is there %d times", found)
	}
	if got := len(l.Snapshot().Searches); got != 2 {
		t.Fatalf("the watcher has %d searches, want 2", got)
	}
}
