package classify

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"notifio/hostbackoff"
	"notifio/poll/fetch"

	"notifio/internal/model"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// now is the fixed instant Retry-After dates are measured from.
var now = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

func fixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "classify", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// page is one response a test server gives, and what extraction "found" on it.
type pageCase struct {
	name      string
	status    int
	header    map[string]string
	body      []byte
	listings  int
	marker    bool
	container bool

	kind   model.Outcome
	signal string
	retry  time.Duration
}

// pageCases covers every rule that a single response decides.
func pageCases(t testing.TB) []pageCase {
	f := func(n string) []byte { return fixture(t, n) }
	h := func(kv ...string) map[string]string {
		m := map[string]string{"Content-Type": "text/html; charset=utf-8"}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	results := f("results-plain.html")
	deep := append(bytes.Repeat([]byte("<div class=filler><p>Lorem ipsum dolor sit amet.</p></div>\n"), 4<<20/60), []byte(`<div id="px-captcha"></div>`)...)
	return []pageCase{
		// 2. Header verdicts.
		{name: "cf-mitigated header", status: 403, header: h("Cf-Mitigated", "challenge", "Server", "cloudflare"), body: f("cloudflare-just-a-moment.html"),
			kind: model.OutcomeChallenge, signal: "header cf-mitigated: challenge"},
		{name: "aws waf 202 challenge header", status: 202, header: h("X-Amzn-Waf-Action", "challenge"), body: f("aws-waf-challenge.html"),
			kind: model.OutcomeChallenge, signal: "header x-amzn-waf-action: challenge"},
		{name: "aws waf 405 captcha header", status: 405, header: h("X-Amzn-Waf-Action", "captcha"), body: f("aws-waf-captcha.html"),
			kind: model.OutcomeChallenge, signal: "header x-amzn-waf-action: captcha"},

		// 3a. Denial pages.
		{name: "cloudflare sorry you have been blocked 1020", status: 403, header: h(), body: f("cloudflare-1020-blocked.html"),
			kind: model.OutcomeDenied, signal: "body: Cloudflare error 1020"},
		{name: "cloudflare access denied 1020 heading", status: 403, header: h(), body: f("cloudflare-1020-access-denied.html"),
			kind: model.OutcomeDenied, signal: "body: Cloudflare error 1020"},
		{name: "cloudflare blocked headline alone", status: 200, header: h(), body: []byte(`<title>Attention Required! | Cloudflare</title><h1 data-translate="block_headline">Sorry, you have been blocked</h1>`),
			kind: model.OutcomeDenied, signal: `body: "Sorry, you have been blocked"`},
		{name: "cloudflare 1015 rate limited", status: 429, header: h("Retry-After", "30"), body: f("cloudflare-1015-rate-limited.html"),
			kind: model.OutcomeRateLimited, signal: "body: Cloudflare error 1015", retry: 30 * time.Second},
		{name: "akamai access denied", status: 403, header: h("Server", "AkamaiGHost"), body: f("akamai-access-denied.html"),
			kind: model.OutcomeDenied, signal: "body: Access Denied, Reference #18.6f5d3e17.1700000000.1a2b3c4d"},
		{name: "incapsula request unsuccessful", status: 200, header: h("X-Iinfo", "9-12345678-0 0NNN RT(1700000000000 123)"), body: f("incapsula-request-unsuccessful.html"),
			kind: model.OutcomeDenied, signal: `body: Incapsula "Request unsuccessful" (incident ID)`},
		{name: "datadome t=bv", status: 403, header: h("X-Datadome", "protected", "X-Dd-B", "2"), body: f("datadome-blocked-bv.html"),
			kind: model.OutcomeDenied, signal: "body: captcha-delivery.com (t=bv)"},

		// 3b. Challenge pages.
		{name: "cloudflare just a moment (its script says 1020)", status: 403, header: h(), body: f("cloudflare-just-a-moment.html"),
			kind: model.OutcomeChallenge, signal: "title: Just a moment..."},
		{name: "cloudflare just a moment served 200", status: 200, header: h(), body: f("cloudflare-just-a-moment.html"),
			kind: model.OutcomeChallenge, signal: "title: Just a moment..."},
		{name: "cloudflare _cf_chl_opt alone", status: 403, header: h(), body: []byte(`<html><body><script>window._cf_chl_opt={cType:'managed'};</script></body></html>`),
			kind: model.OutcomeChallenge, signal: "body: _cf_chl_opt"},
		{name: "cloudflare orchestrate script alone", status: 403, header: h(), body: []byte(`<script src="/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1?ray=1"></script>`),
			kind: model.OutcomeChallenge, signal: "body: /cdn-cgi/challenge-platform/ script"},
		{name: "cloudflare legacy checking your browser", status: 503, header: h("Retry-After", "5"), body: f("cloudflare-legacy-jschl.html"),
			kind: model.OutcomeChallenge, signal: "body: Cloudflare browser verification", retry: 5 * time.Second},
		{name: "cloudflare jschl form alone", status: 503, header: h(), body: []byte(`<form id="x" action="/?__cf_chl_jschl_tk__=abc" method="POST"><input name="jschl_vc" value="1"><input name="jschl_answer"></form>`),
			kind: model.OutcomeChallenge, signal: "body: Cloudflare challenge form"},
		{name: "akamai sec-if-cpt-container", status: 428, header: h(), body: f("akamai-sec-cpt.html"),
			kind: model.OutcomeChallenge, signal: "body: Akamai /_sec/cp_challenge/"},
		{name: "akamai sec-if-cpt-container alone", status: 200, header: h(), body: []byte(`<div id="sec-if-cpt-container"><div id="sec-cpt-if" provider="crypto"></div></div>`),
			kind: model.OutcomeChallenge, signal: "body: Akamai #sec-if-cpt-container"},
		{name: "incapsula interstitial", status: 200, header: h(), body: f("incapsula-interstitial.html"),
			kind: model.OutcomeChallenge, signal: "body: Incapsula interstitial script"},
		{name: "incapsula iframe interstitial", status: 200, header: h(), body: f("incapsula-iframe-captcha.html"),
			kind: model.OutcomeChallenge, signal: "body: Incapsula interstitial iframe"},
		{name: "datadome t=fe", status: 403, header: h("X-Datadome", "protected"), body: f("datadome-captcha-fe.html"),
			kind: model.OutcomeChallenge, signal: "body: captcha-delivery.com (t=fe)"},
		{name: "datadome captcha iframe", status: 403, header: h(), body: f("datadome-captcha-iframe.html"),
			kind: model.OutcomeChallenge, signal: "body: captcha-delivery.com (t=fe)"},
		{name: "datadome json for xhr", status: 403, header: map[string]string{"Content-Type": "application/json"},
			body: []byte(`{"url":"https://geo.captcha-delivery.com/captcha/?initialCid=AHrl&hash=A1B2&cid=x~1&t=fe&referer=https%3A%2F%2Fa.example%2F&s=1"}`),
			kind: model.OutcomeChallenge, signal: "body: captcha-delivery.com (t=fe)"},
		{name: "perimeterx block page", status: 403, header: h(), body: f("perimeterx-block.html"),
			kind: model.OutcomeChallenge, signal: "title: Access to this page has been denied"},
		{name: "px-captcha deep in a 4 MiB page", status: 200, header: h(), body: deep,
			kind: model.OutcomeChallenge, signal: "body: #px-captcha"},
		{name: "aws waf challenge without header", status: 202, header: h(), body: f("aws-waf-challenge.html"),
			kind: model.OutcomeChallenge, signal: "body: AWS WAF gokuProps"},
		{name: "aws waf challenge.js on empty page", status: 200, header: h(), body: []byte(`<script src="https://ab12.cd34.eu-west-1.token.awswaf.com/ab12/cd34/challenge.js"></script><div id="challenge-container"></div>`),
			kind: model.OutcomeChallenge, signal: "body: AWS WAF challenge.js"},
		{name: "geetest", status: 200, header: h(), body: f("geetest.html"),
			kind: model.OutcomeChallenge, signal: "body: GeeTest captcha"},
		{name: "turnstile", status: 200, header: h(), body: f("turnstile.html"),
			kind: model.OutcomeChallenge, signal: "body: Turnstile widget"},
		{name: "ich bin kein roboter", status: 200, header: h(), body: f("ich-bin-kein-roboter.html"),
			kind: model.OutcomeChallenge, signal: "heading: Ich bin kein Roboter"},
		{name: "recaptcha on 429", status: 429, header: h("Retry-After", "60"), body: f("recaptcha-block.html"),
			kind: model.OutcomeChallenge, signal: "body: reCAPTCHA script (status 429)", retry: time.Minute},
		{name: "recaptcha on 200 without results", status: 200, header: h(), body: f("recaptcha-block.html"),
			kind: model.OutcomeChallenge, signal: "body: reCAPTCHA script"},
		{name: "g-recaptcha on 403", status: 403, header: h(), body: []byte(`<form><div class="g-recaptcha" data-sitekey="k"></div></form>`),
			kind: model.OutcomeChallenge, signal: "body: g-recaptcha widget (status 403)"},
		{name: "h-captcha on 503", status: 503, header: h(), body: []byte(`<div class="h-captcha" data-sitekey="k"></div>`),
			kind: model.OutcomeChallenge, signal: "body: h-captcha widget (status 503)"},

		// Presence is not a refusal.
		{name: "datadome presence", status: 200, listings: 3, body: f("results-datadome-presence.html"),
			header: h("X-Datadome", "protected", "X-Datadome-Cid", "AHrlqAAAAAMA", "Set-Cookie", "datadome=AHrlqAAAAAMA~abc; Max-Age=31536000; Domain=.127.0.0.1; Path=/; Secure; SameSite=Lax"),
			kind:   model.OutcomeOK, signal: "3 listings"},
		{name: "perimeterx presence", status: 200, listings: 3, header: h("Set-Cookie", "_pxhd=abc:def; Path=/"), body: f("results-perimeterx-presence.html"),
			kind: model.OutcomeOK, signal: "3 listings"},
		{name: "incapsula presence", status: 200, listings: 3, header: h("X-Iinfo", "5-1-0 0NNN", "X-Cdn", "Imperva", "Set-Cookie", "visid_incap_123=abc; Path=/"), body: f("results-incapsula-presence.html"),
			kind: model.OutcomeOK, signal: "3 listings"},
		{name: "akamai presence", status: 200, listings: 3, header: h("Set-Cookie", "_abck=abc~-1~def; Path=/"), body: f("results-akamai-presence.html"),
			kind: model.OutcomeOK, signal: "3 listings"},
		{name: "cloudflare js detection presence", status: 200, listings: 3, header: h("Server", "cloudflare", "Cf-Ray", "8a1b2c3d4e5f6a7b-FRA"), body: f("results-cloudflare-jsd.html"),
			kind: model.OutcomeOK, signal: "3 listings"},
		{name: "csp naming cloudflare and recaptcha", status: 200, listings: 3, body: results,
			header: h("Content-Security-Policy", "default-src 'self'; script-src 'self' https://challenges.cloudflare.com https://www.google.com/recaptcha/ https://www.gstatic.com/recaptcha/; frame-src https://challenges.cloudflare.com https://www.google.com/recaptcha/",
				"Server", "cloudflare", "Set-Cookie", "__cf_bm=abc.def-1700000000-1.0.1.1-xyz; path=/; HttpOnly"),
			kind: model.OutcomeOK, signal: "3 listings"},
		{name: "protected by reCAPTCHA footer, widgets in forms", status: 200, listings: 3, header: h(), body: f("results-recaptcha-footer.html"),
			kind: model.OutcomeOK, signal: "3 listings"},
		{name: "text merely mentions block phrases", status: 200, listings: 3, header: h(), body: f("results-text-mentions.html"),
			kind: model.OutcomeOK, signal: "3 listings"},
		{name: "no-results marker with a newsletter recaptcha", status: 200, marker: true, container: true, header: h(), body: f("results-no-results.html"),
			kind: model.OutcomeOK, signal: "no-results marker"},
		{name: "one listing", status: 200, listings: 1, header: h(), body: results,
			kind: model.OutcomeOK, signal: "1 listing"},

		// Results missing.
		// A captcha that guards the page's newsletter form is not a challenge
		// (issue 18): the page did not look like results.
		{name: "no-results page, no marker, no container: its newsletter widget is no challenge", status: 200, header: h(), body: f("results-no-results.html"),
			kind: model.OutcomeUnexpectedPage, signal: "no listings, no no-results marker"},
		{name: "contact page with a reCAPTCHA in its form", status: 200, header: h(), body: f("contact-recaptcha.html"),
			kind: model.OutcomeUnexpectedPage, signal: "no listings, no no-results marker"},
		{name: "contact page with a reCAPTCHA in its form on 403 is a denial", status: 403, header: h(), body: f("contact-recaptcha.html"),
			kind: model.OutcomeDenied, signal: "status 403"},
		{name: "incapsula ___utmvc cookie script served 200", status: 200, header: h(), body: f("incapsula-utmvc.html"),
			kind: model.OutcomeChallenge, signal: "body: Incapsula ___utmvc cookie script"},
		{name: "distil block page served 416", status: 416, header: h(), body: f("distil-blocked.html"),
			kind: model.OutcomeDenied, signal: "body: Distil block iframe"},
		{name: "no-results page, no marker, container: layout change, not a captcha", status: 200, container: true, header: h(), body: f("results-no-results.html"),
			kind: model.OutcomeUnexpectedPage, signal: "results container empty, no no-results marker"},
		{name: "results page, nothing extracted, container", status: 200, container: true, header: h(), body: results,
			kind: model.OutcomeUnexpectedPage, signal: "results container empty, no no-results marker"},
		{name: "results page, nothing extracted", status: 200, header: h(), body: results,
			kind: model.OutcomeUnexpectedPage, signal: "no listings, no no-results marker"},
		{name: "cloudflare jsd page without results is not a challenge", status: 200, header: h(), body: f("results-cloudflare-jsd.html"),
			kind: model.OutcomeUnexpectedPage, signal: "no listings, no no-results marker"},
		{name: "empty 200", status: 200, header: h(), body: nil,
			kind: model.OutcomeUnexpectedPage, signal: "empty page"},
		{name: "204", status: 204, header: map[string]string{}, body: nil,
			kind: model.OutcomeUnexpectedPage, signal: "empty page"},

		// 5. Status codes.
		{name: "429 seconds", status: 429, header: map[string]string{"Retry-After": "120"}, body: []byte("Too Many Requests"),
			kind: model.OutcomeRateLimited, signal: "status 429", retry: 2 * time.Minute},
		{name: "429 http-date", status: 429, header: map[string]string{"Retry-After": now.Add(90 * time.Second).Format(http.TimeFormat)}, body: []byte("slow down"),
			kind: model.OutcomeRateLimited, signal: "status 429", retry: 90 * time.Second},
		{name: "429 with listings is still 429", status: 429, listings: 3, header: map[string]string{"Retry-After": "garbage"}, body: results,
			kind: model.OutcomeRateLimited, signal: "status 429"},
		{name: "401", status: 401, header: map[string]string{"WWW-Authenticate": "Basic"}, body: []byte("no"),
			kind: model.OutcomeDenied, signal: "status 401"},
		{name: "403", status: 403, header: h(), body: []byte("<h1>Forbidden</h1>"),
			kind: model.OutcomeDenied, signal: "status 403"},
		{name: "451", status: 451, header: h(), body: []byte("<h1>Not in your country</h1>"),
			kind: model.OutcomeDenied, signal: "status 451"},
		{name: "500", status: 500, header: h(), body: []byte("<h1>Oops</h1>"),
			kind: model.OutcomeError, signal: "status 500"},
		{name: "503 retry-after", status: 503, header: h("Retry-After", "300"), body: []byte("<h1>Maintenance</h1>"),
			kind: model.OutcomeError, signal: "status 503", retry: 5 * time.Minute},
		{name: "akamai 503 with reference is an error", status: 503, header: h("Retry-After", "120"), body: f("akamai-service-unavailable.html"),
			kind: model.OutcomeError, signal: "status 503", retry: 2 * time.Minute},
		{name: "408", status: 408, header: h(), body: nil,
			kind: model.OutcomeError, signal: "status 408"},
		{name: "cloudflare 522", status: 522, header: h("Server", "cloudflare"), body: []byte("<title>www.example | 522: Connection timed out</title>"),
			kind: model.OutcomeError, signal: "status 522 (Cloudflare: the connection to the origin timed out)"},
		{name: "404", status: 404, header: h(), body: []byte("<h1>Not found</h1>"),
			kind: model.OutcomeError, signal: "status 404"},
		{name: "404 with a no-results marker", status: 404, marker: true, header: h(), body: f("results-no-results.html"),
			kind: model.OutcomeOK, signal: "status 404, no-results marker"},
		{name: "302 without location", status: 302, header: h(), body: []byte("moved?"),
			kind: model.OutcomeError, signal: "status 302 without a usable redirect"},
	}
}

// classifyOver serves each page from one loopback server, fetches it for real and
// classifies it.
func TestClassifyOverHTTP(t *testing.T) {
	cases := pageCases(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i, err := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/case/"))
		if err != nil || i < 0 || i >= len(cases) {
			http.NotFound(w, r)
			return
		}
		c := cases[i]
		for k, v := range c.header {
			w.Header().Set(k, v)
		}
		w.WriteHeader(c.status)
		w.Write(c.body)
	}))
	defer srv.Close()
	f := fetch.New(fetch.Options{NoProxy: true})
	defer f.Close()
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, err := f.Fetch(context.Background(), fetch.Request{URL: fmt.Sprintf("%s/case/%d", srv.URL, i)})
			if err != nil {
				t.Fatal(err)
			}
			in := FromFetch(resp, nil)
			in.Listings, in.NoResultsMarker, in.ResultsContainer, in.Now = c.listings, c.marker, c.container, now
			check(t, Classify(in), c.kind, c.signal, c.status, c.retry)
		})
	}
}

