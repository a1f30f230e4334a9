package notify

import (
	"testing"
	"time"
	_ "time/tzdata" // Europe/Berlin on any machine

	"notifio/internal/model"
)

func berlin(t testing.TB) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatalf("load Europe/Berlin: %v", err)
	}
	return loc
}

// TestQuietHoursOnDaylightSavingDays: quiet hours are wall-clock times in the
// user's zone. On 29 March 2026 Berlin's clocks jump from 02:00 to 03:00, on
// 25 October 2026 from 03:00 back to 02:00; 23:00–07:00 still ends at 07:00 on
// the wall, and 07:30 is never quiet.
func TestQuietHoursOnDaylightSavingDays(t *testing.T) {
	loc := berlin(t)
	q, err := model.ParseQuiet("23:00-07:00")
	if err != nil {
		t.Fatal(err)
	}
	at := func(mo time.Month, d, h, m int) time.Time { return time.Date(2026, mo, d, h, m, 0, 0, loc) }
	for _, tc := range []struct {
		name  string
		now   time.Time
		quiet bool
		until time.Time
	}{
		{"spring 07:30", at(time.March, 29, 7, 30), false, time.Time{}},
		{"spring 07:00", at(time.March, 29, 7, 0), false, time.Time{}},
		{"spring 06:30", at(time.March, 29, 6, 30), true, at(time.March, 29, 7, 0)},
		{"spring 01:30", at(time.March, 29, 1, 30), true, at(time.March, 29, 7, 0)},
		{"spring 23:30 before", at(time.March, 28, 23, 30), true, at(time.March, 29, 7, 0)},
		{"autumn 06:30", at(time.October, 25, 6, 30), true, at(time.October, 25, 7, 0)},
		{"autumn 07:10", at(time.October, 25, 7, 10), false, time.Time{}},
		{"autumn 22:30", at(time.October, 25, 22, 30), false, time.Time{}},
		{"autumn 23:00", at(time.October, 25, 23, 0), true, at(time.October, 26, 7, 0)},
	} {
		until, quiet := q.Until(tc.now)
		if quiet != tc.quiet || !until.Equal(tc.until) {
			t.Errorf("%s (%s): quiet %v until %s, want %v until %s", tc.name, tc.now, quiet, until, tc.quiet, tc.until)
		}
		if quiet && !until.After(tc.now) {
			t.Errorf("%s: quiet until %s, which is not after now %s", tc.name, until, tc.now)
		}
	}
	// An end that the spring night skips (02:30) ends when the clock jumps to 03:00.
	early, _ := model.ParseQuiet("01:00-02:30")
	until, quiet := early.Until(at(time.March, 29, 1, 45))
	if want := time.Date(2026, time.March, 29, 1, 0, 0, 0, time.UTC); !quiet || !until.Equal(want) {
		t.Errorf("01:00-02:30 at 01:45 on the spring day: quiet %v until %s, want until %s (03:00 summer time)", quiet, until, want.In(loc))
	}
}
