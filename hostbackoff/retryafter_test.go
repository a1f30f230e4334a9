package hostbackoff_test

import (
	"testing"
	"time"

	"pgregory.net/rapid"

	"notifio/hostbackoff"
)

// now is the fixed instant the tests measure from: Monday 2 March 2026, 12:00 UTC.
var now = time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)

func TestParseRetryAfter(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want time.Duration
		ok   bool
	}{
		{"seconds", "120", 2 * time.Minute, true},
		{"seconds with whitespace", " \t120\r\n", 2 * time.Minute, true},
		{"zero", "0", 0, true},
		{"leading zeros", "0007", 7 * time.Second, true},
		{"just under the cap", "3599", 3599 * time.Second, true},
		{"at the cap", "3600", time.Hour, true},
		{"over the cap", "7200", hostbackoff.MaxWait, true},
		{"huge, no overflow", "99999999999", hostbackoff.MaxWait, true},
		{"longer than int64", "99999999999999999999999999999999", hostbackoff.MaxWait, true},

		{"negative", "-5", 0, false},
		{"decimal", "1.5", 0, false},
		{"hex", "0x10", 0, false},
		{"plus sign", "+3", 0, false},
		{"empty", "", 0, false},
		{"blank", "   ", 0, false},
		{"exponent", "1e3", 0, false},
		{"unit", "120s", 0, false},
		{"inner space", "1 20", 0, false},
		{"non-ASCII digits", "١٢٠", 0, false},
		{"words", "soon", 0, false},

		{"IMF-fixdate", "Mon, 02 Mar 2026 12:01:30 GMT", 90 * time.Second, true},
		{"RFC 850", "Monday, 02-Mar-26 12:01:30 GMT", 90 * time.Second, true},
		{"asctime", "Mon Mar  2 12:01:30 2026", 90 * time.Second, true},
		{"date with whitespace", "  Mon, 02 Mar 2026 12:01:30 GMT ", 90 * time.Second, true},
		{"date now", "Mon, 02 Mar 2026 12:00:00 GMT", 0, true},
		{"past date", "Mon, 02 Mar 2026 11:50:00 GMT", 0, true},
		{"long past date", "Sun, 06 Nov 1994 08:49:37 GMT", 0, true},
		{"date beyond the cap", "Mon, 02 Mar 2026 15:00:00 GMT", hostbackoff.MaxWait, true},
		{"far future date", "Fri, 31 Dec 9999 23:59:59 GMT", hostbackoff.MaxWait, true},
		{"date in another zone", "Mon, 02 Mar 2026 13:01:30 CET", 0, false},
		{"ISO 8601", "2026-03-02T12:01:30Z", 0, false},
		{"truncated date", "Mon, 02 Mar 2026", 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := hostbackoff.ParseRetryAfter(tc.in, now)
			if got != tc.want || ok != tc.ok {
				t.Errorf("ParseRetryAfter(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
			}
		})
	}
}

// Whatever a server sends, the result is in [0, MaxWait], and false means 0.
func TestParseRetryAfterAnyInput(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v := rapid.OneOf(
			rapid.String(),
			rapid.StringMatching(`[ +\-]?[0-9]{0,40}(\.[0-9]+)?`),
			rapid.Custom(func(t *rapid.T) string {
				at := now.Add(time.Duration(rapid.Int64().Draw(t, "offset")))
				return at.UTC().Format(rapid.SampledFrom([]string{
					"Mon, 02 Jan 2006 15:04:05 GMT", "Monday, 02-Jan-06 15:04:05 GMT", time.ANSIC,
				}).Draw(t, "layout"))
			}),
		).Draw(t, "value")
		d, ok := hostbackoff.ParseRetryAfter(v, now)
		if d < 0 || d > hostbackoff.MaxWait {
			t.Fatalf("ParseRetryAfter(%q) = %v", v, d)
		}
		if !ok && d != 0 {
			t.Fatalf("ParseRetryAfter(%q) = %v, false", v, d)
		}
	})
}
