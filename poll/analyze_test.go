package poll

import (
	"net/http"
	"net/url"
	"testing"

	"notifio/poll/extract"
	"notifio/poll/fetch"

	"notifio/internal/model"
)

// analyze, the pipeline after the fetch, as a function of the job and the
// response.

const twoFlats = `<html><head><title>Wohnungen</title></head><body><main>
<article><a href="/expose/1"><h2>Flat one</h2></a><p>900 €</p></article>
<article><a href="/expose/2"><h2>Flat two</h2></a><p>950 €</p></article></main></body></html>`

func response(status int, body string) *fetch.Response {
	u, _ := url.Parse("https://flats.example/search")
	return &fetch.Response{Status: status, Header: http.Header{"Content-Type": {"text/html; charset=utf-8"}},
		Body: []byte(body), RequestURL: u, FinalURL: u}
}

func TestAnalyzeReadsAPageAndSkipsItWhenUnchanged(t *testing.T) {
	j := job{url: "https://flats.example/search"}
	res := analyze(j, response(200, twoFlats), nil, t0)
	if res.outcome.Kind != model.OutcomeOK || len(res.ext.Listings) != 2 || res.title != "Wohnungen" {
		t.Fatalf("a results page: %s, %d listings, title %q; want ok, 2, Wohnungen", res.outcome.Kind, len(res.ext.Listings), res.title)
	}
	j.prevHash = extract.Fingerprint([]byte(twoFlats), j.url, j.sel)
	res = analyze(j, response(200, twoFlats), nil, t0)
	if !res.unchanged || len(res.ext.Listings) != 0 || res.outcome.Kind != model.OutcomeOK {
		t.Fatalf("the same page again: unchanged %v, %d listings read; want it skipped unread", res.unchanged, len(res.ext.Listings))
	}
	res = analyze(j, response(429, "<html><body>Too many requests</body></html>"), nil, t0)
	if res.outcome.Kind != model.OutcomeRateLimited || res.unchanged {
		t.Fatalf("a 429: %s (unchanged %v), want rate limited", res.outcome.Kind, res.unchanged)
	}
}
