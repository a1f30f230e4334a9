package classify

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"notifio/poll/fetch"

	"notifio/internal/model"
)

// A redirect to another port of the same host is refused (another server),
// in words that say so: it is not "another site" named as the search's own.
func TestRedirectToAnotherPortIsWordedAsSuch(t *testing.T) {
	other := serveOn(t, "127.0.0.13", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("the other port was contacted: %s", r.URL)
	}))
	site := serveOn(t, "127.0.0.13", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/wohnungen", http.StatusFound)
	}))
	f := fetch.New(fetch.Options{NoProxy: true})
	defer f.Close()
	resp, err := f.Fetch(context.Background(), fetch.Request{URL: site.URL + "/suche"})
	if err != nil {
		t.Fatal(err)
	}
	o := Classify(FromFetch(resp, err))
	port := strings.TrimPrefix(other.URL, "http://127.0.0.13:")
	if o.Kind != model.OutcomeError || strings.Contains(o.Signal, "other site") || !strings.Contains(o.Signal, "port "+port) {
		t.Errorf("got %s %q, want an error naming port %s, not another site", o.Kind, o.Signal, port)
	}
	if !strings.Contains(o.Detail, "port "+port) || strings.Contains(o.Detail, "another site") {
		t.Errorf("detail %q does not say the redirect went to another port", o.Detail)
	}
	// A login page on another port is still a login page.
	to, _ := url.Parse(other.URL + "/login")
	from, _ := url.Parse(site.URL + "/suche")
	o = Classify(Input{Status: 302, Redirect: &fetch.RedirectStop{Why: fetch.StopCrossSite, From: from, To: to, Location: to.String(), Status: 302}})
	if o.Kind != model.OutcomeSessionExpired {
		t.Errorf("login on another port: %s %q, want session expired", o.Kind, o.Signal)
	}
}
