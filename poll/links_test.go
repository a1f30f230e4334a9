package poll

import (
	"compress/gzip"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"notifio/hostbackoff"
	"notifio/poll/classify"
	"notifio/poll/fetch"
)

// tokenSite serves a results page whose bytes differ on every request (a CSRF
// meta tag, a request id in a script, a script nonce), as real portals' pages
// do, and which the test switches to other answers.
type tokenSite struct {
	mu       sync.Mutex
	mode     string // ok, jsononly, captcha-script, challenge, challenge200
	listings []string
	hits     int
	seq      atomic.Int64
	srv      *httptest.Server
}

func newTokenSite(t *testing.T, ids ...string) *tokenSite {
	t.Helper()
	s := &tokenSite{mode: "ok", listings: ids}
	s.srv = serveOn(t, "127.0.0.1", s)
	return s
}

func (s *tokenSite) set(mode string) {
	s.mu.Lock()
	s.mode = mode
	s.mu.Unlock()
}

func (s *tokenSite) add(id string) {
	s.mu.Lock()
	s.listings = append(s.listings, id)
	s.mu.Unlock()
}

func (s *tokenSite) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits
}

const tokenNav = `<nav><a href="/">Home</a> <a href="/search">Search</a> <a href="/help">Help</a> <a href="/about">About</a> <a href="/login">Log in</a> <a href="/imprint">Imprint</a></nav>`

func (s *tokenSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.hits++
	mode, ids := s.mode, append([]string(nil), s.listings...)
	s.mu.Unlock()
	tok := fmt.Sprintf("%016x", uint64(s.seq.Add(1))*0x9e3779b97f4a7c15)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if r.Header.Get("Accept-Encoding") == "gzip" {
		// As portals do: the body then has no known length and is read into
		// the fetcher's pooled buffers (Release, Detach).
		w.Header().Set("Content-Encoding", "gzip")
		zw := gzip.NewWriter(w)
		defer zw.Close()
		w = gzipWriter{w, zw}
	}
	head := fmt.Sprintf(`<meta name="csrf-token" content="%s"><script nonce="%s">window.__REQ__={"id":"%s"};var u=x.href="/r/%s";</script>`, tok, tok, tok, tok)
	switch mode {
	case "challenge":
		w.Header().Set("cf-mitigated", "challenge")
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprint(w, `<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>
<script>window._cf_chl_opt={cvId:'3'};</script><script src="/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1"></script></body></html>`)
		return
	case "challenge200":
		fmt.Fprintf(w, `<!DOCTYPE html><html><head><title>Just a moment...</title>%s</head><body>%s
<script>window._cf_chl_opt={cvId:'3'};</script><script src="/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1"></script></body></html>`, head, tokenNav)
		return
	}
	var items, cards strings.Builder
	for i, id := range ids {
		if i > 0 {
			items.WriteString(",")
		}
		fmt.Fprintf(&items, `{"@type":"ListItem","position":%d,"item":{"@type":"Apartment","name":"Flat %s","url":"/expose/%s","offers":{"@type":"Offer","price":"%d","priceCurrency":"EUR"}}}`, i+1, id, id, 900+i)
		fmt.Fprintf(&cards, `<article class="card" data-id="%s"><a href="/expose/%s"><h2>Flat %s</h2></a><p class="price">%d €</p></article>`, id, id, id, 900+i)
	}
	extra := ""
	if mode == "captcha-script" {
		extra = `<script src="https://www.google.com/recaptcha/api.js"></script>`
	}
	main := cards.String()
	if mode == "jsononly" { // listings only in JSON-LD: the links are the navigation's
		main = ""
	}
	fmt.Fprintf(w, `<!doctype html><html><head><title>Wohnungen</title>%s
<script type="application/ld+json">{"@context":"https://schema.org","@type":"ItemList","itemListElement":[%s]}</script>
</head><body>%s%s<main id="results">%s</main></body></html>`, head, items.String(), extra, tokenNav, main)
}

type gzipWriter struct {
	http.ResponseWriter
	zw *gzip.Writer
}

func (g gzipWriter) Write(p []byte) (int, error) { return g.zw.Write(p) }

// lastPoll runs the search's next poll by hand and returns its job and result.
func (h *harness) lastPoll(at time.Time) (job, result) {
	h.t.Helper()
	h.clock.set(at)
	jobs, _ := h.svc.plan(at)
	if len(jobs) != 1 {
		h.t.Fatalf("%d jobs planned at %s, want 1", len(jobs), at)
	}
	res := h.svc.execute(context.Background(), jobs[0])
	h.svc.finish(jobs[0], res, at)
	return jobs[0], res
}

