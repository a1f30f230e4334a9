package poll

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"notifio/poll/browser"
	"notifio/poll/browser/browsertest"
	"notifio/storage"

	"notifio/internal/model"
)

// testBrowser is Debian's chromium (or the user's Chrome) for these tests, or
// a skip that says how to get one.
func testBrowser(t *testing.T, timeout time.Duration) *browser.Browser {
	t.Helper()
	path, err := browser.Find()
	if err != nil {
		t.Skipf("no browser to test with (%v); `make test` installs Debian's chromium", err)
	}
	b := browser.New(browser.Options{ExecPath: path, ProfileDir: t.TempDir(), Timeout: timeout, SolveHeadless: true})
	t.Cleanup(b.Close)
	return b
}

func TestScriptOnlyPortalNeedsTheBrowser(t *testing.T) {
	site := browsertest.NewSite(t)
	b := testBrowser(t, 20*time.Second)
	ctx := context.Background()
	plain, err := DryRunOnce(ctx, nil, model.SearchInput{URL: site.URL + "/search"}, Options{Browser: b})
	if err != nil {
		t.Fatal(err)
	}
	if plain.Outcome != model.OutcomeUnexpectedPage || len(plain.Listings) != 0 {
		t.Errorf("without a browser: %s with %d listings, want not results", plain.Outcome, len(plain.Listings))
	}
	// Test this search offered the browser and shows the difference.
	if plain.BrowserTry == nil || len(plain.BrowserTry.Listings) != 10 {
		t.Fatalf("the browser was not tried, or found the wrong listings: %+v", plain.BrowserTry)
	}
	if !strings.Contains(plain.BrowserNote, "found 10 listings") || !strings.Contains(plain.BrowserNote, "Read with a browser") {
		t.Errorf("note %q does not say what the browser changes", plain.BrowserNote)
	}
	withBrowser, err := DryRunOnce(ctx, nil, model.SearchInput{URL: site.URL + "/search", Browser: true}, Options{Browser: b})
	if err != nil {
		t.Fatal(err)
	}
	if withBrowser.Outcome != model.OutcomeOK || len(withBrowser.Listings) != 10 || !withBrowser.Browser {
		t.Errorf("with the browser: %s with %d listings, want ok with 10", withBrowser.Outcome, len(withBrowser.Listings))
	}
	for _, l := range withBrowser.Listings {
		if !strings.Contains(l.URL, "/expose/10") || l.Title == "" {
			t.Errorf("listing %+v: want the page's own links and titles", l)
		}
	}
	for _, r := range site.Requests() {
		if strings.Contains(r, "/img/") || strings.Contains(r, "/fonts/") {
			t.Errorf("the site was asked for %s: a render loads no images or fonts", r)
		}
	}
}

