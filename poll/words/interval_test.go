package words

import (
	"testing"
	"time"
)

func TestParseInterval(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"2 minutes", 2 * time.Minute, true},
		{"1 minute", time.Minute, true},
		{"30 seconds", 30 * time.Second, true},
		{"1 hour 30 minutes", 90 * time.Minute, true},
		{"5 min", 5 * time.Minute, true},
		{"90s", 90 * time.Second, true},
		{"1m30s", 90 * time.Second, true},
		{"3", 3 * time.Minute, true},
		{"1,5 minutes", 90 * time.Second, true},
		{"10 seconds", 0, false},
		{"29s", 0, false},
		{"", 0, false},
		{"often", 0, false},
		{"2 fortnights", 0, false},
		{"-5", 0, false},
		{"168h", 7 * 24 * time.Hour, true},
		{"169h", 0, false}, // more than 7 days (issue 18)
		{"876000h", 0, false},
	} {
		got, err := ParseInterval(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseInterval(%q) = %v, %v; want %v, ok=%v", tc.in, got, err, tc.want, tc.ok)
		}
	}
	for _, d := range intervalChoices {
		if got, err := ParseInterval(DurationWords(d)); err != nil || got != d {
			t.Errorf("the offered interval %q reads back as %v, %v", DurationWords(d), got, err)
		}
	}
}