func check(t *testing.T, o Outcome, kind model.Outcome, signal string, status int, retry time.Duration) {
	t.Helper()
	if o.Kind != kind || o.Signal != signal || o.Status != status || o.RetryAfter != retry {
		t.Errorf("got %s %q status %d retry %v\nwant %s %q status %d retry %v", o.Kind, o.Signal, o.Status, o.RetryAfter, kind, signal, status, retry)
	}
	if o.Detail == "" {
		t.Error("no detail")
	}
}

func serveOn(t *testing.T, addr string, h http.Handler) *httptest.Server {
	t.Helper()
	l, err := net.Listen("tcp", addr+":0")
	if err != nil {
		t.Skipf("cannot listen on %s: %v", addr, err)
	}
	srv := httptest.NewUnstartedServer(h)
	srv.Listener.Close()
	srv.Listener = l
	srv.Start()
	t.Cleanup(srv.Close)
	return srv
}

func TestClassifyRedirects(t *testing.T) {
	other := serveOn(t, "127.0.0.3", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("the other site was contacted: %s", r.URL)
	}))
	loginPage := fixture(t, "login-page.html")
	site := serveOn(t, "127.0.0.2", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/cross-login":
			http.Redirect(w, r, other.URL+"/login?next=%2Fsuche", http.StatusFound)
		case "/cross-sso":
			http.Redirect(w, r, other.URL+"/sso/start", http.StatusFound)
		case "/cross-other":
			http.Redirect(w, r, other.URL+"/wohnungen", http.StatusMovedPermanently)
		case "/datadome":
			http.Redirect(w, r, "https://geo.captcha-delivery.com/captcha/?initialCid=x&t=fe", http.StatusFound)
		case "/same-login":
			http.Redirect(w, r, "/anmelden", http.StatusFound)
		case "/anmelden":
			w.Write(loginPage)
		case "/loop-a":
			http.Redirect(w, r, "/loop-b", http.StatusFound)
		case "/loop-b":
			http.Redirect(w, r, "/loop-a", http.StatusFound)
		case "/ftp":
			http.Redirect(w, r, "ftp://127.0.0.2/list.txt", http.StatusFound)
		default:
			if n, err := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/hop/")); err == nil && n > 0 {
				http.Redirect(w, r, fmt.Sprintf("/hop/%d", n-1), http.StatusFound)
				return
			}
			http.NotFound(w, r)
		}
	}))
	plain := site
	tlsSrv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, plain.URL+"/anmelden", http.StatusFound)
	}))
	tlsSrv.Config.ErrorLog = log.New(io.Discard, "", 0)
	tlsSrv.StartTLS()
	defer tlsSrv.Close()
	pool := x509.NewCertPool()
	pool.AddCert(tlsSrv.Certificate())
	f := fetch.New(fetch.Options{NoProxy: true, TLSConfig: &tls.Config{RootCAs: pool}})
	defer f.Close()

	for _, c := range []struct {
		url    string
		kind   model.Outcome
		signal string
		status int
	}{
		{site.URL + "/cross-login", model.OutcomeSessionExpired, "redirect to login page 127.0.0.3/login", 302},
		{site.URL + "/cross-sso", model.OutcomeSessionExpired, "redirect to login page 127.0.0.3/sso/start", 302},
		{site.URL + "/cross-other", model.OutcomeError, "redirect to other site 127.0.0.3", 301},
		{site.URL + "/datadome", model.OutcomeChallenge, "redirect to challenge host geo.captcha-delivery.com", 302},
		{site.URL + "/same-login", model.OutcomeSessionExpired, "redirected to login page /anmelden", 200},
		{site.URL + "/loop-a", model.OutcomeError, "redirect loop", 302},
		{site.URL + "/hop/11", model.OutcomeError, "too many redirects", 302},
		{site.URL + "/ftp", model.OutcomeError, "redirect to ftp:// refused", 302},
		{tlsSrv.URL + "/suche", model.OutcomeError, "redirect from https to http refused", 302},
	} {
		t.Run(c.url, func(t *testing.T) {
			resp, err := f.Fetch(context.Background(), fetch.Request{URL: c.url})
			if err != nil {
				t.Fatal(err)
			}
			check(t, Classify(FromFetch(resp, err)), c.kind, c.signal, c.status, 0)
		})
	}
}

