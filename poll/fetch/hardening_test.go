package fetch

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
)

// Item 15: a redirect to the same host on another port leaves the site (another
// server, e.g. 127.0.0.9 → 127.0.0.9:22) and is not followed; only http on 80 →
// https on 443 keeps it.
func TestRedirectToAnotherPortNotFollowed(t *testing.T) {
	var hits atomic.Int32
	other := serveOn(t, "127.0.0.9", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		io.WriteString(w, "another server")
	}))
	site := serveOn(t, "127.0.0.9", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/x", http.StatusFound)
	}))
	f := newFetcher(t, Options{})
	resp, err := f.Fetch(context.Background(), Request{URL: site.URL + "/s"})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Redirect == nil || resp.Redirect.Why != StopCrossSite || hits.Load() != 0 {
		t.Fatalf("stop %+v, %d hits on the other port", resp.Redirect, hits.Load())
	}
	u, _ := url.Parse(other.URL)
	if got := resp.Redirect.String(); !strings.Contains(got, u.Host) {
		t.Errorf("String %q does not name %s", got, u.Host)
	}
	for _, tc := range []struct {
		from, to string
		changed  bool
	}{
		{"http://a.de/", "https://a.de/", false},
		{"http://a.de:80/", "https://a.de:443/", false},
		{"http://a.de/", "http://a.de:80/x", false},
		{"https://a.de/", "https://a.de:443/x", false},
		{"http://a.de/", "http://a.de:22/", true},
		{"http://a.de:8080/", "https://a.de/", true},
		{"http://a.de:8080/", "http://a.de:8081/", true},
		{"https://a.de/", "https://a.de:8443/", true},
	} {
		from, _ := url.Parse(tc.from)
		to, _ := url.Parse(tc.to)
		if got := portChanged(from, to); got != tc.changed {
			t.Errorf("%s → %s: port changed %v, want %v", tc.from, tc.to, got, tc.changed)
		}
	}
}
