package poll

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"notifio/hostbackoff"
	"notifio/storage"

	"notifio/internal/model"
)

// The crash test runs this test binary as a child (TestPollCrashChild) that
// polls a loopback site through the real pipeline as fast as it can, and kills
// it (SIGKILL) at a varied moment; the parent then reopens the database and
// checks that every poll landed whole or not at all.
const pollCrashDirEnv = "NOTIFIO_POLL_CRASH_DIR"

// TestPollCrashChild is the child's body; it does nothing in a normal run.
// The site alternates: a page (the baseline, then each time one listing more)
// and a 429, so every poll changes the backoff state and both last answers,
// and every other poll adds a listing and its digest.
func TestPollCrashChild(t *testing.T) {
	dir := os.Getenv(pollCrashDirEnv)
	if dir == "" {
		t.Skip("only runs as the crash test's child process")
	}
	h := newHarness(t, dir)
	a := newSite(t, "127.0.0.1", "b1", "b2")
	h.add("crash", a.srv.URL+"/s", time.Minute)
	for k := 1; ; k++ {
		switch {
		case k%2 == 0:
			a.set("429", "")
		case k > 1:
			a.set("ok", "")
			a.add(fmt.Sprint("n", k))
		}
		h.pollNext(time.Hour)
		if k == 3 {
			fmt.Println("ready")
		}
	}
}

// Killed at varied moments while polling: each time, the site's and the
// search's last answers, the backoff state, the listings and their digests
// tell of the same last poll.
func TestCrashKeepsEachPollWhole(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns child processes")
	}
	for round := range 12 {
		dir := t.TempDir()
		cmd := startPollChild(t, dir)
		time.Sleep(time.Duration(10+rand.IntN(300)) * time.Millisecond) // a real process, a real moment
		if err := cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		_ = cmd.Wait()

		db, err := storage.Open(dir, storage.Options{})
		if err != nil {
			t.Fatalf("round %d: reopening after the kill: %v", round, err)
		}
		last := checkPollWhole(t, db)
		digests, err := db.ListOutbox()
		must(t, err)
		t.Logf("round %d: the last poll kept is %s at %s, after %d digests", round, last.Outcome, last.At.Format(time.TimeOnly), len(digests))
		must(t, db.Close())
	}
}

// startPollChild runs TestPollCrashChild on dir until it said "ready".
func startPollChild(t *testing.T, dir string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestPollCrashChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), pollCrashDirEnv+"="+dir)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = io.Discard // the child's logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ready := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		ok := false
		for sc.Scan() {
			if ok = sc.Text() == "ready"; ok {
				break
			}
		}
		ready <- ok
		_, _ = io.Copy(io.Discard, stdout)
	}()
	select {
	case ok := <-ready:
		if ok {
			return cmd
		}
		t.Fatal("the child ended before it was ready")
	case <-time.After(60 * time.Second):
		t.Fatal("the child was not ready within 60 s")
	}
	return nil
}

// checkPollWhole checks that the database tells of one last poll, and returns
// the site's last answer.
func checkPollWhole(t *testing.T, db *storage.DB) lastAnswer {
	t.Helper()
	searches, err := db.ListSearches()
	must(t, err)
	if len(searches) != 1 {
		t.Fatalf("%d searches, want 1", len(searches))
	}
	s := searches[0]
	infos, err := db.LoadSiteInfos()
	must(t, err)
	var site, search lastAnswer
	if len(infos) != 1 || json.Unmarshal(infos[s.Site], &site) != nil {
		t.Fatalf("site answers %s, want one for %s", infos, s.Site)
	}
	if ok, err := db.GetSetting(lastKey(s.ID), &search); !ok || err != nil {
		t.Fatalf("the search's last answer: %v %v", ok, err)
	}
	if !site.At.Equal(search.At) || site.Outcome != search.Outcome {
		t.Fatalf("the site's last answer (%s at %s) and the search's (%s at %s) are of different polls",
			site.Outcome, site.At, search.Outcome, search.At)
	}
	refusal := checkBackoff(t, db, s.Site)
	newest := checkListings(t, db, s)
	switch site.Outcome {
	case "ok":
		if !refusal.IsZero() || !s.LastPolled.Equal(site.At) || (!newest.IsZero() && !newest.Equal(site.At)) {
			t.Fatalf("the last poll found a page at %s, but the backoff says refused at %s, the search was polled at %s, the newest listing is of %s",
				site.At, refusal, s.LastPolled, newest)
		}
	case "rate_limited":
		if !refusal.Equal(site.At) || !s.LastPolled.Before(site.At) || !newest.Before(site.At) {
			t.Fatalf("the last poll was refused at %s, but the backoff says refused at %s, the search was polled at %s, the newest listing is of %s",
				site.At, refusal, s.LastPolled, newest)
		}
	default:
		t.Fatalf("last answer %q", site.Outcome)
	}
	return site
}

// checkBackoff returns when the stored backoff state says site last refused
// (zero: it is not waiting).
func checkBackoff(t *testing.T, db *storage.DB, site string) time.Time {
	t.Helper()
	raw, err := db.LoadBackoff()
	must(t, err)
	var entries []hostbackoff.Entry
	if err := json.Unmarshal(raw, &entries); err != nil {
		t.Fatalf("backoff state %q: %v", raw, err)
	}
	for _, e := range entries {
		if e.Site == site {
			return e.LastRefusal
		}
	}
	return time.Time{}
}

// checkListings checks that every listing found after the baseline is in
// exactly one digest, and the newest digest is the newest listing's, and
// returns when that listing was first seen (zero: none yet).
func checkListings(t *testing.T, db *storage.DB, s model.Search) time.Time {
	t.Helper()
	all, err := db.ListListings(s.ID)
	must(t, err)
	out, err := db.ListOutbox()
	must(t, err)
	queued := map[string]int{}
	var lastDigest time.Time
	for _, it := range out {
		for _, l := range it.Listings {
			queued[l.ID]++
		}
		if it.Created.After(lastDigest) {
			lastDigest = it.Created
		}
	}
	var newest time.Time
	for _, l := range all {
		if strings.Contains(l.URL, "/expose/b") { // the baseline's
			continue
		}
		if queued[l.ID] != 1 {
			t.Fatalf("listing %s seen and queued %d times", l.ID, queued[l.ID])
		}
		if l.FirstSeen.After(newest) {
			newest = l.FirstSeen
		}
	}
	if len(queued) != len(all)-2 || !lastDigest.Equal(newest) {
		t.Fatalf("%d listings queued for %d seen after the baseline; newest digest of %s, newest listing of %s",
			len(queued), len(all)-2, lastDigest, newest)
	}
	return newest
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
