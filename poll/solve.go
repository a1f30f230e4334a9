package poll

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"sync"

	"notifio/poll/browser"

	"notifio/internal/model"
)

// solveWindows are the "solve in the browser" windows by site, for
// SolveDone (the window's Done button, over the socket or not). A site is in
// it from the moment its window is asked for: opening the browser takes
// seconds, and a Done pressed in them must still end the window once it is
// open. It is safe for concurrent use.
type solveWindows struct {
	mu   sync.Mutex
	open map[string]*solveWindow
}

// solveWindow is one site's window: its session once open, and whether Done
// was pressed before that.
type solveWindow struct {
	sess *browser.Session
	done bool
}

// begin marks the site's window as being opened.
func (w *solveWindows) begin(site string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.open == nil {
		w.open = map[string]*solveWindow{}
	}
	w.open[site] = &solveWindow{}
}

// opened hands over the open window's session and reports whether Done was
// pressed while it opened.
func (w *solveWindows) opened(site string, sess *browser.Session) (doneAlready bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	win := w.open[site]
	if win == nil {
		return false
	}
	win.sess = sess
	return win.done
}

// end forgets the site's window.
func (w *solveWindows) end(site string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.open, site)
}

// requestDone returns the site's open session, or remembers the request when
// the window is still opening (nil, nothing to end now).
func (w *solveWindows) requestDone(site string) *browser.Session {
	w.mu.Lock()
	defer w.mu.Unlock()
	win := w.open[site]
	if win == nil {
		return nil
	}
	win.done = true
	return win.sess
}

// SolveDone ends the site's "solve in the browser" window as if the user had
// closed it: what the window's Done button does. Pressed while the window is
// still opening, it ends the window as soon as it is open; with no window,
// it does nothing.
func (s *Service) SolveDone(site string) error {
	s.solving.requestDone(site).Done() // a nil Session does nothing
	return nil
}

// SolveInBrowser opens a visible window of the user's browser, with Notifio's
// profile, at the page of one of the site's searches, for the user to solve a
// check. started, when set, receives the open window (tests click it
// through); SolveDone ends it as closing it does. When the user closes the
// window, the site's cookies go into the plain client too (browser searches
// carry them anyway), and the site's probe is let go at once when its ladder
// allows.
func (s *Service) SolveInBrowser(ctx context.Context, site string, started func(model.SolveWindow)) (model.SolveResult, error) {
	page, err := s.sitePage(site)
	if err != nil {
		return model.SolveResult{}, err
	}
	s.solving.begin(site)
	defer s.solving.end(site)
	sess, err := s.browser().Solve(ctx, page.String())
	if err != nil {
		return model.SolveResult{}, fmt.Errorf("poll: open a window to solve the check: %w", BrowserError(err, site))
	}
	if s.solving.opened(site, sess) {
		sess.Done()
	}
	if started != nil {
		started(sess)
	}
	cookies, err := sess.Wait(ctx)
	if err != nil {
		return model.SolveResult{}, fmt.Errorf("poll: wait for the browser window: %w", err)
	}
	for _, c := range cookies {
		s.fetcher.SetCookies(browser.CookieURL(c, page), []*http.Cookie{c})
	}
	res := model.SolveResult{Cookies: len(cookies)}
	if _, waiting := s.reg.Lookup(site); waiting {
		at, err := s.ProbeNow(site)
		res.ProbeAt = at
		if err != nil {
			res.ProbeNote = err.Error()
		}
	}
	s.log.Info("check solved in the browser", "site", site, "cookies", len(cookies))
	return res, nil
}

// sitePage is the page of the site's first search (by ID).
func (s *Service) sitePage(site string) (*url.URL, error) {
	s.mu.Lock()
	var ids []string
	for id, r := range s.searches {
		if r.s.Site == site {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	raw := ""
	if len(ids) > 0 {
		raw = s.searches[ids[0]].s.URL
	}
	s.mu.Unlock()
	if raw == "" {
		return nil, fmt.Errorf("poll: no search watches %s, so there is no page to open", site)
	}
	return url.Parse(raw)
}
