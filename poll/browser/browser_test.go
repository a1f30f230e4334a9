package browser

import (
	"context"
	"errors"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"go.uber.org/goleak"

	"notifio/poll/browser/browsertest"
)

// TestMain fails the run when a browser process or a goroutine outlived the
// tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if left := descendants(os.Getpid()); len(left) > 0 && code == 0 {
		os.Stderr.WriteString("browser processes left behind: " + strings.Join(left, ", ") + "\n")
		code = 1
	}
	if err := goleak.Find(); err != nil && code == 0 {
		os.Stderr.WriteString("goroutines left behind: " + err.Error() + "\n")
		code = 1
	}
	os.Exit(code)
}

// descendants lists the processes below pid (Linux; elsewhere none are seen).
func descendants(pid int) []string {
	raw, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range raw {
		n, err := strconv.Atoi(e.Name())
		if err != nil || n == pid {
			continue
		}
		st, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(st)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) > 1 && f[1] == strconv.Itoa(pid) && f[0] != "Z" {
			out = append(out, e.Name()+" "+s[strings.IndexByte(s, '(')+1:i])
		}
	}
	return out
}

// newTestBrowser returns a Browser over the installed Chromium, or skips.
func newTestBrowser(t *testing.T, opts Options) *Browser {
	t.Helper()
	path, err := Find()
	if err != nil {
		t.Skipf("no browser to test with (%v); `make test` installs Debian's chromium", err)
	}
	opts.ExecPath = path
	if opts.ProfileDir == "" {
		opts.ProfileDir = t.TempDir()
	}
	b := New(opts)
	t.Cleanup(b.Close)
	return b
}

func TestRenderRunsTheScriptsThatBuildTheResults(t *testing.T) {
	site := browsertest.NewSite(t)
	b := newTestBrowser(t, Options{})
	p, err := b.Render(context.Background(), Request{URL: site.URL + "/search"})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(string(p.HTML), `class="result"`); got != 10 {
		t.Errorf("rendered page has %d results, want 10:\n%s", got, p.HTML)
	}
	if p.Status != 200 || p.Header.Get("X-Portal") != "test" {
		t.Errorf("main document: status %d, X-Portal %q; want 200 and the site's header", p.Status, p.Header.Get("X-Portal"))
	}
	for _, r := range site.Requests() {
		if strings.Contains(r, "/img/") || strings.Contains(r, "/fonts/") {
			t.Errorf("the site was asked for %s: images and fonts must not be loaded", r)
		}
	}
	if p.FinalURL.String() != site.URL+"/search" {
		t.Errorf("final URL %s", p.FinalURL)
	}
	t.Logf("render: %s, %d bytes of HTML, %d requests blocked, browser memory %.0f MiB",
		p.Elapsed.Round(time.Millisecond), len(p.HTML), p.Blocked, float64(b.Memory())/(1<<20))
}

func TestRenderThatNeverFinishesHitsTheDeadline(t *testing.T) {
	site := browsertest.NewSite(t)
	b := newTestBrowser(t, Options{Timeout: 3 * time.Second})
	start := time.Now()
	_, err := b.Render(context.Background(), Request{URL: site.URL + "/hang"})
	var be *Error
	if !errors.As(err, &be) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want a *browser.Error wrapping the deadline", err)
	}
	if !strings.Contains(be.Reason, "did not finish loading in the browser within 3s") {
		t.Errorf("reason %q does not say what happened", be.Reason)
	}
	if d := time.Since(start); d > 15*time.Second {
		t.Errorf("the render took %s, past its deadline", d)
	}
	// The browser is still usable after a tab ran out of time.
	if _, err := b.Render(context.Background(), Request{URL: site.URL + "/search"}); err != nil {
		t.Errorf("render after a deadline: %v", err)
	}
}

func TestSolvedCheckCarriesItsCookieToTheNextRenderAndThePlainClient(t *testing.T) {
	site := browsertest.NewSite(t)
	b := newTestBrowser(t, Options{SolveHeadless: true})
	p, err := b.Render(context.Background(), Request{URL: site.URL + "/guarded"})
	if err != nil {
		t.Fatal(err)
	}
	if p.Status != 403 || !strings.Contains(string(p.HTML), "kein Roboter") {
		t.Fatalf("before solving: status %d, want the 403 challenge page", p.Status)
	}
	s, err := b.Solve(context.Background(), site.URL+"/guarded")
	if err != nil {
		t.Fatal(err)
	}
	// What the user does in the window: press the button, see the thanks.
	ctx, cancel := context.WithTimeout(s.Tab(), 20*time.Second)
	err = chromedp.Do(ctx, chromedp.Click(chromedp.ID("solve")), chromedp.WaitVisible(chromedp.ID("solved")))
	cancel()
	if err != nil {
		t.Fatal(err)
	}
	s.Done()
	wctx, wcancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer wcancel()
	cookies, err := s.Wait(wctx)
	if err != nil {
		t.Fatal(err)
	}
	if !hasCookie(cookies, "clearance", "ok") {
		t.Fatalf("cookies after solving = %v, want clearance=ok", cookies)
	}
	p, err = b.Render(context.Background(), Request{URL: site.URL + "/guarded"})
	if err != nil {
		t.Fatal(err)
	}
	if p.Status != 200 || strings.Count(string(p.HTML), `class="result"`) != 10 {
		t.Errorf("after solving: status %d, want the results (200, 10 listings)", p.Status)
	}
	// A plain search of the site gets the same cookie in its jar.
	page, _ := url.Parse(site.URL + "/guarded")
	jar, _ := cookiejar.New(nil)
	for _, c := range cookies {
		jar.SetCookies(CookieURL(c, page), []*http.Cookie{c})
	}
	resp, err := (&http.Client{Jar: jar}).Get(page.String())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("plain client with the copied cookies: status %d, want 200", resp.StatusCode)
	}
}

