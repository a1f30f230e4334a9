package model

import (
	"strings"
	"testing"
	"time"
)

func TestQuietHours(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip("no time zone data")
	}
	q, err := ParseQuiet("23:00-07:00")
	if err != nil || q.String() != "23:00-07:00" {
		t.Fatalf("parse: %v %q", err, q)
	}
	day := func(h, m int) time.Time { return time.Date(2026, 3, 10, h, m, 0, 0, berlin) }
	for _, tc := range []struct {
		now   time.Time
		quiet bool
		until time.Time
	}{
		{day(22, 59), false, time.Time{}},
		{day(23, 0), true, time.Date(2026, 3, 11, 7, 0, 0, 0, berlin)},
		{day(3, 30), true, day(7, 0)},
		{day(7, 0), false, time.Time{}},
		{day(12, 0), false, time.Time{}},
	} {
		until, quiet := q.Until(tc.now)
		if quiet != tc.quiet || !until.Equal(tc.until) {
			t.Errorf("%s: quiet %v until %s, want %v until %s", tc.now, quiet, until, tc.quiet, tc.until)
		}
	}
	// The night summer time starts is an hour shorter, and still ends at 07:00.
	if until, ok := q.Until(time.Date(2026, 3, 28, 23, 30, 0, 0, berlin)); !ok || until.Hour() != 7 || until.Day() != 29 {
		t.Errorf("summer time night ends %s", until)
	}
	lunch, _ := ParseQuiet("12:00–13:30")
	if _, ok := lunch.Until(day(13, 29)); !ok {
		t.Error("13:29 is inside 12:00–13:30")
	}
	if _, ok := (Quiet{}).Until(day(3, 0)); ok {
		t.Error("no quiet hours is never quiet")
	}
	for _, bad := range []string{"23:00", "23-07", "25:00-07:00", "07:00-07:00", "late-early"} {
		if _, err := ParseQuiet(bad); err == nil || !strings.Contains(err.Error(), "quiet hours") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}
