// Package classify turns one fetch (a response, or an error) plus what extraction
// found on the page into an Outcome: ok, or the kind of refusal, with the signal
// that decided it so the user can be shown why.
//
// Classify is pure: no I/O, no clock except Input.Now. The rules, strongest
// evidence first (the first that matches decides):
//
//  1. A transport failure (Input.Err) → error, with the fetch's reason as signal.
//  2. Machine-readable vendor verdicts in headers → challenge:
//     "cf-mitigated: challenge" (Cloudflare), "x-amzn-waf-action: challenge" or
//     "captcha" (AWS WAF, which answers 202 and 405 with it).
//  3. What the page says in its structure, parsed as HTML over the whole (capped)
//     body — titles, headings, element ids and classes, script/iframe sources,
//     form actions and field names, inline-script identifiers — never loose
//     substrings anywhere:
//     a. hard-denial pages → denied: Cloudflare "Sorry, you have been blocked" and
//     its error codes 1005–1012/1020 (read only from the error-code element or
//     the heading), the Cloudflare "used Cloudflare to restrict access" title,
//     Akamai "Access Denied" with its "Reference #", Incapsula
//     "Request unsuccessful … incident ID", DataDome captcha with t=bv, the
//     Distil block page ("Access To Website Blocked", /distil_r_blocked);
//     Cloudflare error 1015 → rate_limited;
//     b. challenge pages → challenge: Cloudflare (_cf_chl_opt, orchestrate scripts
//     under /cdn-cgi/challenge-platform/, the challenge form and its jschl
//     fields, "Just a moment...", "Attention Required! | Cloudflare"),
//     DataDome captcha-delivery.com (t=fe and other non-bv), PerimeterX
//     #px-captcha and its captcha script, Akamai sec-if-cpt-container, the
//     Incapsula iframe interstitial and its old ___utmvc cookie script, AWS WAF gokuProps, and robot-check titles or
//     headings ("Ich bin kein Roboter", "Pardon Our Interruption", …);
//     c. conditional markers → challenge, but only on 403, 405, 429 or 503, or on
//     a 2xx page whose results are missing (no listings, no no-results marker,
//     no results container): widgets and vendor scripts that also sit on normal
//     pages —
//     g-recaptcha, h-captcha, Turnstile, GeeTest, AWS WAF challenge.js, the
//     Incapsula resource script, a title with "captcha". A reCAPTCHA, hCaptcha
//     or Turnstile widget that only guards forms the user fills in (contact,
//     newsletter, login: fields besides the widget) is no evidence at all, and
//     neither is its script then.
//  4. A refused redirect (Input.Redirect): to another site → challenge when it is a
//     known challenge host, session_expired when it looks like a login page,
//     otherwise error naming the site; loops, too many, other schemes and
//     https→http downgrades → error.
//  5. 429 → rate_limited. 401, 403, 451 → denied. 408 and 5xx → error (Cloudflare
//     52x named as origin errors). Retry-After is parsed on every 429 and 503.
//  6. 2xx with listings or a no-results marker → ok; 2xx after a same-site
//     redirect to a login path → session_expired; any other 2xx → unexpected_page.
//  7. Other 4xx → error, unless extraction found listings or a no-results marker
//     (some sites answer an empty search with 404) → ok. Anything else → error.
//
// Vendor presence is not a refusal: an "x-datadome: protected" header, datadome
// or __cf_bm cookies, DataDome/PerimeterX/Incapsula/Akamai sensor scripts, the
// Cloudflare JS-detection script (/cdn-cgi/challenge-platform/…/scripts/jsd/), a
// CSP naming cloudflare and recaptcha, a "protected by reCAPTCHA" footer: none of
// these is evidence, so a page with its results is ok.
package classify

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/net/html"

	"notifio/hostbackoff"
	"notifio/poll/fetch"

	"notifio/internal/model"
)

// Outcome is the verdict on one fetch.
type Outcome struct {
	Kind model.Outcome
	// Status is the HTTP status code, 0 when no response arrived.
	Status int
	// RetryAfter is the Retry-After of a 429 or 503 as hostbackoff.ParseRetryAfter
	// reads it (seconds or HTTP-date, past → 0, at most hostbackoff.MaxWait); 0 if
	// none or unparseable.
	RetryAfter time.Duration
	// Signal is the evidence that decided, short, e.g. "status 429",
	// "header cf-mitigated: challenge", "title: Just a moment...".
	Signal string
	// Detail is one sentence for the user about what it means.
	Detail string
}

func (o Outcome) String() string {
	s := fmt.Sprintf("%s (%s", o.Kind, o.Signal)
	if o.Status != 0 {
		s += fmt.Sprintf(", status %d", o.Status)
	}
	if o.RetryAfter > 0 {
		s += ", retry after " + o.RetryAfter.String()
	}
	return s + ")"
}