func TestClassifyTransportErrors(t *testing.T) {
	big := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		chunk := bytes.Repeat([]byte("<p>x</p>"), 4096)
		for i := 0; i < 64; i++ {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	defer big.Close()
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	}))
	defer hang.Close()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "http://" + l.Addr().String() + "/"
	l.Close()

	f := fetch.New(fetch.Options{NoProxy: true, MaxBody: 64 << 10})
	defer f.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()

	resp, err := f.Fetch(context.Background(), fetch.Request{URL: big.URL})
	o := Classify(FromFetch(resp, err))
	if o.Kind != model.OutcomeError || o.Signal != "the page was larger than 64 KiB" || o.Status != 200 {
		t.Errorf("too large: %v", o)
	}
	resp, err = f.Fetch(ctx, fetch.Request{URL: hang.URL})
	o = Classify(FromFetch(resp, err))
	if o.Kind != model.OutcomeError || !strings.HasPrefix(o.Signal, "timed out after") || o.Status != 0 {
		t.Errorf("hang: %v", o)
	}
	resp, err = f.Fetch(context.Background(), fetch.Request{URL: refused})
	o = Classify(FromFetch(resp, err))
	if o.Kind != model.OutcomeError || o.Signal != "connection refused" {
		t.Errorf("refused: %v", o)
	}
	// An error that is not a fetch.Error still classifies.
	o = Classify(Input{Err: fmt.Errorf("boom")})
	if o.Kind != model.OutcomeError || o.Signal != "boom" {
		t.Errorf("plain error: %v", o)
	}
}

