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

	"notifio/internal/model"
)

// tokenSite serves a results page whose bytes differ on every request (a CSRF
// meta tag, a request id in a script, a script nonce), as real portals' pages
// do, and which the test switches to other answers.
type tokenSite struct {
	mu       sync.Mutex
	mode     string // ok, static (the same bytes every time), jsononly, captcha-script, challenge, challenge200
	listings []string
	priceUp  int // added to every price (a price change on the same links)
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

const tokenNav = `<nav><a href="/">Home</a> <a href="/search">Search</a> <a href="/help">Help</a> <a href="/about">About</a> <a href="/login">Log in</a> <a href="/imprint">Imprint</a></nav>`

func (s *tokenSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.hits++
	mode, ids, up := s.mode, append([]string(nil), s.listings...), s.priceUp
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
	if mode == "static" {
		head = ""
	}
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
		fmt.Fprintf(&items, `{"@type":"ListItem","position":%d,"item":{"@type":"Apartment","name":"Flat %s","url":"/expose/%s","offers":{"@type":"Offer","price":"%d","priceCurrency":"EUR"}}}`, i+1, id, id, 900+i+up)
		fmt.Fprintf(&cards, `<article class="card" data-id="%s"><a href="/expose/%s"><h2>Flat %s</h2></a><p class="price">%d €</p></article>`, id, id, id, 900+i+up)
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

// A byte-identical page is neither parsed nor committed again; a page whose
// bytes differ (per-request tokens) is read every time, so a new price on the
// same links is seen; a new listing is found and queued either way.
func TestOnlyTheSamePageIsSkipped(t *testing.T) {
	h := newHarness(t, "")
	a := newTokenSite(t, "1", "2", "3", "4", "5")
	a.set("static")
	h.add("Kreuzberg", a.srv.URL+"/search", time.Minute)
	_, res := h.lastPoll(h.clock.Now()) // baseline
	if res.outcome.Kind != model.OutcomeOK || len(res.ext.Listings) != 5 || res.bodyHash == 0 {
		t.Fatalf("baseline: outcome %s, %d listings, bodyHash %x; want ok, 5, set", res.outcome.Kind, len(res.ext.Listings), res.bodyHash)
	}
	c0 := h.db.Commits()
	at := h.clock.Now()
	for i := 0; i < 3; i++ {
		at = at.Add(2 * time.Minute)
		_, res := h.lastPoll(at)
		if !res.unchanged || res.outcome.Kind != model.OutcomeOK || res.outcome.Signal != "page unchanged" {
			t.Fatalf("poll %d of the same page: unchanged=%v outcome %s %q", i, res.unchanged, res.outcome.Kind, res.outcome.Signal)
		}
	}
	if got := h.db.Commits() - c0; got != 0 {
		t.Errorf("%d commits for 3 polls of the same page, want 0", got)
	}
	if s := h.svc.Snapshot().Searches[0]; s.LastOutcome != "ok" || s.LastCount != 5 {
		t.Errorf("after unchanged polls: outcome %q, last count %d; want ok, 5", s.LastOutcome, s.LastCount)
	}

	// The same links, other prices: read.
	a.mu.Lock()
	a.priceUp = -50
	a.mu.Unlock()
	at = at.Add(2 * time.Minute)
	if _, res = h.lastPoll(at); res.unchanged || len(res.ext.Listings) != 5 || res.ext.Listings[0].PriceValue != 850 {
		t.Fatalf("a new price on the same links: unchanged=%v, %d listings %+v", res.unchanged, len(res.ext.Listings), res.ext.Listings)
	}
	// Tokens that change every request: read every time.
	a.set("ok")
	for i := 0; i < 2; i++ {
		at = at.Add(2 * time.Minute)
		if _, res = h.lastPoll(at); res.unchanged {
			t.Fatalf("poll %d of a page with per-request tokens was skipped", i)
		}
	}
	// The lower prices are announced once, as price drops (issue 22).
	if items := h.outbox(); len(items) != 1 || items[0].Event != model.EventPriceDrop || len(items[0].Listings) != 5 {
		t.Fatalf("outbox = %+v, want one price-drop digest of the 5 listings", items)
	}
	a.add("6")
	at = at.Add(2 * time.Minute)
	_, res = h.lastPoll(at)
	if res.unchanged || len(res.ext.Listings) != 6 {
		t.Fatalf("after a new listing: unchanged=%v, %d listings; want parsed, 6", res.unchanged, len(res.ext.Listings))
	}
	items := h.outbox()[1:]
	if len(items) != 1 || len(items[0].Listings) != 1 || !strings.Contains(items[0].Listings[0].Title, "Flat 6") {
		t.Fatalf("outbox = %+v, want one digest with Flat 6", items)
	}
}

// A challenge or captcha after unchanged pages is classified: with its refusal
// header, at 200, and when only a captcha script was added to the listings.
func TestChallengeAfterUnchangedPagesIsClassified(t *testing.T) {
	for _, tc := range []struct {
		mode string
		want model.Outcome // "" : anything but unchanged
	}{
		{"challenge", model.OutcomeChallenge},
		{"challenge200", model.OutcomeChallenge},
		{"captcha-script", ""},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			h := newHarness(t, "")
			a := newTokenSite(t, "1", "2", "3", "4", "5")
			a.set("static")
			h.add("Kreuzberg", a.srv.URL+"/search", time.Minute)
			at := h.clock.Now()
			h.lastPoll(at)
			at = at.Add(2 * time.Minute)
			if _, res := h.lastPoll(at); !res.unchanged {
				t.Fatalf("second poll of the same page was parsed")
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
				a.set("static")
				h.svc.mu.Lock()
				for _, r := range h.svc.searches {
					r.due = at
				}
				h.svc.mu.Unlock()
				h.svc.reg = hostbackoff.NewRegistry(hostbackoff.Options{Ladders: model.DefaultLadders()}) // the wait after the refusal is over
				at = at.Add(2 * time.Minute)
				if _, res := h.lastPoll(at); res.unchanged || res.outcome.Kind != model.OutcomeOK {
					t.Errorf("the good page after a %s: unchanged=%v outcome %s", tc.mode, res.unchanged, res.outcome.Kind)
				}
			}
		})
	}
}