// Input is everything Classify looks at. The poller runs extraction first and
// passes its counts.
type Input struct {
	Err        error
	Status     int
	Header     http.Header
	Body       []byte // UTF-8, as fetch.Response.Body
	RequestURL *url.URL
	FinalURL   *url.URL
	Redirect   *fetch.RedirectStop

	// From extraction.
	Listings         int
	NoResultsMarker  bool
	ResultsContainer bool // a results container was recognised (even if empty)

	// Doc is Body as extraction parsed it; nil means Classify tokenizes Body
	// itself. With it the page is read once per poll instead of twice; the
	// evidence found is the same.
	Doc *html.Node

	// Now resolves Retry-After dates; zero means time.Now().
	Now time.Time
}

// FromFetch fills an Input from Fetch's results; the caller adds the extraction
// counts and Now.
func FromFetch(resp *fetch.Response, err error) Input {
	in := Input{Err: err}
	if resp != nil {
		in.Status = resp.Status
		in.Header = resp.Header
		in.Body = resp.Body
		in.RequestURL = resp.RequestURL
		in.FinalURL = resp.FinalURL
		in.Redirect = resp.Redirect
	}
	return in
}

// Classify decides the outcome of one fetch. It never panics.
func Classify(in Input) Outcome {
	o := decide(in)
	o.Status = in.Status
	if in.Status == http.StatusTooManyRequests || in.Status == http.StatusServiceUnavailable {
		now := in.Now
		if now.IsZero() {
			now = time.Now()
		}
		if d, ok := hostbackoff.ParseRetryAfter(in.Header.Get("Retry-After"), now); ok {
			o.RetryAfter = d
		}
	}
	return o
}

// decide runs the rules strongest evidence first: transport, vendor headers,
// the page's own markers, a redirect not followed, the status, then whether a
// 2xx page is results.
func decide(in Input) Outcome {
	if in.Err != nil {
		return transportOutcome(in.Err)
	}
	if o, ok := headerVerdict(in.Header); ok {
		return o
	}
	if o, ok := pageVerdict(in); ok {
		return o
	}
	if r := in.Redirect; r != nil {
		return redirectOutcome(r)
	}
	if o, ok := statusOutcome(in.Status); ok {
		return o
	}
	if is2xx(in.Status) {
		return okOrNot(in)
	}
	return otherOutcome(in)
}

// transportOutcome: the page could not be fetched.
func transportOutcome(err error) Outcome {
	reason := err.Error()
	var fe *fetch.Error
	if errors.As(err, &fe) {
		reason = fe.Reason
	}
	detail := "The page could not be fetched: " + reason + "."
	switch {
	case fetch.IsHostNotFound(err):
		detail = "No server is known by this name (" + reason + "): check the search's address for a typo; the site may also be gone."
	case fetch.IsNetworkUnreachable(err):
		detail = "The network could not be reached (" + reason + "); this is not the site refusing."
	}
	return Outcome{Kind: model.OutcomeError, Signal: clip(reason, 100), Detail: detail}
}

// headerVerdict: a vendor's verdict in the headers.
func headerVerdict(h http.Header) (Outcome, bool) {
	if v := strings.ToLower(strings.TrimSpace(h.Get("Cf-Mitigated"))); v == "challenge" {
		return Outcome{Kind: model.OutcomeChallenge, Signal: "header cf-mitigated: challenge", Detail: detailCloudflareChallenge}, true
	}
	if v := strings.ToLower(strings.TrimSpace(h.Get("X-Amzn-Waf-Action"))); v == "challenge" || v == "captcha" {
		return Outcome{Kind: model.OutcomeChallenge, Signal: "header x-amzn-waf-action: " + v, Detail: detailAWS}, true
	}
	return Outcome{}, false
}

// pageVerdict: the page's own denial, rate-limit and challenge markers.
//
// Results are missing when extraction found no listings, no no-results marker
// and no results container: a recognised but empty container is a results
// page whose layout changed (unexpected_page), not a captcha page, even when
// the site's template carries a reCAPTCHA somewhere (wg-gesucht's and
// immobilien.de's real result pages do).
func pageVerdict(in Input) (Outcome, bool) {
	resultsMissing := in.Listings <= 0 && !in.NoResultsMarker && !in.ResultsContainer
	widgetsCount := in.Status == http.StatusForbidden || in.Status == http.StatusMethodNotAllowed ||
		in.Status == http.StatusTooManyRequests || in.Status == http.StatusServiceUnavailable ||
		(is2xx(in.Status) && resultsMissing)
	var p *page
	if in.Doc != nil {
		p = scanTree(in.Doc, in.Body, in.Header.Get("Content-Type"))
	} else {
		p = scanPage(in.Body, in.Header.Get("Content-Type"))
	}
	switch {
	case p.denied != nil:
		return p.denied.outcome(), true
	case p.rateLimited != nil:
		return p.rateLimited.outcome(), true
	case p.challenge != nil:
		return p.challenge.outcome(), true
	case p.widget != nil && widgetsCount:
		o := p.widget.outcome()
		if !is2xx(in.Status) {
			o.Signal += fmt.Sprintf(" (status %d)", in.Status)
		}
		return o, true
	}
	return Outcome{}, false
}