// browserService is a Service over a real database in a temporary folder,
// with a clock the test steps.
func browserService(t *testing.T, b *browser.Browser) (*Service, *fakeClock) {
	t.Helper()
	db, err := storage.Open(t.TempDir(), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	clock := &fakeClock{now: t0}
	svc, err := New(db, Options{Clock: clock, Browser: b, Random: func() float64 { return 0.5 }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close(); db.Close() })
	return svc, clock
}

func TestRenderThatNeverFinishesClimbsTheErrorLadder(t *testing.T) {
	site := browsertest.NewSite(t)
	b := testBrowser(t, 3*time.Second)
	svc, _ := browserService(t, b)
	ctx := context.Background()
	if _, err := svc.AddSearch(ctx, model.SearchInput{URL: site.URL + "/hang", Browser: true}); err != nil {
		t.Fatal(err)
	}
	res := svc.Once(ctx)
	if len(res) != 1 || res[0].Outcome != string(model.OutcomeError) {
		t.Fatalf("once = %+v, want one error", res)
	}
	snap := svc.Snapshot()
	st := snap.Sites[0]
	if st.Kind != model.RefusalError || st.Rung != 1 || !st.Waiting {
		t.Errorf("site after the deadline: kind %q rung %d waiting %v, want the error ladder's first rung", st.Kind, st.Rung, st.Waiting)
	}
	if !strings.Contains(st.LastSignal, "did not finish loading in the browser within 3s") {
		t.Errorf("signal %q does not say the page did not finish loading", st.LastSignal)
	}
}

func TestSolvedChallengeLetsTheNextProbePass(t *testing.T) {
	for _, withBrowser := range []bool{false, true} {
		name := map[bool]string{false: "plain search", true: "browser search"}[withBrowser]
		t.Run(name, func(t *testing.T) {
			site := browsertest.NewSite(t)
			b := testBrowser(t, 20*time.Second)
			svc, clock := browserService(t, b)
			ctx := context.Background()
			sr, err := svc.AddSearch(ctx, model.SearchInput{URL: site.URL + "/guarded", Browser: withBrowser})
			if err != nil {
				t.Fatal(err)
			}
			if res := svc.Once(ctx); res[0].Outcome != string(model.OutcomeChallenge) {
				t.Fatalf("first check: %+v, want the challenge", res)
			}
			got, err := svc.SolveInBrowser(ctx, sr.Site, func(s model.SolveWindow) {
				// What the user does in the window: press the button, see the thanks, close.
				cctx, cancel := context.WithTimeout(s.(*browser.Session).Tab(), 20*time.Second)
				defer cancel()
				if err := chromedp.Do(cctx, chromedp.Click(chromedp.ID("solve")), chromedp.WaitVisible(chromedp.ID("solved"))); err != nil {
					t.Error(err)
				}
				_ = svc.SolveDone(sr.Site) // the window's Done button
			})
			if err != nil {
				t.Fatal(err)
			}
			if got.Cookies == 0 {
				t.Fatalf("solve kept no cookies: %+v", got)
			}
			// The probe goes when the ladder allows (at once, or after its first rung).
			clock.set(t0.Add(2 * time.Minute))
			res := svc.Once(ctx)
			if len(res) != 1 || res[0].Outcome != string(model.OutcomeOK) {
				t.Fatalf("probe after solving: %+v, want ok", res)
			}
			if s, _ := svc.Search(sr.ID); s.BaselineCount != 10 {
				t.Errorf("baseline %d listings, want the 10 behind the challenge", s.BaselineCount)
			}
		})
	}
}

func TestSiteRemembersReadingWithABrowser(t *testing.T) {
	svc, _ := browserService(t, browser.New(browser.Options{}))
	ctx := context.Background()
	if svc.BrowserDefault("https://www.portal.example/a") {
		t.Fatal("a new site reads with a browser by default")
	}
	if _, err := svc.AddSearch(ctx, model.SearchInput{URL: "https://www.portal.example/a", Browser: true}); err != nil {
		t.Fatal(err)
	}
	if !svc.BrowserDefault("https://m.portal.example/b") {
		t.Error("a second search of the site does not default to the browser")
	}
	if svc.BrowserDefault("https://other.example/b") {
		t.Error("another site defaults to the browser")
	}
}

// A page that sends the browser to another site, by a redirect or by a
// script, is refused as the plain fetcher refuses the redirect: the other
// site's page is never read as this search's results.
func TestBrowserRefusesToLeaveTheSite(t *testing.T) {
	site := browsertest.NewSite(t)
	var asked atomic.Int32
	elsewhere := serveOn(t, "127.0.0.2", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><html><head><title>Anderswo</title></head><body><ul class="results">`+
			`<li class="result"><a href="/expose/1"><h2>Eine Wohnung anderswo</h2></a><span class="price">500 €</span></li>`+
			`<li class="result"><a href="/expose/2"><h2>Noch eine anderswo</h2></a><span class="price">600 €</span></li></ul></body></html>`)
	}))
	b := testBrowser(t, 20*time.Second)
	for _, path := range []string{"/away", "/script-away"} {
		t.Run(path, func(t *testing.T) {
			dr, err := DryRunOnce(context.Background(), nil, model.SearchInput{URL: site.URL + path + "?to=" + elsewhere.URL + "/list", Browser: true}, Options{Browser: b})
			if err != nil {
				t.Fatal(err)
			}
			if dr.Outcome != model.OutcomeError || len(dr.Listings) != 0 {
				t.Fatalf("outcome %s with %d listings (%s), want an error and none", dr.Outcome, len(dr.Listings), dr.Message)
			}
			if !strings.Contains(dr.Signal, "redirect to other site 127.0.0.2") {
				t.Errorf("signal %q does not say the page went to another site", dr.Signal)
			}
		})
	}
	if n := asked.Load(); n != 0 {
		t.Errorf("the other site was asked %d times; the browser must not go there", n)
	}
}
