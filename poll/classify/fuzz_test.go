package classify

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"notifio/hostbackoff"
	"notifio/poll/fetch"

	"notifio/internal/model"
)

var validKinds = map[model.Outcome]bool{model.OutcomeOK: true, model.OutcomeChallenge: true, model.OutcomeRateLimited: true, model.OutcomeDenied: true, model.OutcomeError: true, model.OutcomeSessionExpired: true, model.OutcomeUnexpectedPage: true}

// FuzzClassify feeds arbitrary responses to Classify: it must not panic, and its
// outcome must keep its invariants. Seeds are the table cases.
//
//	go test ./poll/classify -run '^$' -fuzz FuzzClassify -fuzztime 30s
func FuzzClassify(f *testing.F) {
	for _, c := range pageCases(f) {
		var hdr strings.Builder
		for k, v := range c.header {
			hdr.WriteString(k + ": " + v + "\n")
		}
		f.Add(c.status, hdr.String(), c.body, c.listings, c.marker, c.container, "", "")
	}
	f.Add(302, "", []byte(""), 0, false, false, "https://127.0.0.3/login", string(fetch.StopCrossSite))
	f.Add(302, "", []byte(""), 0, false, false, "https://geo.captcha-delivery.com/captcha/?t=fe", string(fetch.StopCrossSite))
	f.Add(302, "", []byte(""), 0, false, false, "ftp://x/", string(fetch.StopScheme))
	f.Add(301, "", []byte("<a href=/a>"), 0, false, false, "/a", string(fetch.StopLoop))
	f.Add(302, "", []byte(""), 0, false, false, "http://[::1", string(fetch.StopBadLocation))
	f.Add(200, "Content-Type: application/json\n", []byte(`{"url":"https://geo.captcha-delivery.com/captcha/?t=bv"}`), 0, false, false, "", "")
	f.Add(200, "", []byte("<title>x<svg><title>Just a moment</title></svg><noscript><noscript><iframe>Request unsuccessful. incident ID"), 0, false, false, "", "")

	f.Fuzz(func(t *testing.T, status int, headers string, body []byte, listings int, marker, container bool, location, why string) {
		in := Input{Status: status, Header: http.Header{}, Body: body, Listings: listings, NoResultsMarker: marker, ResultsContainer: container, Now: now}
		for _, line := range strings.Split(headers, "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok {
				in.Header.Add(strings.TrimSpace(k), strings.TrimSpace(v))
			}
		}
		in.RequestURL, _ = url.Parse("https://www.wohnungsportal.example/suche")
		in.FinalURL, _ = url.Parse(location)
		if why != "" {
			to, _ := url.Parse(location)
			in.Redirect = &fetch.RedirectStop{Why: fetch.StopReason(why), To: to, Location: location, From: in.RequestURL}
		}
		o := Classify(in)
		if !validKinds[o.Kind] {
			t.Fatalf("kind %q", o.Kind)
		}
		if o.Signal == "" || o.Detail == "" || !utf8.ValidString(o.Signal) || utf8.RuneCountInString(o.Signal) > 160 {
			t.Fatalf("signal %q detail %q", o.Signal, o.Detail)
		}
		if o.Status != status {
			t.Fatalf("status %d, want %d", o.Status, status)
		}
		if o.RetryAfter < 0 || o.RetryAfter > hostbackoff.MaxWait {
			t.Fatalf("retry after %v", o.RetryAfter)
		}
		if o.Kind == model.OutcomeOK && listings <= 0 && !marker {
			t.Fatalf("ok without listings or a marker: %v", o)
		}
		if o.Kind == model.OutcomeOK && o.Status != 0 && (status < 200 || status > 499) {
			t.Fatalf("ok on status %d", status)
		}
	})
}
