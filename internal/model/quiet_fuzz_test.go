package model

import (
	"testing"
	"time"
)

// FuzzQuietHours checks the quiet-hours arithmetic for any window, instant and
// zone: quiet always ends after now and within a day (and an hour a clock
// change adds); at its end the same night is over; in UTC, quiet is exactly
// "the wall clock is inside the window".
func FuzzQuietHours(f *testing.F) {
	zones := []string{"UTC", "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu", "America/Santiago", "Pacific/Apia"}
	spring := time.Date(2026, 3, 29, 5, 30, 0, 0, time.UTC).Unix()
	autumn := time.Date(2026, 10, 25, 5, 30, 0, 0, time.UTC).Unix()
	for _, seed := range []struct {
		start, end uint16
		unix       int64
		zone       uint8
	}{
		{23 * 60, 7 * 60, spring, 1}, {23 * 60, 7 * 60, autumn, 1}, {60, 150, spring - 4*3600, 1},
		{12 * 60, 13*60 + 30, spring, 0}, {2 * 60, 3 * 60, autumn - 3*3600, 1}, {0, 1, 0, 3},
	} {
		f.Add(seed.start, seed.end, seed.unix, seed.zone)
	}
	locs := make([]*time.Location, len(zones))
	for i, z := range zones {
		loc, err := time.LoadLocation(z)
		if err != nil {
			f.Fatalf("load %s: %v", z, err)
		}
		locs[i] = loc
	}
	f.Fuzz(func(t *testing.T, start, end uint16, unix int64, zone uint8) {
		start, end = start%(24*60), end%(24*60)
		if start == end {
			return
		}
		unix %= 1 << 34 // years 1425 to 2514
		loc := locs[int(zone)%len(locs)]
		q := Quiet{Start: time.Duration(start) * time.Minute, End: time.Duration(end) * time.Minute, set: true}
		now := time.Unix(unix, 0).In(loc)
		until, quiet := q.Until(now)
		if !quiet {
			if !until.IsZero() {
				t.Fatalf("%s at %s: not quiet, but until %s", q, now, until)
			}
		} else {
			if !until.After(now) || until.Sub(now) > 26*time.Hour {
				t.Fatalf("%s at %s: quiet until %s", q, now, until)
			}
			if again, ok := q.Until(until); ok && !again.After(until) {
				t.Fatalf("%s at %s: quiet until %s, and at that instant quiet until %s", q, now, until, again)
			}
		}
		if loc == time.UTC {
			wall := time.Duration(now.Hour())*time.Hour + time.Duration(now.Minute())*time.Minute + time.Duration(now.Second())*time.Second
			inside := wall >= q.Start && wall < q.End
			if q.End < q.Start {
				inside = wall >= q.Start || wall < q.End
			}
			if inside != quiet {
				t.Fatalf("%s at %s (UTC): quiet %v, want %v", q, now, quiet, inside)
			}
		}
	})
}

// FuzzParseQuiet: any text is read or refused without a panic, and what is
// read writes back as itself.
func FuzzParseQuiet(f *testing.F) {
	for _, s := range []string{"23:00-07:00", "12:00–13:30", "", "7-8", "23:00", "25:00-07:00", "07:00-07:00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := ParseQuiet(s)
		if err != nil || q.String() == "" {
			return
		}
		back, err := ParseQuiet(q.String())
		if err != nil || back != q {
			t.Fatalf("%q read as %q, which reads back as %q (%v)", s, q, back, err)
		}
	})
}
