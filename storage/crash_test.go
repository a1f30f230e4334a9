package storage

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"notifio/internal/model"
)

// The crash tests run a child process (this test binary, TestCrashHelper) that
// commits polls and is killed with SIGKILL (Process.Kill: TerminateProcess on
// Windows) at a chosen moment; the parent then reopens the database.
const (
	crashDirEnv  = "NOTIFIO_STORAGE_CRASH_DIR"
	crashModeEnv = "NOTIFIO_STORAGE_CRASH_MODE"
	crashSearch  = "NOTIFIO_STORAGE_CRASH_SEARCH"
)

// TestCrashHelper is the child's body; it does nothing in a normal run.
//
//	once: one CommitPoll of 5 new listings, print "committed <outbox id>", wait to be killed.
//	loop: commit polls with 3 new listings each as fast as it can, printing "ready"
//	      after the first, until killed.
func TestCrashHelper(t *testing.T) {
	dir := os.Getenv(crashDirEnv)
	if dir == "" {
		t.Skip("only runs as the crash tests' child process")
	}
	db, err := Open(dir, Options{})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(3)
	}
	id := os.Getenv(crashSearch)
	switch os.Getenv(crashModeEnv) {
	case "once":
		res, err := db.CommitPoll(id, listings("crash", 5), t0.Add(time.Hour))
		if err != nil {
			fmt.Println("error", err)
			os.Exit(3)
		}
		fmt.Println("committed", res.OutboxID)
	case "loop":
		for i := 0; ; i++ {
			page := append(listings(fmt.Sprintf("loop%d", i), 3), listings("base", 22)...)
			if _, err := db.CommitPoll(id, page, t0.Add(time.Duration(i)*time.Second)); err != nil {
				fmt.Println("error", err)
				os.Exit(3)
			}
			if i == 0 {
				fmt.Println("ready")
			}
		}
	}
	time.Sleep(time.Minute) // killed long before
	os.Exit(4)
}

// startChild runs the helper and returns it with the first line it printed.
func startChild(t *testing.T, dir, mode, searchID string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashHelper$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashDirEnv+"="+dir, crashModeEnv+"="+mode, crashSearch+"="+searchID)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if l := sc.Text(); strings.HasPrefix(l, "committed") || l == "ready" || strings.HasPrefix(l, "error") {
				lines <- l
				break
			}
		}
		_, _ = io.Copy(io.Discard, stdout)
		close(lines)
	}()
	select {
	case l, ok := <-lines:
		if !ok || strings.HasPrefix(l, "error") {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			t.Fatalf("child failed: %q", l)
		}
		return cmd, l
	case <-time.After(60 * time.Second):
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatal("child did not get ready within 60 s")
	}
	return nil, ""
}

func kill(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if cmd.ProcessState.Success() {
		t.Fatal("the child exited on its own instead of being killed")
	}
}

// baselined sets up a data dir with one search whose baseline is the "base" page.
func baselined(t *testing.T) (string, model.Search) {
	dir := t.TempDir()
	db, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := addSearch(t, db, "crash")
	if _, err := db.CommitPoll(s.ID, listings("base", 25), t0); err != nil {
		t.Fatal(err)
	}
	must(t, db.Close())
	return dir, s
}

// Killed right after the poll commit, before anything was sent: after the restart
// the listings are seen and their digest is in the outbox, due.
func TestCrashAfterCommit(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns a child process")
	}
	dir, s := baselined(t)
	cmd, line := startChild(t, dir, "once", s.ID)
	kill(t, cmd)
	outboxID, err := strconv.ParseUint(strings.TrimPrefix(line, "committed "), 10, 64)
	if err != nil {
		t.Fatalf("child said %q", line)
	}

	db := openT(t, dir, Options{})
	all, _ := db.ListListings(s.ID)
	if len(all) != 30 {
		t.Fatalf("%d listings seen after the crash, want 30", len(all))
	}
	it, err := db.GetOutbox(outboxID)
	if err != nil {
		t.Fatalf("the digest committed before the crash is gone: %v", err)
	}
	if it.State != model.OutboxPending || !reflect.DeepEqual(ids(it.Listings), ids(listings("crash", 5))) {
		t.Fatalf("outbox item after the crash: %+v", it)
	}
	due, _ := db.DueOutbox(t0.Add(2*time.Hour), 0)
	if len(due) != 1 || due[0].MessageID != it.MessageID {
		t.Fatalf("due after the crash: %+v", due)
	}
}

// Killed at a random moment while committing polls in a loop: after the restart
// every listing seen since the baseline is in exactly one outbox item and every
// outbox item's listings are seen — both or neither, never one without the other.
func TestCrashDuringCommits(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns child processes")
	}
	for round := 0; round < 3; round++ {
		dir, s := baselined(t)
		cmd, _ := startChild(t, dir, "loop", s.ID)
		time.Sleep(time.Duration(20+rand.IntN(200)) * time.Millisecond)
		kill(t, cmd)

		db, err := Open(dir, Options{})
		if err != nil {
			t.Fatalf("reopening after the kill: %v", err)
		}
		if db.Recovered() != nil {
			t.Fatalf("the database needed a restore after a kill: %+v", db.Recovered())
		}
		seen := map[string]bool{}
		all, _ := db.ListListings(s.ID)
		for _, l := range all {
			if !strings.Contains(l.ID, ":base-") {
				seen[l.ID] = true
			}
		}
		queued := map[string]int{}
		out, _ := db.ListOutbox()
		for _, it := range out {
			if len(it.Listings) != 3 {
				t.Fatalf("outbox item %d has %d listings, want 3", it.ID, len(it.Listings))
			}
			for _, l := range it.Listings {
				queued[l.ID]++
			}
		}
		for id := range seen {
			if queued[id] != 1 {
				t.Fatalf("listing %s seen but queued %d times", id, queued[id])
			}
		}
		for id := range queued {
			if !seen[id] {
				t.Fatalf("listing %s queued but not seen", id)
			}
		}
		t.Logf("round %d: killed after %d commits; %d listings seen and queued", round, len(out), len(seen))
		must(t, db.Close())
	}
}