func hasCookie(cs []*http.Cookie, name, value string) bool {
	for _, c := range cs {
		if c.Name == name && c.Value == value {
			return true
		}
	}
	return false
}

func TestIdleBrowserClosesAndStartsAgain(t *testing.T) {
	site := browsertest.NewSite(t)
	b := newTestBrowser(t, Options{})
	if _, err := b.Render(context.Background(), Request{URL: site.URL + "/search"}); err != nil {
		t.Fatal(err)
	}
	if !b.Running() {
		t.Fatal("the browser is not kept between renders")
	}
	b.closeIdle() // what the idle timer calls
	if b.Running() {
		t.Fatal("the idle browser was not closed")
	}
	if left := descendants(os.Getpid()); len(left) > 0 {
		t.Errorf("processes left after the idle close: %v", left)
	}
	if _, err := b.Render(context.Background(), Request{URL: site.URL + "/search"}); err != nil {
		t.Fatalf("render after the idle close: %v", err)
	}
}

func TestBrowserRestartsPastItsRenderBound(t *testing.T) {
	site := browsertest.NewSite(t)
	b := newTestBrowser(t, Options{MaxRenders: 1})
	if _, err := b.Render(context.Background(), Request{URL: site.URL + "/search"}); err != nil {
		t.Fatal(err)
	}
	if b.Running() {
		t.Error("the browser still runs after reaching MaxRenders")
	}
}

func TestClosingTheSolveWindowKeepsTheCookies(t *testing.T) {
	site := browsertest.NewSite(t)
	b := newTestBrowser(t, Options{SolveHeadless: true})
	s, err := b.Solve(context.Background(), site.URL+"/guarded")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(s.Tab(), 20*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("solve")), chromedp.WaitVisible(chromedp.ID("solved"))); err != nil {
		t.Fatal(err)
	}
	// The user closes the window instead of pressing Done.
	if _, err := chromedp.Call(ctx, page.Close, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	wctx, wcancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer wcancel()
	cookies, err := s.Wait(wctx)
	if err != nil {
		t.Fatal(err)
	}
	if !hasCookie(cookies, "clearance", "ok") {
		t.Errorf("cookies after closing the window = %v, want clearance=ok", cookies)
	}
	// The profile is free again: the next render starts a headless browser on it.
	p, err := b.Render(context.Background(), Request{URL: site.URL + "/guarded"})
	if err != nil {
		t.Fatal(err)
	}
	if p.Status != 200 {
		t.Errorf("render after the window closed: status %d, want 200 with the cookie", p.Status)
	}
}

func TestBrowserRestartsPastItsMemoryBound(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the browser's memory is measured on Linux only; MaxRenders bounds it elsewhere")
	}
	site := browsertest.NewSite(t)
	b := newTestBrowser(t, Options{MaxMemory: 1 << 20}) // any real browser is bigger
	if _, err := b.Render(context.Background(), Request{URL: site.URL + "/search"}); err != nil {
		t.Fatal(err)
	}
	if b.Running() {
		t.Error("the browser still runs above its memory bound")
	}
	if _, err := b.Render(context.Background(), Request{URL: site.URL + "/search"}); err != nil {
		t.Fatalf("render after the restart: %v", err)
	}
}

// TestNewTakesDefaults: a Browser built from zero Options has every default
// (and starts nothing).
func TestNewTakesDefaults(t *testing.T) {
	b := New(Options{MaxBody: -1})
	defer b.Close()
	o := b.opts
	if o.Timeout != DefaultTimeout || o.IdleTimeout != DefaultIdleTimeout || o.MaxMemory != DefaultMaxMemory ||
		o.MaxRenders != DefaultMaxRenders || o.MaxBody != DefaultMaxBody || o.AcceptLanguage != DefaultAcceptLanguage {
		t.Errorf("New(Options{}) kept %+v", o)
	}
}
