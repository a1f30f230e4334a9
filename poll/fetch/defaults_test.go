package fetch

import (
	"testing"
	"time"
)

// TestDefault: only an unset option ("" or not positive) takes the default.
func TestDefault(t *testing.T) {
	for _, c := range []struct{ in, want string }{{"", "de"}, {"en", "en"}} {
		got := c.in
		if Default(&got, "de"); got != c.want {
			t.Errorf("Default(%q, de) = %q, want %q", c.in, got, c.want)
		}
	}
	for _, c := range []struct{ in, want time.Duration }{{0, time.Minute}, {-time.Second, time.Minute}, {time.Second, time.Second}} {
		got := c.in
		if Default(&got, time.Minute); got != c.want {
			t.Errorf("Default(%v, 1m) = %v, want %v", c.in, got, c.want)
		}
	}
}

// TestNewTakesDefaults: a Fetcher built from zero Options has every default.
func TestNewTakesDefaults(t *testing.T) {
	f := New(Options{MaxBody: -1})
	o := f.opts
	if o.UserAgent != DefaultUserAgent || o.Accept != DefaultAccept || o.AcceptLanguage != DefaultAcceptLanguage ||
		o.MaxBody != DefaultMaxBody || o.MaxHeaderBytes != DefaultMaxHeaderBytes || o.DialTimeout != DefaultDialTimeout ||
		o.TLSHandshakeTimeout != DefaultTLSHandshakeTimeout || o.ResponseHeaderTimeout != DefaultResponseHeaderTimeout ||
		o.Timeout != DefaultTimeout || o.MaxRedirects != DefaultMaxRedirects {
		t.Errorf("New(Options{}) kept %+v", o)
	}
}
