package cli

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"notifio/storage"
)

// notifio extract --example prints the selectors that read the list around
// the listing the user showed, and the listings they find; without it, the
// page's other lists are offered (here the similar offers beside the one result).
func TestExtractByExample(t *testing.T) {
	page := filepath.Join("..", "testdata", "extract", "rules", "similar-1.html")
	const u = "https://www.koeln-wohnen.de/suche/lindenthal"
	code, out, errOut := run(t, t.TempDir(), "extract", "--url", u, "--example", "Helle Wohnung am Decksteiner Weiher", page)
	if code != 0 || !strings.Contains(out, "--item '") || !strings.Contains(out, "1 listing (method selectors)") || !strings.Contains(out, "Helle Wohnung am Decksteiner Weiher") {
		t.Errorf("extract --example: exit %d\n%s\n%s", code, out, errOut)
	}
	code, out, _ = run(t, t.TempDir(), "extract", "--url", u, "--example", "Nirgendwo", page)
	if code == 0 || strings.Contains(out, "--item") {
		t.Errorf("an example that is not on the page: exit %d\n%s", code, out)
	}
	code, out, errOut = run(t, t.TempDir(), "extract", "--url", u, page)
	if code != 0 || !strings.Contains(out, "Other lists on this page") || !strings.Contains(out, `5 items like "Wohnung in Sülz 0 · 900 €"`) {
		t.Errorf("extract: exit %d\n%s\n%s", code, out, errOut)
	}
}

// search add --example saves the selectors found around the listing; check
// --example shows them; check offers the page's other lists.
func TestSearchAddByExample(t *testing.T) {
	page, err := os.ReadFile(filepath.Join("..", "testdata", "extract", "rules", "similar-3.html"))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(page)
	}))
	defer srv.Close()
	dir := t.TempDir()
	code, out, errOut := run(t, dir, "check", "--example", "Neubau mit Loggia", srv.URL+"/suche")
	if code != 0 || !strings.Contains(out, "Selectors for this list") || !strings.Contains(out, "Neubau mit Loggia") {
		t.Errorf("check --example: exit %d\n%s\n%s", code, out, errOut)
	}
	if code, out, _ = run(t, dir, "check", srv.URL+"/suche"); code != 0 || !strings.Contains(out, "Other lists on this page") {
		t.Errorf("check: exit %d\n%s", code, out)
	}
	code, out, errOut = run(t, dir, "search", "add", "--example", "Neubau mit Loggia", srv.URL+"/suche")
	if code != 0 || !strings.Contains(out, "Found the list around your example (3 listings)") {
		t.Fatalf("search add --example: exit %d\n%s\n%s", code, out, errOut)
	}
	db, err := storage.Open(dir, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ss, err := db.ListSearches()
	db.Close()
	if err != nil || len(ss) != 1 || !strings.HasPrefix(ss[0].Selectors.Item, "li") {
		t.Errorf("saved searches %+v (%v), want one with an item selector for the list's li", ss, err)
	}
	if code, _, errOut = run(t, dir, "search", "add", "--example", "Schloss am Meer", srv.URL+"/suche2"); code == 0 || !strings.Contains(errOut, "Nothing on this page reads") {
		t.Errorf("an example not on the page: exit %d %q", code, errOut)
	}
}
