package ui

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"notifio/internal/model"
)

// Issue 37, item 7: a page that did not look like results (it builds them with
// scripts) puts its site on a wait; ticking "Read with a browser" and saving
// checks it at once instead of after that wait.
func TestRealReadingWithABrowserChecksAtOnce(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, `<!doctype html><html><head><title>Wohnungen</title></head><body><div id="app"></div><script>var x = 1</script></body></html>`)
	}))
	defer site.Close()
	h := newRealHarness(t)
	s, err := h.svc.AddSearch(context.Background(), model.SearchInput{Name: "JS", URL: site.URL + "/w"})
	if err != nil {
		t.Fatal(err)
	}
	if res := h.svc.Once(context.Background()); len(res) != 1 || res[0].Outcome != "unexpected_page" {
		t.Fatalf("Once = %+v, want a page that did not look like results", res)
	}
	if _, err := h.svc.UpdateSearch(context.Background(), s.ID, model.SearchInput{Name: "JS", URL: site.URL + "/w", Browser: true}); err != nil {
		t.Fatal(err)
	}
	if err := h.svc.CheckNow(s.ID); err != nil {
		t.Errorf("after switching to a browser the search cannot be checked: %v", err)
	}
}

// Issue 37, item 7: a site that waits because its page did not look like
// results says so on its card, not "had errors (server or network)".
func TestASiteWaitingForAPageThatIsNotResultsSaysSo(t *testing.T) {
	snap := model.Snapshot{At: t0, Sites: []model.SiteSnapshot{{Site: "js-portal.de", Waiting: true, Kind: model.RefusalError, Rung: 1,
		NextProbe: t0.Add(time.Minute), LastStatus: 200, LastOutcome: "unexpected_page", LastSignal: "no listings, no no-results marker", Searches: 1}}}
	h := newHarness(t, snap)
	h.u.selectView(viewSites)
	c := h.u.sites.cards["js-portal.de"]
	if got := c.headline.Text; got != "showed a page that did not look like results" {
		t.Errorf("the card says %q", got)
	}
}
