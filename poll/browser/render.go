package browser

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/textproto"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"notifio/poll/fetch"

	"notifio/internal/model"
)

// Settling: after the load event a portal's scripts still fetch the results;
// the DOM is read once the network was quiet for settleQuiet, or after
// settleMax at the latest.
const (
	settleQuiet = 500 * time.Millisecond
	settleMax   = 5 * time.Second
	settleTick  = 100 * time.Millisecond
)

// Render loads req.URL in a tab of the shared headless browser and returns the
// main document's status and headers and the DOM once the page settled. It
// fails with an *Error when the page did not load within the deadline
// (Options.Timeout, or ctx's earlier one).
func (b *Browser) Render(ctx context.Context, req Request) (*Page, error) {
	start := time.Now()
	u, err := url.Parse(strings.TrimSpace(req.URL))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
		return nil, &Error{URL: req.URL, Reason: "not a web address the browser can open", Err: err}
	}
	deadline := start.Add(b.opts.Timeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	ctx, cancelDeadline := context.WithDeadline(ctx, deadline)
	defer cancelDeadline()
	p, err := b.acquire(ctx)
	if err != nil {
		var be *Error
		if errors.As(err, &be) || errors.Is(err, ErrClosed) {
			return nil, err
		}
		var ni *NotInstalledError
		if errors.As(err, &ni) {
			return nil, &Error{URL: u.Redacted(), Reason: ni.Error(), Err: ErrNotInstalled}
		}
		return nil, &Error{URL: u.Redacted(), Reason: "the browser could not be started", Err: err}
	}
	defer b.release(p)

	b.mu.Lock()
	cookies := append(slices.Clone(b.solved[model.SiteOf(u.Hostname())]), pastedCookies(req.Cookie, u)...)
	b.mu.Unlock()

	// A tab of its own, closed when the render ends, the deadline passes or
	// the caller gives up.
	tab, closeTab := chromedp.NewContext(p.ctx)
	defer closeTab()
	stop := context.AfterFunc(ctx, closeTab)
	defer stop()
	page, err := b.renderTab(tab, closeTab, u, p.ua, cookies)
	if err != nil {
		return nil, renderError(ctx, u, deadline.Sub(start), err)
	}
	page.Elapsed = time.Since(start)
	if len(page.HTML) > b.opts.MaxBody {
		return nil, &Error{URL: u.Redacted(), Reason: fmt.Sprintf("the page was larger than %d MiB", b.opts.MaxBody>>20)}
	}
	return page, nil
}

// renderError words why a render failed.
func renderError(ctx context.Context, u *url.URL, limit time.Duration, err error) error {
	var le *chromedp.LoadError
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return &Error{URL: u.Redacted(), Reason: fmt.Sprintf("the page did not finish loading in the browser within %s", limit.Round(time.Second)),
			Err: context.DeadlineExceeded}
	case ctx.Err() != nil:
		return &Error{URL: u.Redacted(), Reason: "the render was stopped", Err: ctx.Err()}
	case errors.As(err, &le):
		return &Error{URL: u.Redacted(), Reason: "the browser could not load the page: " + le.ErrorText, Err: err}
	}
	return &Error{URL: u.Redacted(), Reason: "the browser failed to read the page", Err: err}
}

// renderTab runs one render in its own tab.
func (b *Browser) renderTab(tab context.Context, closeTab func(), u *url.URL, ua string, cookies []*network.CookieParam) (*Page, error) {
	g, done, err := guardTab(tab, u)
	dialogsDone := dismissDialogs(tab)
	defer func() { closeTab(); <-done; <-dialogsDone }() // closing the tab ends both
	if err != nil {
		return nil, err
	}
	if ua != "" {
		if _, err := chromedp.Call(tab, emulation.SetUserAgentOverride,
			emulation.SetUserAgentOverrideParams{UserAgent: ua, AcceptLanguage: b.opts.AcceptLanguage}); err != nil {
			return nil, err
		}
	}
	if len(cookies) > 0 {
		if _, err := chromedp.Call(tab, network.SetCookies, network.SetCookiesParams{Cookies: cookies}); err != nil {
			return nil, err
		}
	}
	net := &traffic{inflight: map[network.RequestID]bool{}}
	if err := chromedp.Listen(tab, net.see); err != nil {
		return nil, err
	}
	resp, err := chromedp.Run(tab, chromedp.NavigateResponse(u.String()))
	if stop := g.refused(); stop != nil {
		return leftSite(u, stop, 0), nil
	}
	if err != nil {
		return nil, err
	}
	if resp == nil {
		return nil, errors.New("no response for the page")
	}
	if err := net.settle(tab); err != nil {
		return nil, err
	}
	html, err := chromedp.Run(tab, chromedp.Evaluate[string](`document.documentElement ? document.documentElement.outerHTML : ""`))
	if stop := g.refused(); stop != nil { // a script sent the tab to another site
		return leftSite(u, stop, int(resp.Status)), nil
	}
	if err != nil {
		return nil, err
	}
	final, err := url.Parse(resp.URL)
	if err != nil || final.Host == "" {
		final = u
	}
	return &Page{RequestURL: u, FinalURL: final, Status: int(resp.Status), Header: toHeader(resp.Headers),
		HTML: []byte(html), Blocked: g.blocked.Load()}, nil
}