// sharedSites is ../shared/sites from the repository root.
var sharedSites = filepath.Join("..", "..", "..", "shared", "sites")

func TestRealPages(t *testing.T) {
	if _, err := os.Stat(sharedSites); err != nil {
		t.Skipf("no %s: %v", sharedSites, err)
	}
	type answer struct {
		Count int    `json:"count"`
		Kind  string `json:"kind"`
	}
	pages := []string{"is24-challenge", "kleinanzeigen-results", "wggesucht-results", "immobiliende-results", "immoswp-results", "schwarzesbrett-results"}
	bodies := map[string][]byte{}
	answers := map[string]answer{}
	for _, p := range pages {
		b, err := os.ReadFile(filepath.Join(sharedSites, p+".html"))
		if err != nil {
			t.Skipf("missing %s: %v", p, err)
		}
		bodies[p] = b
		var a answer
		if j, err := os.ReadFile(filepath.Join(sharedSites, "answers", p+".json")); err == nil {
			json.Unmarshal(j, &a)
		}
		answers[p] = a
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, ok := bodies[strings.TrimPrefix(r.URL.Path, "/")]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write(b)
	}))
	defer srv.Close()
	f := fetch.New(fetch.Options{NoProxy: true})
	defer f.Close()
	for _, p := range pages {
		t.Run(p, func(t *testing.T) {
			resp, err := f.Fetch(context.Background(), fetch.Request{URL: srv.URL + "/" + p})
			if err != nil {
				t.Fatal(err)
			}
			in := FromFetch(resp, nil)
			in.Listings = answers[p].Count
			o := Classify(in)
			if p == "is24-challenge" {
				check(t, o, model.OutcomeChallenge, "title: Ich bin kein Roboter - ImmobilienScout24", 200, 0)
				return
			}
			if answers[p].Count == 0 {
				t.Fatalf("answer key of %s has no count", p)
			}
			check(t, o, model.OutcomeOK, fmt.Sprintf("%d listings", answers[p].Count), 200, 0)
			// The page on its own carries no refusal evidence: with nothing
			// extracted it is an unexpected page (or a widget-challenge), never
			// denied.
			in.Listings = 0
			if o := Classify(in); o.Kind != model.OutcomeUnexpectedPage && o.Kind != model.OutcomeChallenge {
				t.Errorf("with nothing extracted: %v", o)
			} else {
				t.Logf("with nothing extracted: %v", o)
			}
		})
	}
}

