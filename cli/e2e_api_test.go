package cli_test

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"notifio/internal/api"
)

// The real binary with `notifio run` holding the data: the command line goes
// through the watcher (before, every command that changes something answered
// "already running … Stop it first"). A search added is polled at once; a
// search told "log in again" is resumed with `search resume` and one "back
// to normal" email follows; `status` is live; a second watcher refuses and
// names the first's pid; the watcher killed with -9, the commands open the
// database themselves, and the next watcher replaces the socket left behind.
func TestEndToEndCommandsThroughTheWatcher(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test builds the binary and runs for about a minute")
	}
	if runtime.GOOS == "windows" {
		t.Skip("uses SIGTERM and SIGKILL")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	login := &switchSite{listingSite: listingSite{listings: []string{"m1", "m2"}}}
	srv := httptest.NewUnstartedServer(login)
	srv.Listener = listenOn(t, "127.0.0.6")
	srv.Start()
	defer srv.Close()
	sink, smtpPort := startMailSink(t)
	mustCLI := func(args ...string) string {
		t.Helper()
		out, errOut, err := runCLI(t, bin, dir, args...)
		if err != nil {
			t.Fatalf("notifio %s: %v\nstdout: %s\nstderr: %s", strings.Join(args, " "), err, out, errOut)
		}
		return out
	}
	mustCLI("email", "set", "--host", "127.0.0.1", "--port", smtpPort, "--security", "none",
		"--from", "notifio@example.test", "--to", "hunter@example.test")

	run, runLog := startRun(t, bin, dir)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("first run's log:\n%s", runLog.String())
		}
	})
	sock := api.SocketPath(dir) // the binary's environment is the test's
	eventually(t, 15*time.Second, "the watcher's socket", func() bool {
		_, _, err := runCLI(t, bin, dir, "status")
		_, serr := os.Stat(sock)
		return serr == nil && (err == nil || exitCode(err) == 1)
	})

	// Added while run holds the data, and polled within 15 s.
	var added struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal([]byte(mustCLI("search", "add", "--json", "--name", "Members area", "--every", "30s", srv.URL+"/members/flats")), &added); err != nil || added.ID == "" {
		t.Fatalf("search add --json: %v", err)
	}
	eventually(t, 15*time.Second, "the new search's first poll, seen live by `search list`", func() bool {
		s, ok := findSearch(t, bin, dir, added.ID)
		return ok && s.Baselined && s.BaselineCount == 2
	})

	// A second watcher on the same data refuses and names the first's pid.
	_, errOut, err := runCLI(t, bin, dir, "run")
	if err == nil || !strings.Contains(errOut, "pid "+strconv.Itoa(run.Process.Pid)) {
		t.Errorf("second run: %v %q, want a refusal naming pid %d", err, errOut, run.Process.Pid)
	}

	// Logged out: told at once; `status` says so while run runs (live).
	login.set("login")
	mustCLI("search", "check", added.ID)
	eventually(t, 30*time.Second, "an email saying to log in again", func() bool {
		return countWith(subjects(sink), "Log in again", "Members area") == 1
	})
	out, _, err := runCLI(t, bin, dir, "status")
	if exitCode(err) != 1 || !strings.Contains(out, "login for 127.0.0.6 has expired") {
		t.Errorf("status while run runs: %v\n%s", err, out)
	}
	login.set("")
	mustCLI("search", "resume", added.ID)
	eventually(t, 60*time.Second, "one back-to-normal email", func() bool {
		return countWith(subjects(sink), "Back to normal", "Members area") == 1
	})
	if out, _, err := runCLI(t, bin, dir, "status"); err != nil || !strings.Contains(out, "All healthy") {
		t.Errorf("status after resume: %v\n%s", err, out)
	}

	afterAKill(t, bin, dir, run, added.ID)
	got := subjects(sink)
	if countWith(got, "Members area") != 2 {
		t.Errorf("emails %q: want one login alert and one back to normal", got)
	}
}

// afterAKill kills the watcher with -9: the socket stays behind, and the
// commands open the database themselves; the next watcher replaces the stale
// socket, answers on it, and removes it when it stops.
func afterAKill(t *testing.T, bin, dir string, run *exec.Cmd, id string) {
	t.Helper()
	sock := api.SocketPath(dir)
	// Killed: the socket stays behind; the commands open the database.
	if err := run.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = run.Wait()
	if _, err := os.Stat(sock); err != nil {
		t.Fatalf("no socket left after kill -9 (%v): the stale-socket case is not tested", err)
	}
	mustCLI(t, bin, dir, "search", "pause", id)
	if s, ok := findSearch(t, bin, dir, id); !ok || s.State != "paused" {
		t.Errorf("after the watcher died: search %+v, want it paused from the database", s)
	}
	mustCLI(t, bin, dir, "search", "resume", id)

	// The next watcher replaces the stale socket and answers on it.
	run2, run2Log := startRun(t, bin, dir)
	eventually(t, 15*time.Second, "the new watcher answering", func() bool {
		out, _, err := runCLI(t, bin, dir, "search", "check", id)
		return err == nil && strings.Contains(out, "is checked now")
	})
	if err := run2.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := run2.Wait(); err != nil {
		t.Errorf("the second run exited with %v:\n%s", err, run2Log.String())
	}
	if _, err := os.Stat(sock); !os.IsNotExist(err) {
		t.Errorf("socket after a clean stop: %v, want it removed", err)
	}
}

// mustCLI runs the binary and fails the test when it fails.
func mustCLI(t *testing.T, bin, dir string, args ...string) string {
	t.Helper()
	out, errOut, err := runCLI(t, bin, dir, args...)
	if err != nil {
		t.Fatalf("notifio %s: %v\nstdout: %s\nstderr: %s", strings.Join(args, " "), err, out, errOut)
	}
	return out
}

// startRun starts `notifio run` on dir; the test kills it if it is left.
func startRun(t *testing.T, bin, dir string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	run := exec.Command(bin, "--data", dir, "run")
	var log bytes.Buffer
	run.Stderr = &log
	run.Env = append(os.Environ(), "NOTIFIO_SMTP_PASSWORD=")
	if err := run.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if run.ProcessState == nil {
			_ = run.Process.Kill()
			_ = run.Wait()
		}
	})
	return run, &log
}

// findSearch is one search as `search list --json` prints it.
func findSearch(t *testing.T, bin, dir, id string) (searchJSON, bool) {
	t.Helper()
	out, _, err := runCLI(t, bin, dir, "search", "list", "--json")
	if err != nil {
		return searchJSON{}, false
	}
	var ss []searchJSON
	_ = json.Unmarshal([]byte(out), &ss)
	for _, s := range ss {
		if s.ID == id {
			return s, true
		}
	}
	return searchJSON{}, false
}

// exitCode is the exit code of a finished command's error (0 for nil).
func exitCode(err error) int {
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}
