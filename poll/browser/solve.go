package browser

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/storage"
	"github.com/chromedp/chromedp"

	"notifio/internal/model"
)

// cookieEvery is how often the open window's cookies are read: when the user
// closes the window the browser is gone, so the last reading is what counts.
const cookieEvery = time.Second

// Session is one open "solve it in the browser" window. Wait for it with Wait;
// Done ends it from Notifio's side (the user pressed Done).
type Session struct {
	site string
	tab  context.Context
	proc *process

	doneOnce sync.Once
	done     chan struct{} // closed by Done
	changed  chan struct{} // a response arrived in the window: cookies may have changed
	ended    chan struct{} // closed once the window is gone and the cookies kept

	mu      sync.Mutex
	cookies []*network.Cookie // the site's cookies at the last reading
	err     error
}

// ErrNoWindow is wrapped when the visible window cannot be opened.
var ErrNoWindow = errors.New("browser: cannot open a window")

// Solve opens a visible window of the user's browser with Notifio's profile at
// pageURL, for the user to solve a check themselves. Renders wait while it is
// open (the profile is the window's). When the user closes the window or Done
// is called, the site's cookies are kept: every later render of the site
// carries them, and Wait returns them for the plain HTTP client.
func (b *Browser) Solve(ctx context.Context, pageURL string) (*Session, error) {
	u, err := url.Parse(strings.TrimSpace(pageURL))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
		return nil, fmt.Errorf("browser: %q is not a web address the browser can open", pageURL)
	}
	path, err := b.execPath()
	if err != nil {
		return nil, err
	}
	old, err := b.takeProfile()
	if err != nil {
		return nil, err
	}
	old.stop() // one browser at a time has the profile
	opts := b.allocatorOptions(path, !b.opts.SolveHeadless)
	p, err := b.start(opts)
	if err == nil {
		err = chromedp.Do(p.ctx, chromedp.Navigate(u.String()))
	}
	if err != nil {
		p.stop()
		b.giveProfile()
		if errors.Is(err, chromedp.ErrNoDisplay) {
			return nil, fmt.Errorf("%w: this computer shows no desktop (no display). Open %s in your own browser instead, solve the check there, then press \u201cI solved it \u2014 probe now\u201d", ErrNoWindow, u.Redacted())
		}
		return nil, fmt.Errorf("%w: %w", ErrNoWindow, err)
	}
	s := &Session{site: model.SiteOf(u.Hostname()), tab: p.ctx, proc: p,
		done: make(chan struct{}), changed: make(chan struct{}, 1), ended: make(chan struct{})}
	// Cookies are read after every response, not only every second: a user
	// who solves the check and closes the window at once keeps them.
	if err := chromedp.Listen(p.ctx, s.see); err != nil {
		p.stop()
		b.giveProfile()
		return nil, fmt.Errorf("%w: %w", ErrNoWindow, err)
	}
	go s.watch(b)
	b.log.Info("browser window opened for solving a check", "site", s.site)
	return s, nil
}

// takeProfile marks a solve window open once no render is in flight, and
// returns the headless browser to stop.
func (b *Browser) takeProfile() (*process, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.solving {
		return nil, errors.New("browser: a window for solving a check is already open; close it first")
	}
	if b.closed {
		return nil, ErrClosed
	}
	b.solving = true
	for b.active > 0 {
		b.cond.Wait()
	}
	p := b.proc
	b.proc = nil
	if b.idle != nil {
		b.idle.Stop()
	}
	return p, nil
}

// giveProfile lets renders use the profile again.
func (b *Browser) giveProfile() {
	b.mu.Lock()
	b.solving = false
	b.cond.Broadcast()
	b.mu.Unlock()
}

// Tab is the window's tab, for a program that clicks the check through (tests).
func (s *Session) Tab() context.Context { return s.tab }

// Done ends the session as if the user had closed the window.
// A nil Session is a window that never opened: Done does nothing.
func (s *Session) Done() {
	if s != nil {
		s.doneOnce.Do(func() { close(s.done) })
	}
}

// Wait returns, once the window is closed or Done was called, the site's
// cookies as the window left them.
func (s *Session) Wait(ctx context.Context) ([]*http.Cookie, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-s.ended:
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return httpCookies(s.cookies), s.err
}

