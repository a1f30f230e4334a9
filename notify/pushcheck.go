package notify

import (
	"crypto/tls"
	"net/http"
	"sync"
	"time"

	"github.com/nicholas-fedor/shoutrrr/pkg/services/push/ntfy"
	"github.com/nicholas-fedor/shoutrrr/pkg/types"

	"notifio/hostbackoff"
)

// maxPushRetryAfter caps a service's Retry-After, as for sites: an hour.
const maxPushRetryAfter = time.Hour

// retryAfterRecorder keeps the Retry-After of a service's 429 or 503 answer,
// which shoutrrr's services do not hand on.
type retryAfterRecorder struct {
	base  http.RoundTripper
	mu    sync.Mutex
	value string
}

func (r *retryAfterRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := r.base.RoundTrip(req)
	if resp != nil && (resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable) {
		r.mu.Lock()
		r.value = resp.Header.Get("Retry-After")
		r.mu.Unlock()
	}
	return resp, err
}

// retryAfter is the recorded wait, capped at an hour; 0 when none.
func (r *retryAfterRecorder) retryAfter(now time.Time) time.Duration {
	if r == nil {
		return 0
	}
	r.mu.Lock()
	v := r.value
	r.mu.Unlock()
	d, ok := hostbackoff.ParseRetryAfter(v, now)
	if !ok || d <= 0 {
		return 0
	}
	return min(d, maxPushRetryAfter)
}

// recordRetryAfter gives the services that take an HTTP client (ntfy) one
// that records Retry-After, with the transport shoutrrr would have made; nil
// for the others.
func recordRetryAfter(svc types.Service) *retryAfterRecorder {
	n, ok := svc.(*ntfy.Service)
	if !ok || n.Config == nil {
		return nil
	}
	tlsConf := &tls.Config{MinVersion: tls.VersionTLS12}
	if n.Config.DisableTLSVerification {
		tlsConf.InsecureSkipVerify = true //nolint:gosec // the user's own choice in the URL, as shoutrrr does it
	}
	rec := &retryAfterRecorder{base: &http.Transport{TLSClientConfig: tlsConf}}
	n.SetHTTPClient(&http.Client{Timeout: ntfy.HTTPTimeout * time.Second, Transport: rec})
	return rec
}
