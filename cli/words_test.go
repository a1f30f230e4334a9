package cli

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"notifio/internal/model"
	"notifio/internal/polltest"
	"notifio/storage"
)

// TestSearchListSaysWhatTheWindowSays: `search list` of a running Notifio
// prints each search's state in the window's words (the expected strings are
// the ones ui's rows show for these snapshots). The CLI had its own words: a
// probe's wait with a countdown, "34:00" for "34 min", no word for a site
// whose wait ran out, and a bare reason for a page that was not results.
func TestSearchListSaysWhatTheWindowSays(t *testing.T) {
	now := time.Date(2026, 7, 14, 14, 0, 0, 0, time.UTC)
	retry := &model.SiteSnapshot{Site: "idealista.com", Kind: model.RefusalDenied, Rung: 1}
	for _, tc := range []struct {
		name string
		s    model.SearchSnapshot
		site *model.SiteSnapshot
		want string
	}{
		{"probe", model.SearchSnapshot{State: model.StateWaiting, Site: "idealista.com", Wait: model.WaitProbe,
			Reason: "waiting for the probe on idealista.com", NextCheck: now.Add(90 * time.Second)}, nil,
			"waiting for the probe on idealista.com"},
		{"far check", model.SearchSnapshot{State: model.StateScheduled, NextCheck: now.Add(34 * time.Minute)}, nil,
			"next check in 34 min"},
		{"not results", model.SearchSnapshot{State: model.StateScheduled, LastOutcome: "unexpected_page",
			Reason: "the page did not look like results", NextCheck: now.Add(time.Minute)}, nil,
			"the page did not look like results — next check in 1:00"},
		{"wait over", model.SearchSnapshot{State: model.StateScheduled, Site: "idealista.com", NextCheck: now}, retry,
			"idealista.com refused access — trying again now"},
		{"login", model.SearchSnapshot{State: model.StateAttention, Site: "idealista.com", Wait: model.WaitLogin,
			LastOutcome: "session_expired", Reason: "session expired — log in again"}, nil,
			"needs attention: session expired — log in again"},
	} {
		if got := SearchStatus(tc.s, tc.site, now, true); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestErrorsPrintTheirWordsWhateverTheWrapping: the command line prints the
// words of a worded error, message and hint, wherever in the chain it is;
// the old prefix list left the words of the wrappers between them ("add: ")
// and the cause's sentinel ("not a usable search URL: ").
func TestErrorsPrintTheirWordsWhateverTheWrapping(t *testing.T) {
	worded := &model.UserError{Msg: "The search b (\"Mitte\") already watches this page.", Hint: "Edit that one instead.", Err: model.ErrDuplicate}
	err := fmt.Errorf("cli: add: %w", fmt.Errorf("poll: check input: %w", worded))
	if got, want := userMessage(err), "The search b (\"Mitte\") already watches this page. Edit that one instead."; got != want {
		t.Errorf("userMessage = %q, want %q", got, want)
	}
	dir := t.TempDir()
	code, _, errOut := run(t, dir, "search", "add", "ftp://example.test/x")
	if want := "notifio: Notifio can only watch web pages (addresses starting with https:// or http://), not \"ftp:\" addresses.\n"; code != 1 || errOut != want {
		t.Errorf("exit %d, %q; want 1, %q", code, errOut, want)
	}
	code, _, errOut = run(t, dir, "search", "add", "--bogus", "https://example.test/x")
	if code != 2 || strings.Contains(errOut, "cli:") || !strings.Contains(errOut, "notifio: flag provided but not defined: -bogus") {
		t.Errorf("a usage mistake: exit %d, %q", code, errOut)
	}
}

// TestListingsSayThePriceAsTheWindowDoes: `notifio listings` words a price
// that changed as the window's Listings tab does (words.PriceWords); it had
// its own arrows ("1.200 € → 1.100 €"), a second wording of one history.
func TestListingsSayThePriceAsTheWindowDoes(t *testing.T) {
	dir := t.TempDir()
	if code, out, errOut := run(t, dir, "search", "add", "https://www.kleinanzeigen.de/s-wohnung/c203"); code != 0 {
		t.Fatalf("add: %q %q", out, errOut)
	}
	db, err := storage.Open(dir, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ss, _ := db.ListSearches()
	id := ss[0].ID
	now := time.Now()
	x := model.Listing{ID: "kleinanzeigen.de:1", Title: "Altbau", URL: "https://www.kleinanzeigen.de/s-anzeige/1", Price: "1.200 €", PriceValue: 1200}
	if _, err := polltest.Commit(db, id, []model.Listing{x}, now); err != nil { // the baseline
		t.Fatal(err)
	}
	x.Price, x.PriceValue = "1.100 €", 1100
	if _, err := polltest.Commit(db, id, []model.Listing{x}, now.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	db.Close()
	_, out, _ := run(t, dir, "listings", id)
	if !strings.Contains(out, "1.100 € · price dropped from 1.200 €") || strings.Contains(out, "→") {
		t.Errorf("the price is not in the window's words:\n%s", out)
	}
}
