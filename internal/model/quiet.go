package model

import (
	"fmt"
	"strings"
	"time"
)

// Quiet is a channel's quiet hours: from Start to End, local wall-clock time,
// every day; End before Start spans midnight (23:00–07:00). The zero value is
// no quiet hours.
type Quiet struct {
	Start, End time.Duration // since midnight
	set        bool
}

// ParseQuiet reads "23:00-07:00" (also with "–"); "" is no quiet hours.
func ParseQuiet(s string) (Quiet, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Quiet{}, nil
	}
	from, to, ok := strings.Cut(strings.ReplaceAll(s, "–", "-"), "-")
	if !ok {
		return Quiet{}, fmt.Errorf("quiet hours %q: write them as start-end, e.g. 23:00-07:00", s)
	}
	start, err := clockTime(from)
	if err != nil {
		return Quiet{}, fmt.Errorf("quiet hours %q: %w", s, err)
	}
	end, err := clockTime(to)
	if err != nil {
		return Quiet{}, fmt.Errorf("quiet hours %q: %w", s, err)
	}
	if start == end {
		return Quiet{}, fmt.Errorf("quiet hours %q: start and end are the same time; leave them out for none", s)
	}
	return Quiet{Start: start, End: end, set: true}, nil
}

func clockTime(s string) (time.Duration, error) {
	t, err := time.Parse("15:04", strings.TrimSpace(s))
	if err != nil {
		return 0, fmt.Errorf("%q is not a time of day like 07:00", strings.TrimSpace(s))
	}
	return time.Duration(t.Hour())*time.Hour + time.Duration(t.Minute())*time.Minute, nil
}

// String is the "23:00-07:00" form, "" for none.
func (q Quiet) String() string {
	if !q.set {
		return ""
	}
	f := func(d time.Duration) string { return fmt.Sprintf("%02d:%02d", int(d.Hours()), int(d.Minutes())%60) }
	return f(q.Start) + "-" + f(q.End)
}

// Until reports whether now is inside the quiet hours and, if so, when they
// end (in now's location). Start and End are times on the wall clock of now's
// zone, never time elapsed since midnight: on the days summer time starts or
// ends, 23:00–07:00 still ends at 07:00 on the wall. Each night is the span
// from its start to its end as instants, so an hour the clock repeats or skips
// never makes now quiet twice or "quiet until" a time already past.
func (q Quiet) Until(now time.Time) (time.Time, bool) {
	if !q.set {
		return time.Time{}, false
	}
	endDay := 0
	if q.End < q.Start { // across midnight: a night starts the day before it ends
		endDay = 1
	}
	for _, day := range []int{-1, 0} {
		from, to := wallTime(now, day, q.Start), wallTime(now, day+endDay, q.End)
		if !now.Before(from) && now.Before(to) {
			return to, true
		}
	}
	return time.Time{}, false
}

// wallTime is the first instant, day days after now's date, at which the wall
// clock of now's zone reads off (hours and minutes). A time the clock skips
// (02:30 on the spring day) is the instant the clock jumps past it.
func wallTime(now time.Time, day int, off time.Duration) time.Time {
	y, m, d := now.Date()
	h, mi := int(off/time.Hour), int(off%time.Hour/time.Minute)
	t := time.Date(y, m, d+day, h, mi, 0, 0, now.Location())
	if got := t.Hour()*60 + t.Minute(); got != h*60+mi { // the clock skips off
		start, end := t.ZoneBounds() // t was moved past the jump (or before it)
		if got > h*60+mi {
			return start
		}
		return end
	}
	return t
}

// HeldForQuiet reports whether item, a pending push of channel ch, is only
// waiting for the channel's quiet hours to end at now (the relay held it),
// not failing: a push held overnight is what the user asked for.
func HeldForQuiet(item OutboxItem, ch Channel, now time.Time) bool {
	if item.State != OutboxPending || item.Channel == "" || item.Channel != ch.Name || !item.NextAttempt.After(now) {
		return false
	}
	q, err := ParseQuiet(ch.Quiet)
	if err != nil {
		return false
	}
	until, quiet := q.Until(now)
	return quiet && !item.NextAttempt.After(until)
}
