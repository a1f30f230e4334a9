package notify

import (
	"crypto/tls"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/nicholas-fedor/shoutrrr/pkg/format"
	"github.com/nicholas-fedor/shoutrrr/pkg/services/push/gotify"
	"github.com/nicholas-fedor/shoutrrr/pkg/services/push/ntfy"
	"github.com/nicholas-fedor/shoutrrr/pkg/types"

	"notifio/hostbackoff"
)

// What shoutrrr can check of a service URL without sending, checked when the
// channel is added: shoutrrr's Locate parses the URL, but a Gotify URL
// without its token (gotify://host/) or with a token of the wrong shape
// passes it and fails only at the first push.

// checkServiceConfig reports a required part of the service's configuration
// that the URL left empty, and a Gotify token that is not one, in words.
func checkServiceConfig(scheme string, svc types.Service) error {
	if missing := missingRequired(svc); missing != "" {
		return fmt.Errorf("the %s URL has no %s: see the service's URL format in Notifio's README", scheme, missing)
	}
	if g, ok := svc.(*gotify.Service); ok && g.Config != nil && !(&gotify.DefaultValidator{}).ValidateToken(g.Config.Token) {
		return fmt.Errorf("the Gotify URL's token (%d characters) is not a Gotify application token, which is %d characters starting with A: "+
			"copy it from Gotify › Apps and write gotify://your-server/TOKEN", len(g.Config.Token), gotify.TokenLength)
	}
	return nil
}

// missingRequired is the description of the first field shoutrrr marks
// required that is empty in svc's configuration, "" when none is.
func missingRequired(svc types.Service) (missing string) {
	defer func() {
		if recover() != nil { // a service without a Config struct: nothing to check
			missing = ""
		}
	}()
	v := reflect.Indirect(reflect.ValueOf(format.GetServiceConfig(svc)))
	if v.Kind() != reflect.Struct {
		return ""
	}
	for i := range v.NumField() {
		f := v.Type().Field(i)
		if _, required := f.Tag.Lookup("required"); required && v.Field(i).IsZero() {
			if desc := f.Tag.Get("desc"); desc != "" {
				return strings.ToLower(desc[:1]) + desc[1:]
			}
			return strings.ToLower(f.Name)
		}
	}
	return ""
}

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
