package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"notifio/cli"
	"notifio/internal/api"
	"notifio/storage"
)

// heldSite is a results page whose answers can be held until the test lets
// them go (a poll in progress).
type heldSite struct {
	mu       sync.Mutex
	listings []string
	hold     chan struct{} // when set, a request waits for it to close
	arrived  chan struct{} // told when a held request came
}

func (s *heldSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	ls, hold, arrived := s.listings, s.hold, s.arrived
	s.mu.Unlock()
	if hold != nil {
		select {
		case arrived <- struct{}{}:
		default:
		}
		select {
		case <-hold:
		case <-r.Context().Done():
			return
		}
	}
	var b strings.Builder
	b.WriteString(`<html><head><title>Flats</title></head><body><main id="results">`)
	for _, id := range ls {
		fmt.Fprintf(&b, `<article class="card"><a href="/expose/%s"><h2>Flat %s</h2></a><p class="price">900 €</p></article>`, id, id)
	}
	b.WriteString(`</main></body></html>`)
	_, _ = io.WriteString(w, b.String())
}

// runCLI runs one command line of dir in this process.
func runCLI(t *testing.T, ctx context.Context, dir string, args ...string) int {
	t.Helper()
	env := &cli.Env{Stdout: io.Discard, Stderr: io.Discard, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	return cli.Run(ctx, env, append([]string{"--data", dir}, args...))
}

// The window's Quit all stops the watcher over its socket (POST /v1/quit,
// on every system; before it was SIGTERM to its pid, which Windows does not
// have): the watcher ends cleanly, its socket is gone, and a poll in
// progress when it was asked loses nothing: its new listing is announced
// exactly once, by the next check if not by that poll.
func TestQuitAllStopsTheWatcherOverTheSocket(t *testing.T) {
	site := &heldSite{listings: []string{"m1"}}
	srv := httptest.NewServer(site)
	defer srv.Close()
	closed, err := net.Listen("tcp", "127.0.0.1:0") // a mail server that never answers: emails stay queued
	if err != nil {
		t.Fatal(err)
	}
	smtpPort := closed.Addr().(*net.TCPAddr).Port
	closed.Close()
	dir := t.TempDir()
	ctx := context.Background()
	if code := runCLI(t, ctx, dir, "email", "set", "--host", "127.0.0.1", "--port", fmt.Sprint(smtpPort), "--security", "none",
		"--from", "notifio@example.test", "--to", "hunter@example.test"); code != 0 {
		t.Fatalf("email set: exit %d", code)
	}
	if code := runCLI(t, ctx, dir, "search", "add", "--name", "Flats", "--every", "1h", srv.URL+"/flats"); code != 0 {
		t.Fatalf("search add: exit %d", code)
	}
	runCLI(t, ctx, dir, "once", "--wait", "0s") // the baseline: m1

	done := make(chan int, 1)
	go func() { done <- runCLI(t, ctx, dir, "run") }()
	l := newLink(api.SocketPath(dir))
	waitAnswers(t, l, done)
	site.mu.Lock()
	site.listings = []string{"m1", "m2"}
	site.hold, site.arrived = make(chan struct{}), make(chan struct{}, 1)
	site.mu.Unlock()
	snap, err := l.SnapshotErr(ctx)
	if err != nil || len(snap.Searches) != 1 {
		t.Fatalf("snapshot: %v %+v", err, snap)
	}
	if err := l.CheckNow(snap.Searches[0].ID); err != nil {
		t.Fatal(err)
	}
	select {
	case <-site.arrived:
	case <-time.After(20 * time.Second):
		t.Fatal("the check did not reach the site")
	}

	if err := l.stopWatcher(); err != nil { // the window's Quit all, in the middle of the poll
		t.Fatalf("quit: %v", err)
	}
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("the watcher ended with %d", code)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the watcher did not stop when asked to quit")
	}
	if _, err := os.Stat(api.SocketPath(dir)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the socket is still there after quitting: %v", err)
	}
	if _, err := l.whoAnswers(); !errors.Is(err, api.ErrNotRunning) {
		t.Errorf("after quitting, the socket answers: %v", err)
	}

	site.mu.Lock()
	site.hold = nil
	site.mu.Unlock()
	runCLI(t, ctx, dir, "once", "--wait", "0s") // the next check
	db, err := storage.Open(dir, storage.Options{})
	if err != nil {
		t.Fatalf("the database after quitting: %v", err)
	}
	defer db.Close()
	items, err := db.ListOutbox()
	if err != nil {
		t.Fatal(err)
	}
	announced := 0
	for _, it := range items {
		for _, ls := range it.Listings {
			if strings.HasSuffix(ls.URL, "/expose/m2") {
				announced++
			}
		}
	}
	if announced != 1 {
		t.Errorf("m2 is in %d queued emails, want exactly 1: %+v", announced, items)
	}
}
