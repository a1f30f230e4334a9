package poll

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"notifio/poll/words"
)

// Issue 37: a page only JavaScript fills in reads the same everywhere — the
// health (rows, `notifio status`, alerts), the search's state (`notifio
// search list`) and what `notifio once` says — "needs a browser", never "did
// not look like results" or server errors.
func TestAScriptShellNeedsABrowserEverywhere(t *testing.T) {
	h := newHarness(t, "")
	shell := serveOn(t, "127.0.0.2", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(`<!doctype html><html><head><title>Wohnungen</title><script src="/app.js" defer></script></head>` +
			`<body><div id="root"></div><noscript>Bitte JavaScript aktivieren.</noscript></body></html>`))
	}))
	s := h.add("Mitte", shell.URL+"/mieten", 5*time.Minute)
	res := h.once()
	if len(res) != 1 || res[0].Reason != words.MessageNeedsBrowser {
		t.Errorf("once says %+v, want %q", res, words.MessageNeedsBrowser)
	}
	snap := h.svc.Snapshot()
	ss := snap.Searches[0]
	said := words.StatusWords(ss, &snap.Sites[0], h.clock.Now()) + " | " + words.HealthLine(ss.Health, h.clock.Now()) + " | " + ss.Health.Hint
	if ss.ID != s.ID || !strings.Contains(said, words.WordsNeedsBrowser) || !strings.Contains(said, "--browser") ||
		strings.Contains(said, "did not look like results") || strings.Contains(said, "server") {
		t.Errorf("the search says %q", said)
	}
}

// A page that is not a shell (text, no listings) is still "did not look like
// results": scripts alone do not make a page need a browser.
func TestAPageWithTextIsNotAScriptShell(t *testing.T) {
	page := `<html><head><script src="/a.js"></script></head><body><h1>Willkommen bei Wohnen Ost</h1><p>` +
		strings.Repeat("Wir vermieten Wohnungen in ganz Berlin und beraten Sie gern. ", 10) + `</p></body></html>`
	if scriptShell(parseHTML(t, page)) {
		t.Error("a page with text and a script was taken for a script shell")
	}
	if !scriptShell(parseHTML(t, `<html><head><script src="/a.js"></script></head><body><div id="app"></div></body></html>`)) {
		t.Error("an empty shell with a script was not taken for one")
	}
}

func parseHTML(t *testing.T, s string) *html.Node {
	t.Helper()
	n, err := html.Parse(strings.NewReader(s))
	if err != nil {
		t.Fatal(err)
	}
	return n
}
