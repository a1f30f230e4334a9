package hostbackoff

import (
	"net/http"
	"strings"
	"time"
)

// ParseRetryAfter reads a Retry-After header value (RFC 9110 §10.2.3) relative to
// now. Surrounding whitespace is ignored. The value is either delay-seconds, which
// must be ASCII digits only (no sign, decimal point or hex prefix), or an HTTP-date
// in any of the three forms http.ParseTime accepts (IMF-fixdate, RFC 850, asctime).
// A date in the past gives 0. Anything else, including an empty value, gives false.
//
// The result is clamped to [0, MaxWait] — nothing longer is ever honoured — and the
// seconds are clamped while still an integer, so a value like 99999999999 cannot
// overflow time.Duration.
func ParseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if isDigits(v) {
		const capSeconds = int64(MaxWait / time.Second)
		var secs int64
		for i := 0; i < len(v); i++ {
			secs = secs*10 + int64(v[i]-'0')
			if secs >= capSeconds {
				return MaxWait, true
			}
		}
		return time.Duration(secs) * time.Second, true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	// Time.Sub saturates instead of overflowing, so a date centuries away is safe.
	return min(max(t.Sub(now), 0), MaxWait), true
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
