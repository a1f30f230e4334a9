package cli_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
)

// The end-to-end test builds the real notifio binary and drives it as a user
// would: searches on two loopback sites, a real SMTP server on loopback, `run` in
// the background, a new listing → an email, a 429 → `sites` shows the wait, and
// SIGTERM → clean exit; a restart keeps the wait.

func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found")
		}
		dir = parent
	}
}

// buildBinary builds notifio once per test run. The ci tag selects Fyne's
// software driver, so the binary needs no GL; the command-line code is the same.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "notifio")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	cmd := exec.Command("go", "build", "-tags", "ci", "-o", bin, ".")
	cmd.Dir = moduleRoot(t)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build notifio: %v\n%s", err, out)
	}
	return bin
}

// listingSite serves a results page whose listings the test can change.
type listingSite struct {
	mu       sync.Mutex
	listings []string
	hits     int
}

func (s *listingSite) add(id string) {
	s.mu.Lock()
	s.listings = append(s.listings, id)
	s.mu.Unlock()
}

func (s *listingSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	ids := append([]string(nil), s.listings...)
	s.hits++
	s.mu.Unlock()
	var items, cards strings.Builder
	for i, id := range ids {
		if i > 0 {
			items.WriteString(",")
		}
		fmt.Fprintf(&items, `{"@type":"ListItem","position":%d,"item":{"@type":"Apartment","name":"Flat %s","url":"/expose/%s","offers":{"@type":"Offer","price":"%d","priceCurrency":"EUR"}}}`, i+1, id, id, 900+i)
		fmt.Fprintf(&cards, `<article class="card"><a href="/expose/%s"><h2>Flat %s</h2></a><p class="price">%d €</p></article>`, id, id, 900+i)
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprintf(w, `<!doctype html><html><head><title>Wohnungen mieten</title>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"ItemList","itemListElement":[%s]}</script>
</head><body><main id="results">%s</main></body></html>`, items.String(), cards.String())
}

func listenOn(t *testing.T, ip string) net.Listener {
	t.Helper()
	l, err := net.Listen("tcp", ip+":0")
	if err != nil {
		t.Skipf("cannot listen on %s (loopback alias missing): %v", ip, err)
	}
	return l
}

// mailSink is an in-process SMTP server on loopback that keeps what it receives.
type mailSink struct {
	mu   sync.Mutex
	msgs []string
}

func (m *mailSink) NewSession(_ *smtp.Conn) (smtp.Session, error) { return &sinkSession{m: m}, nil }

type sinkSession struct{ m *mailSink }

func (s *sinkSession) Mail(string, *smtp.MailOptions) error { return nil }
func (s *sinkSession) Rcpt(string, *smtp.RcptOptions) error { return nil }
func (s *sinkSession) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.m.mu.Lock()
	s.m.msgs = append(s.m.msgs, string(b))
	s.m.mu.Unlock()
	return nil
}
func (s *sinkSession) Reset()        {}
func (s *sinkSession) Logout() error { return nil }

// startMailSink serves a mailSink on a loopback port until the test ends and
// returns it with its port.
func startMailSink(t *testing.T) (*mailSink, string) {
	t.Helper()
	sink := &mailSink{}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := smtp.NewServer(sink)
	srv.Domain, srv.AllowInsecureAuth = "localhost", true
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { _ = srv.Close() })
	_, port, _ := net.SplitHostPort(l.Addr().String())
	return sink, port
}

func (m *mailSink) all() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.msgs...)
}

func runCLI(t *testing.T, bin, dir string, args ...string) (string, string, error) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"--data", dir}, args...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.Env = append(os.Environ(), "NOTIFIO_SMTP_PASSWORD=")
	err := cmd.Run()
	return out.String(), errb.String(), err
}

type siteJSON struct {
	Site        string    `json:"site"`
	Waiting     bool      `json:"waiting"`
	Kind        string    `json:"kind"`
	NextProbe   time.Time `json:"next_probe"`
	RetryAfterS float64   `json:"retry_after_s"`
	LastStatus  int       `json:"last_status"`
	LastSignal  string    `json:"last_signal"`
}

type searchJSON struct {
	ID            string    `json:"id"`
	Site          string    `json:"site"`
	Baselined     bool      `json:"baselined"`
	BaselineCount int       `json:"baseline_count"`
	State         string    `json:"state"`
	LastChecked   time.Time `json:"last_checked"`
	Health        struct {
		Kind string `json:"kind"`
	} `json:"health"`
}