// watch reads the window's cookies until it is closed or Done, then stops the
// browser and keeps the cookies for later renders.
func (s *Session) watch(b *Browser) {
	defer close(s.ended)
	exited := make(chan struct{})
	go func() {
		defer close(exited)
		_ = chromedp.WaitClosed(s.tab)
	}()
	detached, _ := chromedp.Detached(s.tab)
	tick := time.NewTicker(cookieEvery)
	defer tick.Stop()
	s.readCookies()
	for open := true; open; {
		select {
		case <-tick.C:
			s.readCookies()
		case <-s.changed:
			s.readCookies()
		case <-s.done:
			s.readCookies()
			open = false
		case <-detached: // the tab is gone: the last reading stands
			open = false
		case <-exited:
			open = false
		}
	}
	s.proc.stop()
	<-exited
	s.mu.Lock()
	kept := cookieParams(s.cookies)
	n := len(s.cookies)
	s.mu.Unlock()
	b.mu.Lock()
	if len(kept) > 0 {
		b.solved[s.site] = kept
	}
	b.mu.Unlock()
	b.giveProfile()
	b.log.Info("browser window for solving a check closed", "site", s.site, "cookies", n)
}

// see is called in the window's event loop: it must return fast.
func (s *Session) see(ev any) {
	switch ev.(type) {
	case *network.EventLoadingFinished, *network.EventResponseReceivedExtraInfo:
		select {
		case s.changed <- struct{}{}:
		default:
		}
	}
}

// readCookies keeps the site's cookies as the browser has them now. It asks
// the browser itself, not the tab, so that it still answers after the user
// closed the tab.
func (s *Session) readCookies() {
	c := chromedp.FromContext(s.tab)
	if c == nil || c.Browser == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	res, err := cdp.Call(ctx, c.Browser, storage.GetCookies, storage.GetCookiesParams{})
	if err != nil {
		return // the window is closing; the last reading stands
	}
	var mine []*network.Cookie
	for _, c := range res.Cookies {
		if model.SiteOf(strings.TrimPrefix(c.Domain, ".")) == s.site {
			mine = append(mine, c)
		}
	}
	s.mu.Lock()
	// A browser whose tab is closing reports no session cookies any more:
	// an empty reading never replaces the cookies the window had.
	if len(mine) > 0 {
		s.cookies = mine
	}
	s.mu.Unlock()
}

// cookieParams turns the browser's cookies back into cookies to set.
func cookieParams(cs []*network.Cookie) []*network.CookieParam {
	out := make([]*network.CookieParam, 0, len(cs))
	for _, c := range cs {
		p := &network.CookieParam{Name: c.Name, Value: c.Value, Path: c.Path, Secure: c.Secure,
			HTTPOnly: c.HTTPOnly, SameSite: c.SameSite}
		if strings.HasPrefix(c.Domain, ".") {
			p.Domain = c.Domain
		} else {
			scheme := "http"
			if c.Secure {
				scheme = "https"
			}
			p.URL = scheme + "://" + c.Domain + c.Path // a host-only cookie stays host-only
		}
		if !c.Session && c.Expires > 0 {
			p.Expires = cdp.TimeSinceEpoch(c.Expires)
		}
		out = append(out, p)
	}
	return out
}

// httpCookies turns the browser's cookies into cookies for an HTTP client's jar.
func httpCookies(cs []*network.Cookie) []*http.Cookie {
	out := make([]*http.Cookie, 0, len(cs))
	for _, c := range cs {
		// Domain always set: the jar files the cookie under the host that had
		// it (for a host-only cookie that also admits its subdomains).
		hc := &http.Cookie{Name: c.Name, Value: c.Value, Path: c.Path, Secure: c.Secure, HttpOnly: c.HTTPOnly,
			Domain: strings.TrimPrefix(c.Domain, ".")}
		if !c.Session && c.Expires > 0 {
			hc.Expires = time.Unix(int64(c.Expires), 0)
		}
		out = append(out, hc)
	}
	return out
}

// CookieURL is the address a cookie from Wait belongs to, for a jar's
// SetCookies: its domain, with the page's scheme and port.
func CookieURL(c *http.Cookie, page *url.URL) *url.URL {
	u := &url.URL{Scheme: page.Scheme, Host: page.Host, Path: "/"}
	if c.Domain != "" {
		u.Host = c.Domain
		if p := page.Port(); p != "" {
			u.Host = c.Domain + ":" + p
		}
	}
	return u
}
