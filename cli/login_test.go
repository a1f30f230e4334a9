package cli

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"notifio/poll/words"
)

// An expired login comes back from the command line: `search edit --cookie`
// takes the fresh cookie, the next `once` reads the site, and `status` no
// longer says the login expired.
func TestSearchEditCookieBringsAnExpiredLoginBack(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if r.URL.Path == "/login" {
			fmt.Fprint(w, `<html><head><title>Anmelden</title></head><body><form><input type="password" name="pw"></form></body></html>`)
			return
		}
		if c, err := r.Cookie("sid"); err != nil || c.Value != "fresh" {
			http.Redirect(w, r, "/login?next=/s", http.StatusFound)
			return
		}
		fmt.Fprint(w, `<html><body><main id="results">`+
			`<article class="card"><a href="/expose/1"><h2>Flat 1</h2></a><p class="price">900 €</p></article>`+
			`<article class="card"><a href="/expose/2"><h2>Flat 2</h2></a><p class="price">950 €</p></article></main></body></html>`)
	}))
	defer site.Close()
	dir := t.TempDir()
	code, out, errb := run(t, dir, "search", "add", "--cookie", "sid=old", site.URL+"/s")
	m := regexp.MustCompile(`Added (\S+):`).FindStringSubmatch(out)
	if code != 0 || m == nil {
		t.Fatalf("search add: %d %s %s", code, out, errb)
	}
	id := m[1]
	if _, out, _ := run(t, dir, "once"); !strings.Contains(out, "login") {
		t.Fatalf("once with the old cookie: %s; want the login page seen", out)
	}
	if _, out, _ := run(t, dir, "status"); !strings.Contains(out, "--cookie") || !strings.Contains(out, "one per site") {
		t.Errorf("status does not say how to give the new cookie (one per site):\n%s", out)
	}
	// Issue 33: `notifio sites` says the login as the window's card does.
	if _, out, _ := run(t, dir, "sites"); !strings.Contains(out, ": "+words.WordsLogin+".") || strings.Contains(out, "needs you") {
		t.Errorf("sites does not say the login in the window's words (%q):\n%s", words.WordsLogin, out)
	}
	// The state itself is typed (model.SiteSnapshot.NeedsLogin), not words
	// for scripts to match: `sites --json` says needs_login.
	if _, out, _ := run(t, dir, "sites", "--json"); !strings.Contains(out, `"needs_login": true`) {
		t.Errorf("sites --json does not say needs_login:\n%s", out)
	}
	code, out, errb = run(t, dir, "search", "edit", id, "--cookie", "sid=fresh")
	if code != 0 || !strings.Contains(out, "all its searches") {
		t.Fatalf("search edit --cookie: %d %s %s", code, out, errb)
	}
	if _, out, _ := run(t, dir, "once"); !strings.Contains(out, "2 listings") {
		t.Errorf("once after the new cookie: %s; want the site read", out)
	}
	if _, out, _ := run(t, dir, "status"); strings.Contains(out, "login") || !strings.Contains(out, "All healthy") {
		t.Errorf("status after the site read well:\n%s", out)
	}
}