// eventually polls cond every 200 ms until it holds or the deadline passes.
func eventually(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for: %s", within, what)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func TestEndToEndRealBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test builds the binary and runs for about a minute")
	}
	if runtime.GOOS == "windows" {
		t.Skip("uses SIGTERM")
	}
	bin := buildBinary(t)
	dir := t.TempDir()

	good := &listingSite{listings: []string{"a1", "a2", "a3"}}
	lg := listenOn(t, "127.0.0.2")
	srvA := httptest.NewUnstartedServer(good)
	srvA.Listener = lg
	srvA.Start()
	defer srvA.Close()

	var refusals int
	var rmu sync.Mutex
	lb := listenOn(t, "127.0.0.3")
	srvB := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rmu.Lock()
		refusals++
		rmu.Unlock()
		w.Header().Set("Retry-After", "900")
		w.WriteHeader(http.StatusTooManyRequests)
		fmt.Fprint(w, "<html><body><h1>Too Many Requests</h1></body></html>")
	}))
	srvB.Listener = lb
	srvB.Start()
	defer srvB.Close()

	sink, smtpPort := startMailSink(t)

	mustCLI := func(args ...string) string {
		t.Helper()
		out, errOut, err := runCLI(t, bin, dir, args...)
		if err != nil {
			t.Fatalf("notifio %s: %v\nstdout: %s\nstderr: %s", strings.Join(args, " "), err, out, errOut)
		}
		return out
	}
	mustCLI("search", "add", "--name", "Flats A", "--every", "30s", srvA.URL+"/wohnungen?max=1200")
	mustCLI("search", "add", "--name", "Flats B1", "--every", "30s", srvB.URL+"/search?q=1")
	mustCLI("search", "add", "--name", "Flats B2", "--every", "30s", srvB.URL+"/search?q=2")
	mustCLI("email", "set", "--host", "127.0.0.1", "--port", smtpPort, "--security", "none",
		"--from", "notifio@example.test", "--to", "hunter@example.test")

	// Bad input gets a clear error and a non-zero exit.
	if _, errOut, err := runCLI(t, bin, dir, "search", "add", "ftp://example.test/x"); err == nil || !strings.Contains(errOut, "https://") {
		t.Fatalf("bad URL: err=%v stderr=%q, want a failure that says to use https://", err, errOut)
	}

	run := exec.Command(bin, "--data", dir, "run")
	var runErr bytes.Buffer
	run.Stderr = &runErr
	if err := run.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- run.Wait() }()
	defer func() {
		if run.ProcessState == nil {
			_ = run.Process.Kill()
		}
	}()

	searches := func() []searchJSON {
		out, _, err := runCLI(t, bin, dir, "search", "list", "--json")
		if err != nil {
			return nil
		}
		var ss []searchJSON
		_ = json.Unmarshal([]byte(out), &ss)
		return ss
	}
	sites := func() map[string]siteJSON {
		out, _, err := runCLI(t, bin, dir, "sites", "--json")
		if err != nil {
			return nil
		}
		var ss []siteJSON
		_ = json.Unmarshal([]byte(out), &ss)
		m := map[string]siteJSON{}
		for _, s := range ss {
			m[s.Site] = s
		}
		return m
	}

	eventually(t, 20*time.Second, "baseline of site A", func() bool {
		for _, s := range searches() {
			if s.Site == "127.0.0.2" && s.Baselined && s.BaselineCount == 3 {
				return true
			}
		}
		return false
	})
	if n := len(sink.all()); n != 0 {
		t.Fatalf("the baseline poll sent %d emails, want none", n)
	}
	good.add("new-42")

	var waitB siteJSON
	eventually(t, 20*time.Second, "site B shown waiting after its 429", func() bool {
		waitB = sites()["127.0.0.3"]
		return waitB.Waiting
	})
	if waitB.Kind != "rate_limited" || waitB.LastStatus != 429 || !strings.Contains(waitB.LastSignal, "429") {
		t.Errorf("site B = %+v, want rate_limited with status 429 and its signal", waitB)
	}
	if until := time.Until(waitB.NextProbe); until < 10*time.Minute || until > 61*time.Minute {
		t.Errorf("site B waits %s, want the Retry-After of 15m to win over the 2m ladder step", until)
	}

	eventually(t, 50*time.Second, "an email with the new listing", func() bool {
		for _, m := range sink.all() {
			if strings.Contains(m, "Flat new-42") {
				return true
			}
		}
		return false
	})
	msgs := sink.all()
	if len(msgs) != 1 {
		t.Errorf("got %d emails, want exactly one digest", len(msgs))
	}
	if !strings.Contains(msgs[0], "1 new on Flats A") {
		t.Errorf("digest subject missing; message:\n%s", msgs[0])
	}
	rmu.Lock()
	if refusals != 1 {
		t.Errorf("site B received %d requests while waiting, want exactly 1 (one entry per site)", refusals)
	}
	rmu.Unlock()

	if err := run.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("run exited with %v after SIGTERM; log:\n%s", err, runErr.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatalf("run did not stop within 15 s of SIGTERM; log:\n%s", runErr.String())
	}

	// A restart continues the wait: read straight from the database now.
	after := sites()["127.0.0.3"]
	if !after.Waiting || !after.NextProbe.Equal(waitB.NextProbe) {
		t.Errorf("after restart site B = %+v, want the same wait until %s", after, waitB.NextProbe)
	}
}
