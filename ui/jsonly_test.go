package ui

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"notifio/notify"
	"notifio/poll"
	"notifio/poll/fetch"
	"notifio/storage"

	"notifio/internal/model"
	"notifio/internal/secrets"
	"notifio/poll/words"
)

// stepClock is a poll.Clock the test moves by hand; its timers never fire
// (the test polls with Once).
type stepClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *stepClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *stepClock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

func (c *stepClock) NewTimer(time.Duration) poll.Timer { return idleTimer{} }

type idleTimer struct{}

func (idleTimer) C() <-chan time.Time { return nil }
func (idleTimer) Stop() bool          { return true }

// jsShellPage is a page that shows its listings only with JavaScript: an
// empty shell, a script, no state in the page.
const jsShellPage = `<!doctype html><html><head><title>Wohnungen mieten in Berlin</title>
<script src="/static/app.3f9c.js" defer></script></head>
<body><div id="app"></div><noscript>Please enable JavaScript to use this site.</noscript></body></html>`

// Issue 37: a search of a page that needs a browser says so in its row, on
// the Sites tab and in `notifio search list`/`status` (words.StatusWords),
// before and after its site's wait ran out — never "had errors (server or
// network)", which sent the user looking for a server fault.
func TestRealJavaScriptOnlyPageIsWordedOnce(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, jsShellPage)
	}))
	defer site.Close()
	dir := t.TempDir()
	db, err := storage.Open(dir, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	clock := &stepClock{now: time.Now().Round(0)}
	fet := fetch.New(fetch.Options{NoProxy: true})
	defer fet.Close()
	svc, err := poll.New(db, poll.Options{DataDir: dir, Fetcher: fet, Clock: clock, SiteGap: time.Millisecond,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	q := newQueue()
	ops := notify.NewOps(db, notify.OpsOptions{Secrets: secrets.NewSecrets(dir), Requeued: svc.OutboxRequeued, Changed: svc.OutboxChanged})
	u := New(test.NewTempApp(t), NewBackend(svc, ops), Options{Dispatch: q.dispatch, Now: clock.Now, TickEvery: time.Hour})
	defer u.Close()
	u.win.Resize(fyne.NewSize(900, 620))
	u.win.Show()
	v := &harness{t: t, u: u}
	if _, err := svc.AddSearch(context.Background(), model.SearchInput{Name: "Berlin", URL: site.URL + "/mieten", Interval: 5 * time.Minute}); err != nil {
		t.Fatal(err)
	}
	check := func(when string) {
		t.Helper()
		u.refresh()
		q.runAll()
		snap := svc.Snapshot()
		s, st := snap.Searches[0], snap.Sites[0]
		cli := words.StatusWords(s, &st, clock.Now()) + " | " + s.Health.Problem + " | " + words.SiteWords(st, clock.Now())
		u.selectView(viewSearches)
		q.runAll()
		row := strings.Join(v.texts(), "\n")
		u.selectView(viewSites)
		q.runAll()
		sites := strings.Join(v.texts(), "\n")
		for name, words := range map[string]string{"search list/status": cli, "row": row, "Sites tab": sites} {
			if strings.Contains(words, "had errors") || strings.Contains(words, "server or network") || strings.Contains(words, "keeps failing") ||
				strings.Contains(words, "server error") || strings.Contains(words, "Last answer: fine") || strings.Contains(words, "did not look like results") ||
				strings.Contains(words, "refusal in a row") {
				t.Errorf("%s, %s: a page that needs a browser is worded as server errors:\n%s", when, name, words)
			}
			if !strings.Contains(words, "needs a browser") {
				t.Errorf("%s, %s: does not say %q:\n%s", when, name, "needs a browser", words)
			}
		}
		// Issue 33: the card's button opens the page it kept, which was no
		// refusal ("Open last refusal page").
		if strings.Contains(sites, "refusal") || !strings.Contains(sites, "Open the page it showed") {
			t.Errorf("%s: the Sites tab words the page it kept as a refusal, or offers no way to open it:\n%s", when, sites)
		}
	}
	for i := range 3 {
		svc.Once(context.Background())
		check("after check " + string(rune('1'+i)))
		clock.advance(2 * time.Hour) // past any wait of the site
		check("after its wait")
	}
}