// A page whose bytes differ on every request (tokens in a meta tag, a script,
// a nonce) but whose links are those of the last committed page is neither
// parsed nor committed; a new listing is still found and queued.
func TestUnchangedLinksWithVaryingTokenAreSkipped(t *testing.T) {
	h := newHarness(t, "")
	a := newTokenSite(t, "1", "2", "3", "4", "5")
	h.add("Kreuzberg", a.srv.URL+"/search", time.Minute)
	_, res := h.lastPoll(h.clock.Now()) // baseline
	if res.outcome.Kind != classify.OK || len(res.ext.Listings) != 5 || res.linkHash == 0 {
		t.Fatalf("baseline: outcome %s, %d listings, linkHash %x; want ok, 5, set", res.outcome.Kind, len(res.ext.Listings), res.linkHash)
	}
	c0 := h.db.Commits()
	at := h.clock.Now()
	for i := 0; i < 3; i++ {
		at = at.Add(2 * time.Minute)
		_, res := h.lastPoll(at)
		if !res.unchanged || res.outcome.Kind != classify.OK || res.outcome.Signal != "listing links unchanged" {
			t.Fatalf("poll %d of the same listings: unchanged=%v outcome %s %q", i, res.unchanged, res.outcome.Kind, res.outcome.Signal)
		}
	}
	if got := h.db.Commits() - c0; got != 0 {
		t.Errorf("%d commits for 3 polls of unchanged listings, want 0", got)
	}
	if s := h.svc.Snapshot().Searches[0]; s.LastOutcome != "ok" || s.LastCount != 5 {
		t.Errorf("after unchanged polls: outcome %q, last count %d; want ok, 5", s.LastOutcome, s.LastCount)
	}
	if n := len(h.outbox()); n != 0 {
		t.Fatalf("%d digests without a new listing", n)
	}

	a.add("6")
	at = at.Add(2 * time.Minute)
	_, res = h.lastPoll(at)
	if res.unchanged || len(res.ext.Listings) != 6 {
		t.Fatalf("after a new listing: unchanged=%v, %d listings; want parsed, 6", res.unchanged, len(res.ext.Listings))
	}
	items := h.outbox()
	if len(items) != 1 || len(items[0].Listings) != 1 || !strings.Contains(items[0].Listings[0].Title, "Flat 6") {
		t.Fatalf("outbox = %+v, want one digest with Flat 6", items)
	}
	// The new page is the reference now: the next poll of it is skipped again.
	at = at.Add(2 * time.Minute)
	if _, res = h.lastPoll(at); !res.unchanged {
		t.Errorf("the poll after the new listing was parsed again")
	}
	if a.count() != 6 {
		t.Errorf("%d requests, want 6 (every poll fetches)", a.count())
	}
}

// A challenge or captcha after pages with unchanged links is still classified:
// with its refusal header, at 200 with the challenge page's own links and
// title, and when only a captcha script was added to the same listings.
func TestChallengeAfterUnchangedLinksIsClassified(t *testing.T) {
	for _, tc := range []struct {
		mode string
		want classify.Kind // "" : anything but unchanged
	}{
		{"challenge", classify.Challenge},
		{"challenge200", classify.Challenge},
		{"captcha-script", ""},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			h := newHarness(t, "")
			a := newTokenSite(t, "1", "2", "3", "4", "5")
			h.add("Kreuzberg", a.srv.URL+"/search", time.Minute)
			at := h.clock.Now()
			h.lastPoll(at)
			at = at.Add(2 * time.Minute)
			if _, res := h.lastPoll(at); !res.unchanged {
				t.Fatalf("second poll of the same listings was parsed")
			}
			a.set(tc.mode)
			at = at.Add(2 * time.Minute)
			_, res := h.lastPoll(at)
			if res.unchanged {
				t.Fatalf("%s page taken for unchanged: %+v", tc.mode, res.outcome)
			}
			if tc.want != "" && res.outcome.Kind != tc.want {
				t.Fatalf("%s page classified %s (%q), want %s", tc.mode, res.outcome.Kind, res.outcome.Signal, tc.want)
			}
			if tc.want != "" {
				// After a refusal the reference is gone: the next good page is parsed.
				a.set("ok")
				h.svc.mu.Lock()
				for _, r := range h.svc.searches {
					r.due = at
				}
				h.svc.mu.Unlock()
				h.svc.reg = hostbackoff.NewRegistry() // the wait after the refusal is over
				at = at.Add(2 * time.Minute)
				if _, res := h.lastPoll(at); res.unchanged || res.outcome.Kind != classify.OK {
					t.Errorf("the good page after a %s: unchanged=%v outcome %s", tc.mode, res.unchanged, res.outcome.Kind)
				}
			}
		})
	}
}

