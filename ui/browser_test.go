package ui

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"notifio/poll"
	"notifio/poll/browser"

	"notifio/internal/model"
)

// fakeBrowser is the fake backend's browser state, kept beside it so that the
// shared fake stays as it is.
type fakeBrowser struct {
	mu        sync.Mutex
	missing   error           // BrowserAvailable's answer
	sites     map[string]bool // BrowserDefault per site name in the URL
	solves    []string
	solveRes  model.SolveResult
	solveErr  error
	solveGate chan struct{} // when set, SolveInBrowser waits for it
	dones     []string      // SolveDone's sites
}

var fakeBrowsers sync.Map // *fakeBackend → *fakeBrowser

func (f *fakeBackend) br() *fakeBrowser {
	v, _ := fakeBrowsers.LoadOrStore(f, &fakeBrowser{sites: map[string]bool{}})
	return v.(*fakeBrowser)
}

func (f *fakeBackend) BrowserAvailable() error {
	fb := f.br()
	fb.mu.Lock()
	defer fb.mu.Unlock()
	return poll.BrowserError(fb.missing, "") // as the watcher returns it
}

func (f *fakeBackend) BrowserDefault(rawURL string) bool {
	fb := f.br()
	fb.mu.Lock()
	defer fb.mu.Unlock()
	for site, on := range fb.sites {
		if strings.Contains(rawURL, site) {
			return on
		}
	}
	return false
}

func (f *fakeBackend) SolveInBrowser(ctx context.Context, site string, started func(model.SolveWindow)) (model.SolveResult, error) {
	fb := f.br()
	fb.mu.Lock()
	fb.solves = append(fb.solves, site)
	gate, res, err := fb.solveGate, fb.solveRes, fb.solveErr
	fb.mu.Unlock()
	if started != nil {
		started(nil)
	}
	if gate != nil {
		<-gate
	}
	if err != nil {
		err = fmt.Errorf("poll: open a window to solve the check: %w", poll.BrowserError(err, site))
	}
	return res, err
}

func (f *fakeBackend) SolveDone(site string) error {
	fb := f.br()
	fb.mu.Lock()
	defer fb.mu.Unlock()
	fb.dones = append(fb.dones, site)
	return nil
}

func TestReadWithABrowserIsSavedAndDefaultsPerSite(t *testing.T) {
	h := newHarness(t, model.Snapshot{})
	h.b.br().sites["immo.example"] = true
	e := h.u.searches.editor
	test.Tap(h.u.searches.add)
	if e.browser.check.Checked {
		t.Fatal("a new search reads with a browser before an address is typed")
	}
	test.Type(e.url, "https://www.immo.example/mieten?ort=leipzig")
	if !e.browser.check.Checked {
		t.Error("a search of a site whose other searches read with a browser does not default to it")
	}
	test.Tap(e.saveBtn)
	h.q.runNext(t)
	h.q.runAll()
	if len(h.b.added) != 1 || !h.b.added[0].Browser {
		t.Fatalf("saved %+v, want one search that reads with a browser", h.b.added)
	}
}

func TestReadWithABrowserSaysWhatToInstallWhenNoneIs(t *testing.T) {
	h := newHarness(t, model.Snapshot{})
	h.b.br().missing = &browser.NotInstalledError{Hint: "Install Chromium (Debian/Ubuntu: sudo apt install chromium) or Google Chrome."}
	e := h.u.searches.editor
	test.Tap(h.u.searches.add)
	if !e.browser.check.Disabled() {
		t.Error("the option can be ticked without a browser")
	}
	if !strings.Contains(e.browser.note.Text, "sudo apt install chromium") {
		t.Errorf("the option says %q, want what to install", e.browser.note.Text)
	}
	test.Type(e.url, "https://www.immo.example/mieten")
	test.Tap(e.saveBtn)
	h.q.runNext(t)
	h.q.runAll()
	if len(h.b.added) != 1 || h.b.added[0].Browser {
		t.Errorf("saved %+v, want a plain search", h.b.added)
	}
}

func TestTestThisSearchOffersTheBrowserAndShowsTheDifference(t *testing.T) {
	h := newHarness(t, model.Snapshot{})
	h.u.win.Resize(fyne.NewSize(900, 1400))
	try := model.DryRun{Outcome: "ok", Browser: true, Listings: []model.PageListing{
		{Title: "Helle 2-Zimmer-Wohnung", Price: "850 €"}, {Title: "Altbau mit Balkon", Price: "920 €"}}}
	h.b.dryRun = model.DryRun{Outcome: "unexpected_page", Message: "The page did not look like results.",
		BrowserTry: &try, BrowserNote: "Without a browser Notifio found no results on this page; read with a browser it found 2 listings."}
	e := h.u.searches.editor
	test.Tap(h.u.searches.add)
	test.Type(e.url, "https://www.immo.example/mieten")
	test.Tap(e.testBtn)
	h.q.runNext(t)
	h.q.runAll()
	h.requireText("read with a browser it found 2 listings")
	h.requireText("Helle 2-Zimmer-Wohnung · 850 €")
	test.Tap(e.browser.use)
	if !e.browser.check.Checked {
		t.Error("\u201cRead it with a browser\u201d did not tick the option")
	}
	test.Tap(e.saveBtn)
	h.q.runNext(t)
	h.q.runAll()
	if len(h.b.added) != 1 || !h.b.added[0].Browser {
		t.Errorf("saved %+v, want the browser", h.b.added)
	}
}

func TestSolveItInTheBrowserKeepsTheCookiesAndSaysSo(t *testing.T) {
	s := sample()
	s.Sites[0] = model.SiteSnapshot{Site: "fotocasa.es", Waiting: true, Kind: model.RefusalChallenge, Rung: 2,
		NextProbe: t0.Add(3 * time.Minute), LastStatus: 403, Searches: 2}
	h := newHarness(t, s)
	h.u.win.Resize(fyne.NewSize(900, 1400))
	h.u.selectView(viewSites)
	fb := h.b.br()
	fb.solveRes = model.SolveResult{Cookies: 2}
	fc, id := h.u.sites.cards["fotocasa.es"], h.u.sites.cards["idealista.com"]
	if !fc.solve.Visible() || id.solve.Visible() {
		t.Fatal("Solve it in the browser is offered exactly on challenged sites")
	}
	test.Tap(fc.solve)
	h.requireText("Solve the check there as usual")
	h.q.runNext(t) // the window closed
	h.q.runAll()
	if len(fb.solves) != 1 || fb.solves[0] != "fotocasa.es" {
		t.Errorf("SolveInBrowser calls = %v", fb.solves)
	}
	h.requireText("Notifio kept the cookies of fotocasa.es and probes it now")

	fb.solveErr = fmt.Errorf("%w: this computer shows no desktop (no display)", browser.ErrNoWindow)
	test.Tap(fc.solve)
	h.q.runNext(t)
	h.q.runAll()
	h.requireText("The browser window did not work. Notifio cannot open a browser window on this computer. Open fotocasa.es in your own browser")
}