// leftSite is the render of a page that tried to leave the site: nothing of
// it is read; status is the page's own when a script sent it away (the
// redirect's status is in stop).
func leftSite(u *url.URL, stop *fetch.RedirectStop, status int) *Page {
	if stop.Status != 0 {
		status = stop.Status
	}
	return &Page{RequestURL: u, FinalURL: stop.From, Status: status, Header: http.Header{}, Redirect: stop}
}

// counter is a count safe for concurrent use.
type counter struct {
	mu sync.Mutex
	n  int
}

func (c *counter) add() { c.mu.Lock(); c.n++; c.mu.Unlock() }

// Load returns the count.
func (c *counter) Load() int { c.mu.Lock(); defer c.mu.Unlock(); return c.n }

// dismissDialogs closes every alert, confirm and prompt the page opens, as a
// user pressing Cancel would: an open dialog stops the page's scripts, and the
// page was never read. done closes when the tab has ended.
func dismissDialogs(tab context.Context) <-chan struct{} {
	opened := chromedp.Events(tab, page.JavascriptDialogOpening)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, err := range opened {
			if err != nil {
				return
			}
			_, _ = chromedp.Call(tab, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: false})
		}
	}()
	return done
}

// traffic follows the tab's requests, to tell when the page has settled.
type traffic struct {
	mu       sync.Mutex
	inflight map[network.RequestID]bool
	last     time.Time
}

// see is called in the tab's event loop, in order: it must return fast.
func (t *traffic) see(ev any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		if ev.Type != network.ResourceTypeEventSource && ev.Type != network.ResourceTypeWebSocket {
			t.inflight[ev.RequestID] = true
		}
	case *network.EventLoadingFinished:
		delete(t.inflight, ev.RequestID)
	case *network.EventLoadingFailed:
		delete(t.inflight, ev.RequestID)
	default:
		return
	}
	t.last = time.Now()
}

// settle waits until no request was in flight for settleQuiet (the scripts
// have fetched the results), at most settleMax. A page that keeps a request
// open (a long poll) is read after settleMax.
func (t *traffic) settle(ctx context.Context) error {
	tick := time.NewTicker(settleTick)
	defer tick.Stop()
	limit := time.Now().Add(settleMax)
	for {
		t.mu.Lock()
		quiet := len(t.inflight) == 0 && time.Since(t.last) >= settleQuiet
		t.mu.Unlock()
		if quiet || time.Now().After(limit) {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
}

// toHeader turns the browser's header map into an http.Header; the browser
// joins repeated headers with newlines.
func toHeader(h network.Headers) http.Header {
	out := http.Header{}
	for k, v := range h {
		s, ok := v.(string)
		if !ok {
			s = fmt.Sprint(v)
		}
		for _, line := range strings.Split(s, "\n") {
			out.Add(textproto.CanonicalMIMEHeaderKey(k), line)
		}
	}
	return out
}

// pastedCookies turns a Cookie header the user pasted into cookies for u.
func pastedCookies(header string, u *url.URL) []*network.CookieParam {
	header = strings.TrimSpace(header)
	if len(header) >= 7 && strings.EqualFold(header[:7], "cookie:") {
		header = header[7:]
	}
	var out []*network.CookieParam
	for _, part := range strings.Split(header, ";") {
		name, value, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok || name == "" || strings.ContainsAny(part, "\r\n") {
			continue
		}
		out = append(out, &network.CookieParam{Name: name, Value: value, URL: u.Scheme + "://" + u.Host + "/"})
	}
	return out
}
