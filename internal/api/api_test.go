package api_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"notifio/cli"
	"notifio/internal/api"
	"notifio/notify"
	"notifio/poll"
	"notifio/storage"

	"notifio/internal/model"

	"notifio/poll/words"
)

// The served interfaces are what the watcher has today.
var (
	_ api.Watcher  = (*poll.Service)(nil)
	_ api.Delivery = (*notify.Ops)(nil)
)

// served is a real watcher (not running its loop unless the test says) over
// a real database, its API on a socket in a temp directory, and a client.
type served struct {
	dir    string
	sock   string
	w      *cli.Watcher
	srv    *api.Server
	client *api.Client
}

func serve(t *testing.T) *served {
	t.Helper()
	dir := t.TempDir()
	db, err := storage.Open(dir, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := cli.NewWatcher(db, poll.Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	sock := api.SocketPath(dir)
	l, err := api.Listen(sock)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	srv := api.NewServer(w.Service, w.Ops, api.Info{Version: "test", PID: os.Getpid(), DataDir: dir}, nil)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, l) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
		w.Service.Close()
		db.Close()
	})
	c := api.NewClient(sock)
	c.Version = "test"
	return &served{dir: dir, sock: sock, w: w, srv: srv, client: c}
}

// site is a loopback results page with two listings.
func site(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<html><head><title>Flats</title></head><body><main id="results">`+
			`<article class="card"><a href="/expose/1"><h2>Flat one</h2></a><p class="price">900 €</p></article>`+
			`<article class="card"><a href="/expose/2"><h2>Flat two</h2></a><p class="price">950 €</p></article>`+
			`</main></body></html>`)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestAddSearchOverTheSocket(t *testing.T) {
	s := serve(t)
	srv := site(t)
	got, err := s.client.AddSearch(context.Background(), model.SearchInput{Name: "Flats", URL: srv.URL + "/flats", Interval: 5 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	want, err := s.w.Service.Search(got.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("client got %+v, the watcher has %+v", got, want)
	}
	snap := s.client.Snapshot()
	if len(snap.Searches) != 1 || snap.Searches[0].ID != got.ID || snap.Searches[0].Interval != 5*time.Minute {
		t.Errorf("snapshot over the socket = %+v, want the one search every 5m", snap.Searches)
	}
}

// A *model.UserError crosses the socket as message + hint, and comes back the
// same, its sentinel still errors.Is.
func TestUserErrorCrossesTheSocket(t *testing.T) {
	s := serve(t)
	_, local := s.w.Service.AddSearch(context.Background(), model.SearchInput{URL: "ftp://example.test/x"})
	_, remote := s.client.AddSearch(context.Background(), model.SearchInput{URL: "ftp://example.test/x"})
	var lu, ru *model.UserError
	if !errors.As(local, &lu) || !errors.As(remote, &ru) {
		t.Fatalf("local %v, remote %v: want both *model.UserError", local, remote)
	}
	if ru.Msg != lu.Msg || ru.Hint != lu.Hint {
		t.Errorf("remote error = %q / %q, want %q / %q", ru.Msg, ru.Hint, lu.Msg, lu.Hint)
	}
	if !errors.Is(remote, model.ErrBadURL) {
		t.Errorf("remote error %v does not wrap model.ErrBadURL", remote)
	}
	if w, _ := words.UserWords(remote); w != lu.Words() {
		t.Errorf("UserWords(remote) = %q, want %q", w, lu.Words())
	}
}

// The email settings' field problems come back as notify.FieldErrors.
func TestFieldErrorsCrossTheSocket(t *testing.T) {
	s := serve(t)
	_, err := s.client.SetEmailConfig(model.Config{Host: "smtp.example.test", Port: 99999}, "")
	var fe *model.FieldError
	if !errors.As(err, &fe) {
		t.Fatalf("err = %v, want a model.FieldError", err)
	}
	if w, ok := words.UserWords(err); !ok || w == "" {
		t.Errorf("UserWords(%v) = %q, %v: want the problems in words", err, w, ok)
	}
}

// A client and a watcher of different API versions say so in words, both
// ways: a newer watcher answers an older client, an older watcher is asked
// a newer path.
func TestOtherVersionInWords(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "newer.sock")
	l, err := api.Listen(sock)
	if err != nil {
		t.Fatal(err)
	}
	newer := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set(api.HeaderAPI, "2")
		w.Header().Set(api.HeaderVersion, "9.0")
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, `{"something":"else"}`)
	})}
	go func() { _ = newer.Serve(l) }()
	defer newer.Close()
	c := api.NewClient(sock)
	c.Version = "1.4"
	_, err = c.SnapshotErr(context.Background())
	var ue *model.UserError
	if !errors.As(err, &ue) || !errors.Is(err, api.ErrVersion) {
		t.Fatalf("err = %v, want a *model.UserError wrapping api.ErrVersion", err)
	}
	if !strings.Contains(ue.Msg, "version 1.4") || !strings.Contains(ue.Msg, "version 9.0") || ue.Hint == "" {
		t.Errorf("words = %q / %q, want both versions and what to do", ue.Msg, ue.Hint)
	}

	s := serve(t)
	hc := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "unix", s.sock)
	}}}
	resp, err := hc.Get("http://notifio/v2/snapshot")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct{ Error api.Error }
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusNotFound || body.Error.Kind != "version" || !strings.Contains(body.Error.Message, "version test") {
		t.Errorf("a /v2 request got %s %+v, want 404 with the watcher's version in words", resp.Status, body.Error)
	}
}

// A socket left by a crashed watcher is replaced; one a watcher answers on
// is refused with its pid.
func TestStaleSocketReplacedLiveOneRefused(t *testing.T) {
	s := serve(t)
	_, err := api.Listen(s.sock)
	var re *api.RunningError
	if !errors.As(err, &re) || re.PID != os.Getpid() {
		t.Fatalf("second Listen = %v, want a RunningError naming pid %d", err, os.Getpid())
	}

	stale := filepath.Join(t.TempDir(), "notifio.sock")
	l, err := api.Listen(stale)
	if err != nil {
		t.Fatal(err)
	}
	// Closing a Unix listener removes its file; a crash does not. Keep it.
	if ul, ok := l.(interface{ SetUnlinkOnClose(bool) }); ok {
		ul.SetUnlinkOnClose(false)
	}
	l.Close()
	if _, err := os.Stat(stale); err != nil {
		t.Fatalf("the stale socket is gone before the test: %v", err)
	}
	l2, err := api.Listen(stale)
	if err != nil {
		t.Fatalf("Listen over a stale socket: %v", err)
	}
	l2.Close()
}

func TestSocketIsPrivate(t *testing.T) {
	s := serve(t)
	fi, err := os.Stat(s.sock)
	if err != nil {
		t.Fatal(err)
	}
	if perm := fi.Mode().Perm(); perm != 0o600 {
		t.Errorf("socket mode %o, want 600", perm)
	}
}

// Requests from many clients while the watcher polls: each is answered and
// the state stays whole (run with -race).
func TestConcurrentRequestsDuringPolls(t *testing.T) {
	s := serve(t)
	srv := site(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	running := make(chan struct{})
	go func() { defer close(running); _ = s.w.Service.Run(ctx) }()
	var wg sync.WaitGroup
	ids := make([]string, 8)
	errs := make([]error, 8)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sr, err := s.client.AddSearch(ctx, model.SearchInput{URL: fmt.Sprintf("%s/flats?p=%d", srv.URL, i), Interval: time.Minute})
			if err != nil {
				errs[i] = err
				return
			}
			ids[i] = sr.ID
			for range 5 {
				if err := s.client.CheckNow(sr.ID); err != nil && !errors.Is(err, model.ErrSiteWaiting) {
					errs[i] = err
				}
				_ = s.client.Snapshot()
				if err := s.client.SetPaused(sr.ID, true); err != nil {
					errs[i] = err
				}
				if err := s.client.SetPaused(sr.ID, false); err != nil {
					errs[i] = err
				}
			}
		}()
	}
	wg.Wait()
	cancel()
	<-running
	for i, err := range errs {
		if err != nil {
			t.Errorf("client %d: %v", i, err)
		}
	}
	snap := s.w.Service.Snapshot()
	if len(snap.Searches) != 8 {
		t.Fatalf("%d searches after 8 concurrent adds, want 8", len(snap.Searches))
	}
	seen := map[string]bool{}
	for _, sr := range s.client.Snapshot().Searches {
		seen[sr.ID] = true
	}
	for i, id := range ids {
		if !seen[id] {
			t.Errorf("search %d (%s) is not in the client's snapshot", i, id)
		}
	}
}

// The stream sends the current snapshot, then one after a change.
func TestSubscribeFollowsChanges(t *testing.T) {
	s := serve(t)
	srv := site(t)
	got := make(chan model.Snapshot, 16)
	stop := s.client.Subscribe(func(snap model.Snapshot) { got <- snap })
	defer stop()
	first := <-got
	if len(first.Searches) != 0 {
		t.Fatalf("first snapshot has %d searches, want 0", len(first.Searches))
	}
	if _, err := s.client.AddSearch(context.Background(), model.SearchInput{URL: srv.URL + "/flats"}); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(10 * time.Second) // a guard against hanging, not a measure
	for {
		select {
		case snap := <-got:
			if len(snap.Searches) == 1 {
				return
			}
		case <-deadline:
			t.Fatal("no snapshot with the new search came down the stream")
		}
	}
}

// A *model.WaitError crosses the socket typed, with its site, instant and
// kind.
func TestWaitErrorCrossesTheSocket(t *testing.T) {
	s := serve(t)
	busy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "900")
		w.WriteHeader(http.StatusTooManyRequests)
	}))
	defer busy.Close()
	sr, err := s.client.AddSearch(context.Background(), model.SearchInput{URL: busy.URL + "/flats"})
	if err != nil {
		t.Fatal(err)
	}
	s.w.Service.Once(context.Background()) // one poll: the site answers 429 and waits
	local := s.w.Service.CheckNow(sr.ID)
	remote := s.client.CheckNow(sr.ID)
	var lw, rw *model.WaitError
	if !errors.As(local, &lw) || !errors.As(remote, &rw) {
		t.Fatalf("local %v, remote %v: want both *model.WaitError", local, remote)
	}
	if rw.Site != lw.Site || !rw.Until.Equal(lw.Until) || rw.Wait != lw.Wait || rw.Reason != lw.Reason || !errors.Is(remote, model.ErrSiteWaiting) {
		t.Errorf("remote %+v, want %+v", rw, lw)
	}
}

// A dry run comes back as the watcher made it: listings, verdicts, groups.
func TestDryRunCrossesTheSocket(t *testing.T) {
	s := serve(t)
	srv := site(t)
	in := model.SearchInput{URL: srv.URL + "/other", Filters: model.Filters{MaxPrice: 920}}
	want, err := s.w.Service.TestSearch(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.client.TestSearch(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("dry run over the socket:\n%+v\nwant\n%+v", got, want)
	}
	if len(got.Listings) != 2 || len(got.Judged) != 2 || got.Judged[1].Pass() {
		t.Errorf("dry run: %d listings, judged %+v; want 2, the second held by the price", len(got.Listings), got.Judged)
	}
}

// When the watcher stops, Watch returns an error that says no watcher
// runs (the window tells the user and offers to start one).
func TestWatchEndsWhenTheWatcherStops(t *testing.T) {
	dir := t.TempDir()
	db, err := storage.Open(dir, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	w, err := cli.NewWatcher(db, poll.Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Service.Close()
	sock := api.SocketPath(dir)
	l, err := api.Listen(sock)
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- api.NewServer(w.Service, w.Ops, api.Info{PID: 1}, nil).Serve(ctx, l) }()
	c := api.NewClient(sock)
	first := make(chan struct{}, 1)
	ended := make(chan error, 1)
	go func() {
		ended <- c.Watch(context.Background(), func(model.Snapshot) {
			select {
			case first <- struct{}{}:
			default:
			}
		})
	}()
	<-first
	stop()
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	if err := <-ended; !errors.Is(err, api.ErrNotRunning) {
		t.Errorf("Watch ended with %v, want an error wrapping api.ErrNotRunning", err)
	}
	if _, err := c.SnapshotErr(context.Background()); !errors.Is(err, api.ErrNotRunning) {
		t.Errorf("a request after the stop: %v, want api.ErrNotRunning", err)
	}
}

// A failed delivery (notify's DeliveryError) crosses the socket as what the
// server said and what to do, apart: the window words a test email from the
// running watcher as from a local call, with "What to do" on its own line
// (it came as one sentence, the hint glued to the server's words).
func TestDeliveryErrorCrossesTheSocket(t *testing.T) {
	s := serve(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close() // nothing listens there now: the connection is refused
	cfg := model.Config{Host: "127.0.0.1", Port: port, Security: model.SecurityNone,
		From: "me@example.com", To: []string{"me@example.com"}, Timeout: 5 * time.Second}
	local := s.w.Ops.SendTestEmail(context.Background(), cfg, "")
	remote := s.client.SendTestEmail(context.Background(), cfg, "")
	if local == nil || remote == nil {
		t.Fatalf("local %v, remote %v: want both to fail", local, remote)
	}
	lw, rw := words.EmailTestFailed(local), words.EmailTestFailed(remote)
	if rw != lw || lw.Hint == "" {
		t.Errorf("over the socket:\n%#v\nwant\n%#v", rw, lw)
	}
	if remote.Error() != local.Error() {
		t.Errorf("remote error %q, want %q (the command line prints it whole)", remote, local)
	}
}