// Listings read from JSON only (the page's links are its navigation) give no
// link fingerprint: a new listing in the JSON is found.
func TestJSONOnlyListingsAreParsedEveryTime(t *testing.T) {
	h := newHarness(t, "")
	a := newTokenSite(t, "1", "2", "3", "4", "5")
	a.set("jsononly")
	h.add("Kreuzberg", a.srv.URL+"/search", time.Minute)
	at := h.clock.Now()
	_, res := h.lastPoll(at)
	if res.outcome.Kind != classify.OK || len(res.ext.Listings) != 5 {
		t.Fatalf("baseline: outcome %s, %d listings", res.outcome.Kind, len(res.ext.Listings))
	}
	if res.linkHash != 0 {
		t.Fatalf("JSON-only listings got a link fingerprint")
	}
	a.add("6")
	at = at.Add(2 * time.Minute)
	if _, res = h.lastPoll(at); res.unchanged || len(res.ext.Listings) != 6 {
		t.Fatalf("new JSON listing: unchanged=%v, %d listings", res.unchanged, len(res.ext.Listings))
	}
	if n := len(h.outbox()); n != 1 {
		t.Fatalf("%d digests after a new JSON listing, want 1", n)
	}
}

func TestLinkPrint(t *testing.T) {
	j := job{url: "https://x.example/search"}
	nav := `<a href="/1">1</a><a href='/2'>2</a><a HREF=/3>3</a><a href = "/4">4</a><div data-href="/5"></div>`
	print := func(body string) uint64 {
		fp := linkPrint(j, &fetch.Response{Body: []byte(body), Header: http.Header{}}, nil)
		return fp
	}
	base := print(`<title>T</title><meta content="a1"><script nonce="n1">x.href="/t1"; a = "b"</script>` + nav)
	if base == 0 {
		t.Fatal("five links gave no fingerprint")
	}
	for name, body := range map[string]string{
		"token in meta, script, nonce": `<title>T</title><meta content="a2"><script nonce="n2">x.href="/t2"; a = "c"</script>` + nav,
	} {
		if got := print(body); got != base {
			t.Errorf("%s: fingerprint changed", name)
		}
	}
	for name, body := range map[string]string{
		"a link changed":   `<title>T</title>` + strings.Replace(nav, "/4", "/44", 1),
		"a link added":     `<title>T</title>` + nav + `<a href="/6">6</a>`,
		"links reordered":  `<title>T</title>` + strings.Replace(strings.Replace(nav, "/1", "/x", 1), "/2", "/1", 1),
		"title changed":    `<title>Just a moment</title>` + nav,
		"script src added": `<title>T</title>` + nav + `<script src="/captcha.js"></script>`,
		"data-adid added":  `<title>T</title>` + nav + `<div data-adid="77"></div>`,
	} {
		if got := print(body); got == base {
			t.Errorf("%s: fingerprint unchanged", name)
		}
	}
	if print(`<title>T</title><a href="/1"></a><a href="/2"></a><a href="/3"></a><a href="/4"></a>`) != 0 {
		t.Error("four links gave a fingerprint")
	}
	j2 := j
	j2.sel.Item = ".card"
	fp := linkPrint(j2, &fetch.Response{Body: []byte(`<title>T</title>` + nav), Header: http.Header{}}, nil)
	if fp == print(`<title>T</title>`+nav) {
		t.Error("selectors do not change the fingerprint")
	}
}

func TestLinkIs(t *testing.T) {
	for _, tc := range []struct {
		u, v string
		want bool
	}{
		{"https://x.de/expose/4", "/expose/4", true},
		{"https://x.de/expose/4", "https://x.de/expose/4", true},
		{"https://x.de/expose/4", "//x.de/expose/4", true},
		{"https://x.de/expose/14", "4", false},
		{"https://x.de/a/expose/4", "/expose/4", false},
		{"https://x.de/expose/4", "expose/4", false},
		{"https://x.de/expose/4", "", false},
	} {
		if got := linkIs(tc.u, []byte(tc.v)); got != tc.want {
			t.Errorf("linkIs(%q, %q) = %v", tc.u, tc.v, got)
		}
	}
}

