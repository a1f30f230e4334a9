package fetch

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"notifio/internal/model"
)

// StopReason says why a redirect was not followed.
type StopReason string

// The reasons a redirect is refused.
const (
	StopCrossSite   StopReason = "cross_site"   // to another site: reported for the classifier
	StopTooMany     StopReason = "too_many"     // more than MaxRedirects
	StopLoop        StopReason = "loop"         // more than MaxRedirects, and back to a URL already fetched
	StopScheme      StopReason = "scheme"       // to something other than http or https
	StopDowngrade   StopReason = "downgrade"    // from https to http
	StopBadLocation StopReason = "bad_location" // a Location header that is not a URL
)

// RedirectStop describes a redirect that was refused.
type RedirectStop struct {
	Why StopReason
	// From is the URL that answered with the redirect.
	From *url.URL
	// To is the resolved target; nil when Location could not be parsed.
	To *url.URL
	// Location is the raw header value.
	Location string
	// Status is the redirect's status code (301, 302, 303, 307 or 308).
	Status int
	// Hops is how many redirects had been followed before this one.
	Hops int
}

// String says, in plain words, where the redirect went and why it was not followed.
func (r *RedirectStop) String() string {
	if r == nil {
		return ""
	}
	to := r.Location
	if r.To != nil {
		to = r.To.Redacted()
	}
	switch r.Why {
	case StopCrossSite:
		host := ""
		if r.To != nil {
			host = r.To.Host
		}
		return fmt.Sprintf("redirect to another site (%s): %s", host, to)
	case StopTooMany:
		return fmt.Sprintf("more than %d redirects (next: %s)", r.Hops, to)
	case StopLoop:
		return fmt.Sprintf("redirect loop (back to %s after %d redirects)", to, r.Hops)
	case StopScheme:
		scheme := ""
		if r.To != nil {
			scheme = r.To.Scheme
		}
		return fmt.Sprintf("redirect to a %s:// URL refused: %s", scheme, to)
	case StopDowngrade:
		return "redirect from https to http refused: " + to
	case StopBadLocation:
		return fmt.Sprintf("redirect to an unparseable location %q", r.Location)
	}
	return "redirect not followed: " + to
}

func isRedirect(code int) bool {
	switch code {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		return true
	}
	return false
}

// checkRedirect applies the policy to a Location seen after hops redirects:
// it returns the URL to follow, or why not.
func (f *Fetcher) checkRedirect(orig, cur *url.URL, location string, hops int, visited map[string]bool) (*url.URL, *RedirectStop) {
	stop := &RedirectStop{From: cur, Location: location, Hops: hops}
	ref, err := url.Parse(strings.TrimSpace(location))
	if err != nil {
		stop.Why = StopBadLocation
		return nil, stop
	}
	next := cur.ResolveReference(ref)
	next.Fragment, next.RawFragment = "", ""
	stop.To = next
	switch {
	case next.Scheme != "http" && next.Scheme != "https":
		stop.Why = StopScheme
	case next.Hostname() == "":
		stop.Why = StopBadLocation
	case cur.Scheme == "https" && next.Scheme == "http":
		stop.Why = StopDowngrade
	case LeavesSite(orig, cur, next):
		stop.Why = StopCrossSite
	case hops >= f.opts.MaxRedirects:
		stop.Why = StopTooMany
		if visited[next.String()] {
			stop.Why = StopLoop
		}
	default:
		return next, nil
	}
	return nil, stop
}

// LeavesSite reports whether going from cur to next (a redirect, or a page's
// script sending the browser on) leaves the site of orig, the search's own
// page: another site (model.SiteOf), or another port (another server).
// It is the one rule for the plain fetcher and the browser alike.
func LeavesSite(orig, cur, next *url.URL) bool {
	return model.SiteOf(next.Hostname()) != model.SiteOf(orig.Hostname()) || portChanged(cur, next)
}

// portChanged reports a redirect to another port: a different server, so it
// leaves the site, except the upgrade from http on 80 to https on 443.
func portChanged(cur, next *url.URL) bool {
	from, to := EffectivePort(cur), EffectivePort(next)
	if from == to {
		return false
	}
	return !(cur.Scheme == "http" && next.Scheme == "https" && from == "80" && to == "443")
}

// EffectivePort is the URL's port, or its scheme's default (80 or 443).
func EffectivePort(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if u.Scheme == "https" {
		return "443"
	}
	return "80"
}
