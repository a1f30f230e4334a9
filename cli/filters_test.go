package cli

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"notifio/storage"

	"notifio/internal/model"
	"notifio/internal/polltest"
)

func TestSearchFiltersAddEditList(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := run(t, dir, "search", "add", "https://www.kleinanzeigen.de/s-wohnung/c203", "--name", "K",
		"--max-price", "1.200", "--min-rooms", "2,5", "--include", `"ruhige Lage" Balkon`, "--hide-promoted")
	if code != 0 {
		t.Fatalf("add: %d %q %q", code, out, errOut)
	}
	code, out, _ = run(t, dir, "search", "list")
	if code != 0 || !strings.Contains(out, `at most 1.200, 2,5+ rooms, with "ruhige Lage" Balkon, no ads`) {
		t.Fatalf("list: %d\n%s", code, out)
	}
	_, js, _ := run(t, dir, "search", "list", "--json")
	var list []struct{ ID string }
	if json.Unmarshal([]byte(js), &list) != nil || len(list) != 1 {
		t.Fatalf("list --json: %s", js)
	}
	// Edit changes what is given and keeps the rest.
	code, out, errOut = run(t, dir, "search", "edit", list[0].ID, "--max-price", "1300", "--exclude", "WG", "--hide-promoted=false")
	if code != 0 || !strings.Contains(out, `Filters: at most 1.300, 2,5+ rooms, with "ruhige Lage" Balkon, without WG`) {
		t.Fatalf("edit: %d %q %q", code, out, errOut)
	}
	code, out, _ = run(t, dir, "search", "edit", list[0].ID, "--max-price", "0", "--min-rooms", "", "--include", "", "--exclude", "")
	if code != 0 || !strings.Contains(out, "Filters: none") {
		t.Errorf("clearing the filters: %d %q", code, out)
	}
}

// Bad filter input: a clear error and exit 2, nothing saved.
func TestSearchFilterBadInput(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--min-price", "abc"}, "is not an amount; write a number such as 1200"},
		{[]string{"--min-size", "-5"}, "below zero"},
		{[]string{"--include", `"ruhige Lage`}, "no closing quote"},
		{[]string{"--min-price", "1500", "--max-price", "1000"}, "is above the highest"},
		{[]string{"--include", "WG", "--exclude", "wg"}, "keep it in one list"},
	} {
		args := append([]string{"search", "add"}, tc.args...)
		code, _, errOut := run(t, dir, append(args, "https://www.kleinanzeigen.de/s-wohnung/c203")...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
	if _, out, _ := run(t, dir, "search", "list"); !strings.Contains(out, "No searches yet") {
		t.Errorf("a refused add saved a search:\n%s", out)
	}
	if code, _, errOut := run(t, dir, "search", "edit", "nope", "--max-price", "900"); code != 1 || !strings.Contains(errOut, `no search with ID "nope"`) {
		t.Errorf("edit unknown: %d %q", code, errOut)
	}
}

// Loosening a filter with `search edit` says how many held-back listings now
// pass, and --show-held puts them in the listings without an email.
func TestSearchEditOffersHeldListings(t *testing.T) {
	dir := t.TempDir()
	if code, out, errOut := run(t, dir, "search", "add", "https://www.kleinanzeigen.de/s-wohnung/c203", "--max-price", "1000"); code != 0 {
		t.Fatalf("add: %q %q", out, errOut)
	}
	db, err := storage.Open(dir, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ss, _ := db.ListSearches()
	id := ss[0].ID
	now := time.Now()
	if _, err := polltest.Commit(db, id, nil, now); err != nil { // baseline
		t.Fatal(err)
	}
	x := model.Listing{ID: "kleinanzeigen.de:1", Title: "Altbau", Price: "1.200 €", PriceValue: 1200,
		Verdict: model.Verdict{Held: "it costs 1.200 €, more than your 1.000"}}
	if _, err := polltest.Commit(db, id, []model.Listing{x}, now.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	db.Close()

	if _, out, _ := run(t, dir, "search", "edit", id, "--max-price", "1100"); strings.Contains(out, "held back") {
		t.Errorf("a filter that still holds it back offered it:\n%s", out)
	}
	_, out, _ := run(t, dir, "search", "edit", id, "--max-price", "1300")
	if !strings.Contains(out, "1 listing(s) held back earlier pass the new filters") {
		t.Fatalf("no offer after loosening:\n%s", out)
	}
	_, out, _ = run(t, dir, "search", "edit", id, "--show-held")
	if !strings.Contains(out, "1 listing(s) held back earlier are now in the listings") {
		t.Fatalf("--show-held:\n%s", out)
	}
	_, out, _ = run(t, dir, "listings", id)
	if !strings.Contains(out, "Altbau") {
		t.Errorf("the released listing is not listed:\n%s", out)
	}
	db, err = storage.Open(dir, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if items, _ := db.ListOutbox(); len(items) != 0 {
		t.Errorf("showing held listings queued %d alerts", len(items))
	}
}
