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

// solveWindows are the open "solve in the browser" windows by site, for
// SolveDone (the window's Done button, over the socket or not). It is safe
// for concurrent use.
type solveWindows struct {
	mu   sync.Mutex
	open map[string]*browser.Session
}

func (w *solveWindows) set(site string, sess *browser.Session) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.open == nil {
		w.open = map[string]*browser.Session{}
	}
	if sess == nil {
		delete(w.open, site)
		return
	}
	w.open[site] = sess
}

func (w *solveWindows) get(site string) *browser.Session {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.open[site]
}

// SolveDone ends the site's "solve in the browser" window as if the user had
// closed it: what the window's Done button does (nothing when none is open).
func (s *Service) SolveDone(site string) error {
	s.solving.get(site).Done() // a nil Session does nothing
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
	sess, err := s.browser().Solve(ctx, page.String())
	if err != nil {
		return model.SolveResult{}, fmt.Errorf("poll: open a window to solve the check: %w", BrowserError(err, site))
	}
	s.solving.set(site, sess)
	defer s.solving.set(site, nil)
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
