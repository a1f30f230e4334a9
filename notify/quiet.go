package notify

import (
	"fmt"
	"strings"
	"time"

	"notifio/storage"
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
// end (in now's location). Days are counted on the calendar, so a change to
// or from summer time moves the end with the clock on the wall.
func (q Quiet) Until(now time.Time) (time.Time, bool) {
	if !q.set {
		return time.Time{}, false
	}
	y, m, d := now.Date()
	midnight := time.Date(y, m, d, 0, 0, 0, 0, now.Location())
	at := func(day int, off time.Duration) time.Time {
		return time.Date(y, m, d+day, int(off/time.Hour), int(off%time.Hour/time.Minute), 0, 0, now.Location())
	}
	since := now.Sub(midnight)
	if q.Start < q.End { // within one day
		if since >= q.Start && since < q.End {
			return at(0, q.End), true
		}
		return time.Time{}, false
	}
	switch { // across midnight
	case since >= q.Start:
		return at(1, q.End), true
	case since < q.End:
		return at(0, q.End), true
	}
	return time.Time{}, false
}

// HeldForQuiet reports whether item, a pending push of channel ch, is only
// waiting for the channel's quiet hours to end at now (the relay held it),
// not failing: a push held overnight is what the user asked for.
func HeldForQuiet(item storage.OutboxItem, ch storage.Channel, now time.Time) bool {
	if item.State != storage.OutboxPending || item.Channel == "" || item.Channel != ch.Name || !item.NextAttempt.After(now) {
		return false
	}
	q, err := ParseQuiet(ch.Quiet)
	if err != nil {
		return false
	}
	until, quiet := q.Until(now)
	return quiet && !item.NextAttempt.After(until)
}
