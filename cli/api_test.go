package cli

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"notifio/internal/api"
	"notifio/poll"
	"notifio/storage"
)

// holdWithAPI is a watcher holding dir's database and serving its API, as
// `notifio run` does (its poll loop not running: the tests look at what the
// commands change, not at polls).
func holdWithAPI(t *testing.T, dir string) *Watcher {
	t.Helper()
	db, err := storage.Open(dir, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := NewWatcher(db, poll.Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	stop, err := ServeAPI(context.Background(), dir, "test", w, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stop(); w.Service.Close(); db.Close() })
	return w
}

// While a watcher holds the data, the commands that change it go through the
// watcher (before the API they all answered "already running … Stop it first").
func TestCommandsGoToTheRunningWatcher(t *testing.T) {
	srv := resultsSite(t)
	dir := t.TempDir()
	w := holdWithAPI(t, dir)

	mustRun := func(args ...string) string {
		t.Helper()
		code, out, errOut := run(t, dir, args...)
		if code != 0 {
			t.Fatalf("notifio %s: exit %d\n%s\n%s", strings.Join(args, " "), code, out, errOut)
		}
		return out
	}
	mustRun("search", "add", "--name", "Flats", "--every", "1m", srv.URL+"/s")
	snap := w.Service.Snapshot()
	if len(snap.Searches) != 1 || snap.Searches[0].Name != "Flats" {
		t.Fatalf("the watcher has %+v, want the search added through it", snap.Searches)
	}
	id := snap.Searches[0].ID
	mustRun("search", "pause", id)
	if s, _ := w.Service.Search(id); !s.Paused {
		t.Error("search pause did not reach the watcher")
	}
	mustRun("search", "resume", id)
	mustRun("search", "check", id)
	mustRun("search", "edit", id, "--max-price", "1000")
	if s, _ := w.Service.Search(id); s.Filters.MaxPrice != 1000 {
		t.Errorf("search edit: the watcher's filters are %+v", s.Filters)
	}
	mustRun("listings", id)
	mustRun("alerts", "set", "--after", "2h")
	if a := w.Service.AlertSettings(); a.After.Hours() != 2 {
		t.Errorf("alerts set: the watcher has %+v", a)
	}
	var alerts struct {
		AfterS float64 `json:"after_s"`
	}
	if err := json.Unmarshal([]byte(mustRun("alerts", "show", "--json")), &alerts); err != nil || alerts.AfterS != 7200 {
		t.Errorf("alerts show --json: after_s %v (%v), want 7200", alerts.AfterS, err)
	}
	mustRun("email", "set", "--host", "127.0.0.1", "--port", "2525", "--security", "none", "--from", "a@example.org", "--to", "b@example.org")
	if cfg, _ := w.Ops.EmailConfig(); cfg.Host != "127.0.0.1" {
		t.Errorf("email set: the watcher has %+v", cfg)
	}
	mustRun("email", "retry")
	mustRun("push", "list")
	if code, _, errOut := run(t, dir, "status"); code > 1 || strings.Contains(errOut, "already running") {
		t.Errorf("status: exit %d %q", code, errOut)
	}
	mustRun("search", "remove", id)
	if n := len(w.Service.Snapshot().Searches); n != 0 {
		t.Errorf("search remove: the watcher has %d searches", n)
	}
	code, _, errOut := run(t, dir, "search", "pause", "nope")
	if code != 1 || !strings.Contains(errOut, `no search with ID "nope"`) {
		t.Errorf("pause of an unknown ID through the watcher: exit %d %q", code, errOut)
	}
	code, _, errOut = run(t, dir, "search", "add", "ftp://example.test/x")
	if code != 1 || !strings.Contains(errOut, "https://") {
		t.Errorf("a bad URL through the watcher: exit %d %q, want its words", code, errOut)
	}
}

// A second watcher on the same data refuses and names the first's pid.
func TestSecondWatcherNamesThePID(t *testing.T) {
	dir := t.TempDir()
	holdWithAPI(t, dir)
	code, _, errOut := runWith(t, dir, storage.Options{LockTimeout: 50e6}, "", "run")
	if code != 1 || !strings.Contains(errOut, "pid "+strconv.Itoa(os.Getpid())) || !strings.Contains(errOut, "Stop it first") {
		t.Errorf("second run: exit %d, %q; want 1 naming pid %d", code, errOut, os.Getpid())
	}
}

// --connect unix:PATH (and NOTIFIO_CONNECT) reach a watcher through a socket
// in another directory, as one forwarded with ssh -L; its data directory is
// never opened. A TCP address is refused in words.
func TestConnectToAForwardedSocket(t *testing.T) {
	srv := resultsSite(t)
	dir := t.TempDir()
	holdWithAPI(t, dir)
	fwd := filepath.Join(t.TempDir(), "fwd.sock")
	forward(t, fwd, api.SocketPath(dir))
	elsewhere := t.TempDir() // an empty data directory: nothing is read from it

	code, out, errOut := run(t, elsewhere, "--connect", "unix:"+fwd, "search", "add", "--name", "Remote", srv.URL+"/s")
	if code != 0 {
		t.Fatalf("add over --connect: exit %d %q %q", code, out, errOut)
	}
	t.Setenv("NOTIFIO_CONNECT", "unix:"+fwd)
	code, out, _ = run(t, elsewhere, "search", "list", "--json")
	var list []struct {
		Name string `json:"name"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &list) != nil || len(list) != 1 || list[0].Name != "Remote" {
		t.Errorf("list over NOTIFIO_CONNECT: exit %d %q", code, out)
	}
	if _, err := os.Stat(filepath.Join(elsewhere, "notifio.db")); err == nil {
		t.Error("a database was opened in the --data directory although --connect was given")
	}
	code, _, errOut = run(t, elsewhere, "--connect", "tcp://10.0.0.2:7000", "status")
	if code != 2 || !strings.Contains(errOut, "ssh -L") {
		t.Errorf("--connect tcp: exit %d %q, want a usage error pointing at ssh -L", code, errOut)
	}
	code, _, errOut = run(t, elsewhere, "--connect", "unix:"+filepath.Join(elsewhere, "none.sock"), "status")
	if code != 1 || !strings.Contains(errOut, "not answering") {
		t.Errorf("--connect to no watcher: exit %d %q", code, errOut)
	}
}

// forward relays connections on the socket at from to the socket at to, as
// `ssh -L from:to` does.
func forward(t *testing.T, from, to string) {
	t.Helper()
	l, err := net.Listen("unix", from)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				up, err := net.Dial("unix", to)
				if err != nil {
					return
				}
				defer up.Close()
				go func() { _, _ = io.Copy(up, c) }()
				_, _ = io.Copy(c, up)
			}()
		}
	}()
}

// --json is one shape: snake_case, durations in seconds, a search the same
// object in `search add` and `search list` (before: Go field names and
// nanoseconds in `search list --json`).
func TestJSONIsSnakeCaseWithSeconds(t *testing.T) {
	srv := resultsSite(t)
	dir := t.TempDir()
	code, added, errOut := run(t, dir, "search", "add", "--json", "--every", "90s", srv.URL+"/s")
	if code != 0 {
		t.Fatalf("add: %d %q", code, errOut)
	}
	_, listed, _ := run(t, dir, "search", "list", "--json")
	var a map[string]any
	var l []map[string]any
	if err := json.Unmarshal([]byte(added), &a); err != nil {
		t.Fatalf("add --json: %v\n%s", err, added)
	}
	if err := json.Unmarshal([]byte(listed), &l); err != nil || len(l) != 1 {
		t.Fatalf("list --json: %v\n%s", err, listed)
	}
	for what, obj := range map[string]map[string]any{"search add": a, "search list": l[0]} {
		if obj["interval_s"] != 90.0 {
			t.Errorf("%s --json: interval_s = %v, want 90 (seconds)", what, obj["interval_s"])
		}
		for k := range obj {
			if k != strings.ToLower(k) {
				t.Errorf("%s --json has the key %q, want snake_case", what, k)
			}
		}
		for _, k := range []string{"id", "name", "url", "site", "paused", "baselined"} {
			if _, ok := obj[k]; !ok {
				t.Errorf("%s --json lacks %q", what, k)
			}
		}
	}
	run(t, dir, "email", "set", "--host", "127.0.0.1", "--port", "2525", "--security", "none", "--from", "a@example.org", "--to", "b@example.org")
	for _, args := range [][]string{{"status"}, {"sites"}, {"alerts", "show"}, {"email", "show"}, {"push", "list"}, {"listings"}, {"once", "--wait", "1s"}} {
		_, out, _ := run(t, dir, append(args, "--json")...)
		var v any
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Errorf("%v --json: %v\n%s", args, err, out)
			continue
		}
		for _, k := range keys(v) {
			if k != strings.ToLower(k) || strings.Contains(k, " ") {
				t.Errorf("%v --json has the key %q, want snake_case", args, k)
			}
		}
	}
	_, once, _ := run(t, dir, "once", "--json", "--wait", "1s")
	var o map[string]any
	if err := json.Unmarshal([]byte(once), &o); err != nil {
		t.Fatalf("once --json: %v\n%s", err, once)
	}
	outbox, _ := o["outbox"].(map[string]any)
	if _, ok := outbox["needs_attention"]; !ok {
		t.Errorf("once --json outbox = %v, want snake_case counts", o["outbox"])
	}
}

// keys are all object keys in a decoded JSON value, however deep.
func keys(v any) []string {
	var out []string
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			out = append(out, k)
			out = append(out, keys(e)...)
		}
	case []any:
		for _, e := range x {
			out = append(out, keys(e)...)
		}
	}
	return out
}

func TestSplitConnectTakesItAnywhere(t *testing.T) {
	rest, c, err := SplitConnect([]string{"search", "--connect", "unix:/s", "list"})
	if err != nil || c != "unix:/s" || strings.Join(rest, " ") != "search list" {
		t.Errorf("got %v %q %v", rest, c, err)
	}
	if _, c, err := SplitConnect([]string{"--connect=unix:/t", "status"}); err != nil || c != "unix:/t" {
		t.Errorf("--connect=: %q %v", c, err)
	}
	for _, args := range [][]string{{"status", "--connect"}, {"--connect", "", "status"}, {"--connect=", "status"}} {
		if _, _, err := SplitConnect(args); !errors.Is(err, ErrUsage) {
			t.Errorf("SplitConnect(%q) = %v, want a usage error", args, err)
		}
	}
}