func TestRetryAfterForms(t *testing.T) {
	for _, c := range []struct {
		in   string
		want time.Duration
	}{
		{"120", 2 * time.Minute},
		{" 7 ", 7 * time.Second},
		{"99999999999", hostbackoff.MaxWait},
		{"-1", 0},
		{"1.5", 0},
		{"soon", 0},
		{now.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second},            // IMF-fixdate
		{now.Add(time.Hour).Format("Monday, 02-Jan-06 15:04:05 GMT"), time.Hour},         // RFC 850
		{now.Add(10 * time.Minute).Format("Mon Jan _2 15:04:05 2006"), 10 * time.Minute}, // asctime
		{now.Add(-time.Hour).Format(http.TimeFormat), 0},                                 // past
		{now.Add(30 * 24 * time.Hour).Format(http.TimeFormat), hostbackoff.MaxWait},      // far future
	} {
		o := Classify(Input{Status: 429, Header: http.Header{"Retry-After": {c.in}}, Now: now})
		if o.RetryAfter != c.want || o.Kind != model.OutcomeRateLimited {
			t.Errorf("Retry-After %q: %v, want %v", c.in, o, c.want)
		}
	}
}

func TestRetryAfterOnlyOn429And503(t *testing.T) {
	hdr := http.Header{"Retry-After": {"60"}}
	for st, want := range map[int]time.Duration{429: time.Minute, 503: time.Minute, 500: 0, 403: 0, 200: 0} {
		if o := Classify(Input{Status: st, Header: hdr, Listings: 1, Now: now}); o.RetryAfter != want {
			t.Errorf("status %d: retry %v, want %v", st, o.RetryAfter, want)
		}
	}
}