// Listings read from JSON only (the page's links are its navigation): a new
// listing in the JSON is found.
func TestJSONOnlyListingsAreParsedEveryTime(t *testing.T) {
	h := newHarness(t, "")
	a := newTokenSite(t, "1", "2", "3", "4", "5")
	a.set("jsononly")
	h.add("Kreuzberg", a.srv.URL+"/search", time.Minute)
	at := h.clock.Now()
	_, res := h.lastPoll(at)
	if res.outcome.Kind != model.OutcomeOK || len(res.ext.Listings) != 5 {
		t.Fatalf("baseline: outcome %s, %d listings", res.outcome.Kind, len(res.ext.Listings))
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

// The last page prints are saved when the watcher closes, so after a restart,
// and on every `notifio once` pass, the same page as the last committed one is
// not parsed nor committed again, and the list it was read from is kept; a
// new listing is still found.
func TestPrintsSurviveARestartAndOnce(t *testing.T) {
	h := newHarness(t, "")
	a := newTokenSite(t, "1", "2", "3", "4", "5")
	a.set("static")
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
		if got := h.svc.Snapshot().Searches[0].LastSignal; got != "page unchanged" {
			t.Fatalf("pass %d after a restart: signal %q, want the page skipped", pass, got)
		}
		if got := h.db.Commits() - c0; got != 0 {
			t.Errorf("pass %d: %d commits for an unchanged page", pass, got)
		}
	}
	var saved map[string]pagePrint
	if ok, err := h.db.GetSetting(printsKey, &saved); err != nil || !ok || saved[s.ID].Page == 0 || saved[s.ID].Structure == "" {
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
	var got []model.Snapshot
	cancel := h.svc.Subscribe(func(s model.Snapshot) {
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
		last := model.Snapshot{}
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
