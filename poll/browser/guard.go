package browser

import (
	"context"
	"net/url"
	"strings"
	"sync"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	pollfetch "notifio/poll/fetch"
)

// blockedTypes are not loaded at all: less load on the site and the machine.
var blockedTypes = []network.ResourceType{network.ResourceTypeImage, network.ResourceTypeFont, network.ResourceTypeMedia}

// guard is what a render's tab may load: no image, font or media, and no page
// of another site in its main frame — a redirect or a script sending the tab
// elsewhere is refused as the plain fetcher refuses a redirect (the other
// site's page, or Chromium's own error page, is never read as results).
type guard struct {
	orig    *url.URL
	blocked counter

	mu   sync.Mutex
	left *pollfetch.RedirectStop // the first navigation refused
}

// guardTab makes the tab ask before each request. done closes when the tab
// has ended.
func guardTab(tab context.Context, orig *url.URL) (*guard, <-chan struct{}, error) {
	paused := chromedp.Events(tab, fetch.RequestPaused) // subscribed before Enable: none is missed
	var patterns []*fetch.RequestPattern
	for _, t := range blockedTypes {
		patterns = append(patterns, &fetch.RequestPattern{URLPattern: "*", ResourceType: t})
	}
	// Documents are seen twice: before they are asked for (a script's
	// navigation) and when their answer arrives (a redirect, before it is followed).
	patterns = append(patterns,
		&fetch.RequestPattern{URLPattern: "*", ResourceType: network.ResourceTypeDocument, RequestStage: fetch.RequestStageRequest},
		&fetch.RequestPattern{URLPattern: "*", ResourceType: network.ResourceTypeDocument, RequestStage: fetch.RequestStageResponse})
	g := &guard{orig: orig}
	var mainFrame cdp.FrameID
	if c := chromedp.FromContext(tab); c != nil && c.Target != nil {
		mainFrame = cdp.FrameID(c.Target.TargetID) // a tab's main frame has the tab's id
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ev, err := range paused {
			if err != nil {
				return
			}
			g.decide(tab, &ev, ev.FrameID == mainFrame)
		}
	}()
	if _, err := chromedp.Call(tab, fetch.Enable, fetch.EnableParams{Patterns: patterns}); err != nil {
		return nil, done, err
	}
	return g, done, nil
}

// decide lets one paused request go on, or fails it.
func (g *guard) decide(tab context.Context, ev *fetch.EventRequestPaused, mainFrame bool) {
	if ev.ResourceType != network.ResourceTypeDocument {
		g.blocked.add()
		g.fail(tab, ev)
		return
	}
	if mainFrame {
		if stop := g.leaves(ev); stop != nil {
			g.mu.Lock()
			if g.left == nil {
				g.left = stop
			}
			g.mu.Unlock()
			g.fail(tab, ev)
			return
		}
	}
	_, _ = chromedp.Call(tab, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: ev.RequestID})
}

func (g *guard) fail(tab context.Context, ev *fetch.EventRequestPaused) {
	_, _ = chromedp.Call(tab, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonBlockedByClient})
}

// leaves is the refused navigation when a main-frame request goes to another
// site: a redirect answer whose Location leaves it, or a request for a page
// of another site (a script's location, a redirect's next hop).
func (g *guard) leaves(ev *fetch.EventRequestPaused) *pollfetch.RedirectStop {
	cur, err := url.Parse(ev.Request.URL)
	if err != nil {
		return nil
	}
	if ev.ResponseStatusCode == 0 { // the request stage
		if !pollfetch.LeavesSite(g.orig, g.orig, cur) {
			return nil
		}
		return &pollfetch.RedirectStop{Why: pollfetch.StopCrossSite, From: g.orig, To: cur, Location: cur.String()}
	}
	code := int(ev.ResponseStatusCode)
	loc := headerOf(ev.ResponseHeaders, "Location")
	if code < 300 || code > 399 || loc == "" {
		return nil
	}
	stop := &pollfetch.RedirectStop{Why: pollfetch.StopCrossSite, From: cur, Location: loc, Status: code}
	ref, err := url.Parse(strings.TrimSpace(loc))
	if err != nil {
		stop.Why = pollfetch.StopBadLocation
		return stop
	}
	stop.To = cur.ResolveReference(ref)
	switch {
	case stop.To.Scheme != "http" && stop.To.Scheme != "https":
		stop.Why = pollfetch.StopScheme
	case cur.Scheme == "https" && stop.To.Scheme == "http":
		stop.Why = pollfetch.StopDowngrade
	case !pollfetch.LeavesSite(g.orig, cur, stop.To):
		return nil
	}
	return stop
}

// refused is the navigation that left the site, or nil.
func (g *guard) refused() *pollfetch.RedirectStop {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.left
}

// headerOf is one header of a paused response.
func headerOf(h []*fetch.HeaderEntry, name string) string {
	for _, e := range h {
		if strings.EqualFold(e.Name, name) {
			return e.Value
		}
	}
	return ""
}
