package cli_test

import (
	"bytes"
	"fmt"
	"mime"
	"net/http"
	"net/http/httptest"
	"net/mail"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// switchSite serves results, a redirect to its login page, or 429, as the
// test says.
type switchSite struct {
	listingSite
	smu  sync.Mutex
	mode string // "", "login" or "429"
}

func (s *switchSite) set(mode string) {
	s.smu.Lock()
	s.mode = mode
	s.smu.Unlock()
}

func (s *switchSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.smu.Lock()
	mode := s.mode
	s.smu.Unlock()
	switch {
	case r.URL.Path == "/login":
		fmt.Fprint(w, `<html><head><title>Anmelden</title></head><body><form><input type="password" name="pw"></form></body></html>`)
	case mode == "login":
		http.Redirect(w, r, "/login?next="+r.URL.Path, http.StatusFound)
	case mode == "429":
		w.WriteHeader(http.StatusTooManyRequests)
		fmt.Fprint(w, "<html><body><h1>Too Many Requests</h1></body></html>")
	default:
		s.listingSite.ServeHTTP(w, r)
	}
}

// subjects are the decoded subjects of the mails received.
func subjects(sink *mailSink) []string {
	var out []string
	dec := new(mime.WordDecoder)
	for _, m := range sink.all() {
		msg, err := mail.ReadMessage(strings.NewReader(m))
		if err != nil {
			continue
		}
		s, err := dec.DecodeHeader(msg.Header.Get("Subject"))
		if err != nil {
			s = msg.Header.Get("Subject")
		}
		out = append(out, s)
	}
	return out
}

func countWith(ss []string, words ...string) int {
	n := 0
	for _, s := range ss {
		all := true
		for _, w := range words {
			all = all && strings.Contains(s, w)
		}
		if all {
			n++
		}
	}
	return n
}

// The real binary tells the user when a search stops working: a login that
// expired at once, a site that keeps refusing after `alerts set --after 1m`,
// and once more when it is back to normal.
func TestEndToEndHealthAlerts(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test builds the binary and runs for about three minutes")
	}
	if runtime.GOOS == "windows" {
		t.Skip("uses SIGTERM")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	start := func(site *switchSite, ip string) *httptest.Server {
		srv := httptest.NewUnstartedServer(site)
		srv.Listener = listenOn(t, ip)
		srv.Start()
		t.Cleanup(srv.Close)
		return srv
	}
	login := &switchSite{listingSite: listingSite{listings: []string{"l1", "l2"}}}
	busy := &switchSite{listingSite: listingSite{listings: []string{"b1", "b2"}}}
	srvL, srvB := start(login, "127.0.0.4"), start(busy, "127.0.0.5")

	sink, smtpPort := startMailSink(t)

	mustCLI := func(args ...string) string {
		t.Helper()
		out, errOut, err := runCLI(t, bin, dir, args...)
		if err != nil {
			t.Fatalf("notifio %s: %v\nstdout: %s\nstderr: %s", strings.Join(args, " "), err, out, errOut)
		}
		return out
	}
	mustCLI("search", "add", "--name", "Members area", "--every", "30s", srvL.URL+"/members/flats")
	mustCLI("search", "add", "--name", "Busy portal", "--every", "30s", srvB.URL+"/flats?max=900")
	mustCLI("email", "set", "--host", "127.0.0.1", "--port", smtpPort, "--security", "none",
		"--from", "notifio@example.test", "--to", "hunter@example.test")
	mustCLI("alerts", "set", "--after", "1m")

	run := exec.Command(bin, "--data", dir, "run")
	var runErr bytes.Buffer
	run.Stderr = &runErr
	if err := run.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if run.ProcessState == nil {
			_ = run.Process.Kill()
		}
	}()
	eventually(t, 30*time.Second, "both baselines", func() bool {
		login.mu.Lock()
		busy.mu.Lock()
		defer login.mu.Unlock()
		defer busy.mu.Unlock()
		return login.hits > 0 && busy.hits > 0
	})
	login.set("login")
	busy.set("429")
	refusedAt := time.Now()

	eventually(t, 50*time.Second, "an email saying to log in again", func() bool {
		return countWith(subjects(sink), "Log in again", "Members area") == 1
	})
	eventually(t, 150*time.Second, "an alert that the busy portal refuses", func() bool {
		return countWith(subjects(sink), "Busy portal", "rate-limiting") == 1
	})
	if d := time.Since(refusedAt); d < time.Minute {
		t.Errorf("told after %s, before the minute the user chose", d)
	}
	busy.set("")
	eventually(t, 150*time.Second, "one back-to-normal email", func() bool {
		return countWith(subjects(sink), "Back to normal", "Busy portal") == 1
	})
	if err := run.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	_ = run.Wait()
	got := subjects(sink)
	if countWith(got, "Members area") != 1 || countWith(got, "Busy portal") != 2 {
		t.Errorf("emails %q: want one login alert, one refusal alert and one back to normal", got)
	}
	out, _, err := runCLI(t, bin, dir, "status")
	if err == nil || !strings.Contains(out, "login for 127.0.0.4 has expired") {
		t.Errorf("status after the run: err %v\n%s", err, out)
	}
	if t.Failed() {
		t.Logf("run's log:\n%s", runErr.String())
	}
}
