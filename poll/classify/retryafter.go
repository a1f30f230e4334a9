package classify

import (
	"net/http"
	"strings"
	"time"
)

// maxRetryAfterSeconds clamps delay-seconds before converting to a Duration, so
// "99999999999" cannot overflow. A day is far beyond any backoff ceiling.
const maxRetryAfterSeconds = 24 * 60 * 60

// parseRetryAfter reads a Retry-After value: delay-seconds (digits only: no sign,
// decimals or hex), or an HTTP-date in any of the three RFC 9110 forms, relative
// to now; a date in the past gives 0; both are clamped to a day. Anything else is
// false.
// Same semantics as hostbackoff.ParseRetryAfter.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if isDigits(v) {
		var n int64
		for i := 0; i < len(v); i++ {
			n = n*10 + int64(v[i]-'0')
			if n > maxRetryAfterSeconds {
				n = maxRetryAfterSeconds
				break
			}
		}
		return time.Duration(n) * time.Second, true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	d := t.Sub(now)
	if d < 0 {
		d = 0
	}
	if d > maxRetryAfterSeconds*time.Second {
		d = maxRetryAfterSeconds * time.Second
	}
	return d, true
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
