package poll

import (
	"testing"
	"time"

	"notifio/poll/extract"
)

// A page byte-identical to the last committed one is neither parsed nor
// committed again (no fsync); a page that changes is, and its new listing is
// still queued; a successful poll of a site with no backoff entry writes no
// backoff state.
func TestUnchangedPageIsNotCommittedAgain(t *testing.T) {
	h := newHarness(t, "")
	a := newSite(t, "127.0.0.1", "1", "2", "3")
	h.add("Kreuzberg", a.srv.URL+"/search", time.Minute)
	h.runFor(0) // baseline
	c0 := h.db.Commits()
	h.runFor(5 * time.Minute)
	polls := a.count() - 1
	if polls < 3 {
		t.Fatalf("only %d polls after the baseline", polls)
	}
	if got := h.db.Commits() - c0; got != 0 {
		t.Errorf("%d commits for %d polls of an unchanged page, want 0", got, polls)
	}
	snap := h.svc.Snapshot()
	if s := snap.Searches[0]; s.LastOutcome != "ok" || s.LastCount != 3 {
		t.Errorf("after unchanged polls: outcome %q, last count %d; want ok, 3", s.LastOutcome, s.LastCount)
	}
	a.add("4")
	h.runFor(2 * time.Minute)
	if n := len(h.outbox()); n != 1 {
		t.Fatalf("%d digests after a new listing, want 1", n)
	}
}

// The title read from the tree is the document's title as a browser has it:
// pageTitle (tokenizer) agreed except that it took an svg <title> and gave up at
// <body>.
func TestTreeTitle(t *testing.T) {
	for s, want := range map[string]string{
		"<html><head><title> Wohnungen\n  mieten </title></head><body>x</body></html>": "Wohnungen mieten",
		"<svg><title>icon</title></svg><title>Page</title>":                            "Page",
		"<title></title>":                  "",
		"no title at all":                  "",
		"<body><title>late</title></body>": "late",
		"<title>A &amp; B</title>":         "A & B",
	} {
		if got := treeTitle(extract.Parse([]byte(s))); got != want {
			t.Errorf("%q: %q, want %q", s, got, want)
		}
	}
}