func TestKindLadder(t *testing.T) {
	for k, want := range map[model.Outcome]string{
		model.OutcomeOK: "", model.OutcomeSessionExpired: "", model.OutcomeChallenge: "challenge", model.OutcomeRateLimited: "rate_limited",
		model.OutcomeDenied: "denied", model.OutcomeError: "error", model.OutcomeUnexpectedPage: "error", model.Outcome("bogus"): "",
	} {
		got := ""
		if r, ok := k.Refusal(); ok {
			got = r.String()
		}
		if got != want {
			t.Errorf("%s.Refusal() = %q, want %q", k, got, want)
		}
		if k.IsRefusal() != (want != "") {
			t.Errorf("%s.IsRefusal() = %v", k, k.IsRefusal())
		}
	}
}

func TestLooksLikeLogin(t *testing.T) {
	for raw, want := range map[string]bool{
		"https://a.example/login":                    true,
		"https://a.example/users/sign_in":            true,
		"https://a.example/signin?next=/x":           true,
		"https://a.example/de/anmelden":              true,
		"https://a.example/login.php":                true,
		"https://a.example/auth/realms/x/protocol":   true,
		"https://sso.a.example/start":                true,
		"https://login.a.example/":                   true,
		"https://accounts.a.example/o/oauth2/auth":   true,
		"https://a.example/suche/wohnung":            false,
		"https://a.example/authors/jane":             false,
		"https://a.example/expose/41201":             false,
		"https://www.a.example/mietwohnungen/berlin": false,
	} {
		u, _ := url.Parse(raw)
		if got := looksLikeLogin(u); got != want {
			t.Errorf("looksLikeLogin(%s) = %v, want %v", raw, got, want)
		}
	}
}

func TestSignalsArePrintable(t *testing.T) {
	o := Classify(Input{Status: 200, Body: []byte("<title>Just a moment\xff\x01...</title>")})
	if o.Kind != model.OutcomeChallenge || o.Signal != "title: Just a moment\uFFFD ..." {
		t.Errorf("got %v %q", o, o.Signal)
	}
}

func TestZeroInput(t *testing.T) {
	if o := Classify(Input{}); o.Kind != model.OutcomeError || o.Signal != "no HTTP status" {
		t.Errorf("zero input: %v", o)
	}
}