// The last page prints are saved when the watcher closes, so after a restart,
// and on every `notifio once` pass, a page with the links of the last committed
// one is not parsed nor committed again; a new listing is still found.
func TestPrintsSurviveARestartAndOnce(t *testing.T) {
	h := newHarness(t, "")
	a := newTokenSite(t, "1", "2", "3", "4", "5")
	s := h.add("Kreuzberg", a.srv.URL+"/search", time.Minute)
	ctx := context.Background()
	if out := h.svc.Once(ctx); len(out) != 1 || out[0].Outcome != "ok" {
		t.Fatalf("baseline pass: %+v", out)
	}
	for pass := 0; pass < 2; pass++ {
		h.svc.Close()
		h.svc = h.open()
		c0 := h.db.Commits()
		out := h.svc.Once(ctx)
		if len(out) != 1 || out[0].Outcome != "ok" || out[0].Reason != "Found 5 listings on the page." {
			t.Fatalf("pass %d after a restart: %+v", pass, out)
		}
		if got := h.svc.Snapshot().Searches[0].LastSignal; got != "listing links unchanged" {
			t.Fatalf("pass %d after a restart: signal %q, want the page skipped", pass, got)
		}
		if got := h.db.Commits() - c0; got != 0 {
			t.Errorf("pass %d: %d commits for an unchanged page", pass, got)
		}
	}
	var saved map[string]pagePrint
	if ok, err := h.db.GetSetting(printsKey, &saved); err != nil || !ok || saved[s.ID].Links == 0 {
		t.Fatalf("saved prints: %v %v %+v", ok, err, saved)
	}

	a.add("6")
	h.svc.Close()
	h.svc = h.open()
	out := h.svc.Once(ctx)
	if len(out) != 1 || out[0].New != 1 {
		t.Fatalf("pass with a new listing: %+v", out)
	}
	if items := h.outbox(); len(items) != 1 || !strings.Contains(items[0].Listings[0].Title, "Flat 6") {
		t.Fatalf("outbox = %+v, want one digest with Flat 6", items)
	}
	// A removed search's print is not saved again.
	if err := h.svc.RemoveSearch(s.ID); err != nil {
		t.Fatal(err)
	}
	h.svc.Close()
	saved = nil
	if _, err := h.db.GetSetting(printsKey, &saved); err != nil || len(saved) != 0 {
		t.Fatalf("prints after removing the search: %+v %v", saved, err)
	}
	h.svc = h.open()
}

// The watcher's own progress is published at most every publishEvery, and the
// last change always reaches the subscribers.
func TestPublishSoonCoalesces(t *testing.T) {
	h := newHarness(t, "")
	var mu sync.Mutex
	var got []Snapshot
	cancel := h.svc.Subscribe(func(s Snapshot) {
		mu.Lock()
		got = append(got, s)
		mu.Unlock()
	})
	defer cancel()
	for i := 0; i < 100; i++ {
		h.svc.publishSoon()
	}
	h.add("Kreuzberg", "http://127.0.0.1:1/search", time.Minute) // published at once
	h.svc.publishSoon()
	deadline := time.Now().Add(10 * time.Second)
	for {
		mu.Lock()
		n := len(got)
		last := Snapshot{}
		if n > 0 {
			last = got[n-1]
		}
		mu.Unlock()
		if n > 0 && len(last.Searches) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the last change was not published: %d snapshots", n)
		}
		time.Sleep(10 * time.Millisecond)
	}
	mu.Lock()
	n := len(got)
	mu.Unlock()
	if n > 4 {
		t.Errorf("%d snapshots for 101 coalesced publishes and one user change, want at most 4", n)
	}
}

// A page print is the same however its writes are split and whichever reused
// scan state computed it (prints are saved and compared across processes).
func TestPrintIsStable(t *testing.T) {
	big := strings.Repeat("<a href=\"/expose/1\">x</a> ", 1000)
	var a, b print64
	a.WriteString("head")
	a.Write([]byte(big))
	a.writeByte('!')
	b.WriteString("he")
	b.Write([]byte("ad" + big[:10]))
	b.Write([]byte(big[10:]))
	b.Write([]byte("!"))
	if a.Sum64() != b.Sum64() {
		t.Fatalf("split writes give another print")
	}
	j := job{url: "http://127.0.0.1/search"}
	page := &fetch.Response{Body: []byte(`<title>T</title>` + big + tokenNav), Header: http.Header{}}
	want := linkPrint(j, page, nil)
	st := getScan()
	linkPrint(j, &fetch.Response{Body: []byte(`<title>other</title>` + tokenNav), Header: http.Header{}}, st)
	if got := linkPrint(j, page, st); got != want || want == 0 || len(st.links) != 1006 {
		t.Fatalf("reused scan state: print %x, want %x; %d links", got, want, len(st.links))
	}
	putScan(st)
	// Golden value: a change of the hash would make every saved print miss once.
	var g print64
	g.WriteString("notifio")
	if got := g.Sum64(); got != 0xd053b07a78d5f891 {
		t.Errorf("print of \"notifio\" = %#x, want 0xd053b07a78d5f891", got)
	}
}