// statusOutcome: the status codes that decide by themselves.
func statusOutcome(st int) (Outcome, bool) {
	switch {
	case st == http.StatusTooManyRequests:
		return Outcome{Kind: model.OutcomeRateLimited, Signal: "status 429", Detail: "The site says we are sending too many requests (429)."}, true
	case st == http.StatusUnauthorized || st == http.StatusForbidden || st == http.StatusUnavailableForLegalReasons:
		return Outcome{Kind: model.OutcomeDenied, Signal: fmt.Sprintf("status %d", st), Detail: fmt.Sprintf("The site refuses this request (%d %s).", st, http.StatusText(st))}, true
	case st == http.StatusRequestTimeout || (st >= 500 && st <= 599):
		sig := fmt.Sprintf("status %d", st)
		detail := fmt.Sprintf("The site answered with a server error (%d %s).", st, http.StatusText(st))
		if what, ok := cloudflareOrigin[st]; ok {
			sig += " (Cloudflare: " + what + ")"
			detail = "Cloudflare could not get the page from the site's own server: " + what + "."
		}
		return Outcome{Kind: model.OutcomeError, Signal: sig, Detail: detail}, true
	}
	return Outcome{}, false
}

// okOrNot: a 2xx page is results, a login page, or not what was asked for.
func okOrNot(in Input) Outcome {
	if o, ok := results(in, in.Status); ok {
		return o
	}
	if in.FinalURL != nil && in.RequestURL != nil && in.FinalURL.Path != in.RequestURL.Path && looksLikeLogin(in.FinalURL) {
		return Outcome{Kind: model.OutcomeSessionExpired, Signal: "redirected to login page " + clip(in.FinalURL.Path, 60),
			Detail: "The site sent us to its login page: the session has probably expired. Log in again in a browser and paste a fresh cookie."}
	}
	return unexpected(in)
}

// otherOutcome: every other status (a 4xx page may still carry results).
func otherOutcome(in Input) Outcome {
	st := in.Status
	if st >= 400 && st <= 499 {
		if o, ok := results(in, st); ok {
			o.Signal = fmt.Sprintf("status %d, ", st) + o.Signal
			return o
		}
	}
	switch {
	case st == 0:
		return Outcome{Kind: model.OutcomeError, Signal: "no HTTP status", Detail: "No HTTP response was recorded."}
	case st >= 300 && st <= 399:
		return Outcome{Kind: model.OutcomeError, Signal: fmt.Sprintf("status %d without a usable redirect", st),
			Detail: fmt.Sprintf("The site answered %d %s without a location to go to.", st, http.StatusText(st))}
	}
	return Outcome{Kind: model.OutcomeError, Signal: fmt.Sprintf("status %d", st), Detail: fmt.Sprintf("The site answered %d %s.", st, http.StatusText(st))}
}

func results(in Input, st int) (Outcome, bool) {
	switch {
	case in.Listings == 1:
		return Outcome{Kind: model.OutcomeOK, Signal: "1 listing", Detail: "A results page with 1 listing."}, true
	case in.Listings > 1:
		return Outcome{Kind: model.OutcomeOK, Signal: fmt.Sprintf("%d listings", in.Listings), Detail: fmt.Sprintf("A results page with %d listings.", in.Listings)}, true
	case in.NoResultsMarker:
		return Outcome{Kind: model.OutcomeOK, Signal: model.SignalNoResults, Detail: "A results page that says there are no results."}, true
	}
	return Outcome{}, false
}

func unexpected(in Input) Outcome {
	const detail = "The page did not look like results (a layout change or a soft block); nothing was counted as seen."
	switch {
	case len(strings.TrimSpace(string(in.Body))) == 0:
		return Outcome{Kind: model.OutcomeUnexpectedPage, Signal: "empty page", Detail: detail}
	case in.ResultsContainer:
		return Outcome{Kind: model.OutcomeUnexpectedPage, Signal: "results container empty, no no-results marker", Detail: detail}
	}
	return Outcome{Kind: model.OutcomeUnexpectedPage, Signal: "no listings, no no-results marker", Detail: detail}
}

func is2xx(st int) bool { return st >= 200 && st <= 299 }

var cloudflareOrigin = map[int]string{
	520: "the origin returned an unknown error",
	521: "the origin web server is down",
	522: "the connection to the origin timed out",
	523: "the origin is unreachable",
	524: "the origin took too long to answer",
	525: "the TLS handshake with the origin failed",
	526: "the origin's certificate is invalid",
	527: "the Railgun connection to the origin failed",
	530: "the origin could not be resolved",
}

// clip shortens s to at most n runes, with "…" when cut; invalid UTF-8 and control
// characters (page text may hold any) are replaced, so a signal is always printable.
func clip(s string, n int) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return ' '
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
