package notify

import (
	"crypto/tls"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/nicholas-fedor/shoutrrr/pkg/services/push/gotify"
	"github.com/nicholas-fedor/shoutrrr/pkg/services/push/ntfy"
	"github.com/nicholas-fedor/shoutrrr/pkg/types"

	"notifio/hostbackoff"
)

// What shoutrrr can check of a service URL without sending, checked when the
// channel is added: shoutrrr's Locate parses the URL, but a Gotify URL
// without its token (gotify://host/) or with a token of the wrong shape
// passes it and fails only at the first push.

// maxPushRetryAfter caps a service's Retry-After, as for sites: an hour.
const maxPushRetryAfter = time.Hour

// retryAfterRecorder keeps the Retry-After of a service's 429 or 503 answer,
// which shoutrrr's services do not hand on: it is the transport of the
// service's HTTP client. Answers are kept by the host asked (one recorder
// serves http.DefaultClient, which several services send with), each with
// when it came, so a send reads only what answered it.
type retryAfterRecorder struct {
	base   http.RoundTripper
	shared bool // serves every service that sends with http.DefaultClient
	mu     sync.Mutex
	last   map[string]busyAnswer // by request host (host:port)
}

// busyAnswer is one 429 or 503 answer's Retry-After and when it came.
type busyAnswer struct {
	at    time.Time
	value string
}

func (r *retryAfterRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := r.base.RoundTrip(req)
	if resp != nil && (resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable) {
		r.mu.Lock()
		if r.last == nil {
			r.last = map[string]busyAnswer{}
		}
		r.last[req.URL.Host] = busyAnswer{at: time.Now(), value: resp.Header.Get("Retry-After")}
		r.mu.Unlock()
	}
	return resp, err
}

// retryAfter is the wait asked for in an answer that came after since,
// capped at an hour (hostbackoff reads it, as for sites); 0 when none. A
// shared recorder reads host's answer; a service's own, its latest.
func (r *retryAfterRecorder) retryAfter(host string, since, now time.Time) time.Duration {
	if r == nil {
		return 0
	}
	r.mu.Lock()
	a, ok := r.last[host]
	if !r.shared {
		for _, b := range r.last {
			if !ok || b.at.After(a.at) {
				a, ok = b, true
			}
		}
	}
	r.mu.Unlock()
	if !ok || a.at.Before(since) {
		return 0
	}
	d, ok := hostbackoff.ParseRetryAfter(a.value, now)
	if !ok || d <= 0 {
		return 0
	}
	return min(d, maxPushRetryAfter)
}

// serviceHost is the host a service URL names (generic://host:port/path
// sends to host:port), for the shared recorder.
func serviceHost(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return ""
	}
	return u.Host
}

// sharedRecorder is the transport of http.DefaultClient, set the first time
// a push is sent: the services that keep no client of their own (the generic
// webhook among them) send with it. It hands every request to the transport
// that was there.
var sharedRecorder = sync.OnceValue(func() *retryAfterRecorder {
	base := http.DefaultClient.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	rec := &retryAfterRecorder{base: base, shared: true}
	http.DefaultClient.Transport = rec
	return rec
})

// recordRetryAfter makes sure svc's answers are recorded and says by whom:
// ntfy takes a client of ours (with the transport shoutrrr would have made),
// Gotify's own client gets our transport around its own, the others send
// with http.DefaultClient (sharedRecorder).
func recordRetryAfter(svc types.Service) *retryAfterRecorder {
	switch s := svc.(type) {
	case *ntfy.Service:
		if s.Config == nil {
			return nil
		}
		tlsConf := &tls.Config{MinVersion: tls.VersionTLS12}
		if s.Config.DisableTLSVerification {
			tlsConf.InsecureSkipVerify = true //nolint:gosec // the user's own choice in the URL, as shoutrrr does it
		}
		rec := &retryAfterRecorder{base: &http.Transport{TLSClientConfig: tlsConf}}
		s.SetHTTPClient(&http.Client{Timeout: ntfy.HTTPTimeout * time.Second, Transport: rec})
		return rec
	case *gotify.Service:
		c := s.GetHTTPClient() // the client the service sends with (a pointer to it)
		if c == nil {
			return nil
		}
		base := c.Transport
		if base == nil {
			base = http.DefaultTransport
		}
		rec := &retryAfterRecorder{base: base}
		c.Transport = rec
		return rec
	}
	return sharedRecorder()
}
