package cli_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The real binary with push alone (no email): after `push add` of an
// ntfy-compatible server on loopback, a new listing on a loopback site gives
// one POST carrying its title and link, and the next poll without a new
// listing gives nothing more.
func TestEndToEndPushRealBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test builds the binary and runs for about a minute")
	}
	if runtime.GOOS == "windows" {
		t.Skip("uses SIGTERM")
	}
	bin := buildBinary(t)
	dir := t.TempDir()

	site := &listingSite{listings: []string{"a1", "a2", "a3"}}
	srv := httptest.NewUnstartedServer(site)
	srv.Listener = listenOn(t, "127.0.0.2")
	srv.Start()
	defer srv.Close()

	var mu sync.Mutex
	var posts []string
	ntfy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		posts = append(posts, r.Method+" "+r.URL.Path+"\n"+r.Header.Get("Title")+"\n"+string(b))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"id":"m1","event":"message","topic":"flats"}`))
	}))
	defer ntfy.Close()
	got := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), posts...)
	}

	// No desktop keyring in a test: the URL goes to the 0600 fallback file.
	env := append(os.Environ(), "DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent")
	cli := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, append([]string{"--data", dir}, args...)...)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("notifio %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	cli("search", "add", "--name", "Flats A", "--every", "30s", srv.URL+"/wohnungen?max=1200")
	cli("push", "add", "ntfy://"+strings.TrimPrefix(ntfy.URL, "http://")+"/flats?scheme=http")

	run := exec.Command(bin, "--data", dir, "run")
	run.Env = env
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
	hits := func() int {
		site.mu.Lock()
		defer site.mu.Unlock()
		return site.hits
	}

	eventually(t, 20*time.Second, "the baseline poll", func() bool {
		out, _, err := runCLI(t, bin, dir, "search", "list", "--json")
		var ss []searchJSON
		return err == nil && json.Unmarshal([]byte(out), &ss) == nil && len(ss) == 1 && ss[0].Baselined
	})
	if n := len(got()); n != 0 {
		t.Fatalf("the baseline sent %d pushes, want none", n)
	}
	site.add("new-42")
	eventually(t, 50*time.Second, "a push with the new listing", func() bool { return len(got()) > 0 })
	p := got()[0]
	for _, want := range []string{"POST /flats", "1 new on Flats A", "Flat new-42", srv.URL + "/expose/new-42"} {
		if !strings.Contains(p, want) {
			t.Errorf("the push lacks %q:\n%s", want, p)
		}
	}
	after := hits()
	eventually(t, 50*time.Second, "the next poll", func() bool { return hits() > after })
	time.Sleep(2 * time.Second) // give a wrong second push the time to arrive
	if n := len(got()); n != 1 {
		t.Errorf("%d pushes, want exactly one:\n%s", n, strings.Join(got(), "\n---\n"))
	}

	if err := run.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("run exited with %v; log:\n%s", err, runErr.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatalf("run did not stop; log:\n%s", runErr.String())
	}
}
