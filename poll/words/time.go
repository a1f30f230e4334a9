package words

import (
	"fmt"
	"time"
)

// The words of time, one family for every screen: how long (Countdown,
// SpanWords, DurationWords, PreciseDuration) and when (ClockTime, ClockWords,
// DayAndTime). Each form is named for what the sentence around it needs and
// the forms share their making: the short "1 h 10 min" is hoursMinutes, the
// day an instant falls on is dayWords.

// SecondsWithin is how close a countdown shows seconds. Further away it shows
// whole minutes: a seconds countdown changes every second and so costs the
// window a full frame every second (docs/PERFORMANCE.md, GUI), while nobody
// needs to know that a check 34 minutes away is 33:58 away.
const SecondsWithin = 3 * time.Minute

// Countdown says how long until an instant: m:ss when it is at most
// SecondsWithin away, else whole minutes ("34 min", "1 h 5 min", "2 h").
// Seconds are rounded up, so a wait that is still running never reads 0:00.
// Minutes are counted as a clock counts them, from the current minute to the
// instant's minute: "in 24 min (at 14:25)" agrees with a clock showing 14:01,
// it is within a minute of the exact wait, and every minutes countdown in the
// window changes at the same instant, when the clock's minute does, so the
// window draws one frame a minute for all of them.
func Countdown(until, now time.Time) string {
	d := until.Sub(now)
	if d <= SecondsWithin {
		d = max(d, 0)
		secs := int64((d + time.Second - 1) / time.Second)
		return fmt.Sprintf("%d:%02d", secs/60, secs%60)
	}
	// More than SecondsWithin away, so at least 3 minutes apart on the clock.
	mins := until.Truncate(time.Minute).Sub(now.Truncate(time.Minute)) / time.Minute
	return hoursMinutes(int(mins))
}

// SpanWords says how long something has lasted, in the short form of a row:
// "45 min", "3 h 10 min", "2 days 4 h" (minutes rounded down).
func SpanWords(d time.Duration) string {
	switch {
	case d < time.Minute:
		return "under a minute"
	case d < 48*time.Hour:
		return hoursMinutes(int(d / time.Minute))
	}
	return fmt.Sprintf("%d days %d h", int(d/(24*time.Hour)), int(d%(24*time.Hour)/time.Hour))
}

// hoursMinutes is the short form of whole minutes: "34 min", "2 h",
// "1 h 5 min".
func hoursMinutes(mins int) string {
	h, m := mins/60, mins%60
	switch {
	case h == 0:
		return fmt.Sprintf("%d min", m)
	case m == 0:
		return fmt.Sprintf("%d h", h)
	}
	return fmt.Sprintf("%d h %d min", h, m)
}

// DurationWords writes a wait, an interval or a setting in full words, the
// form of a sentence and of what the user types ("2 minutes" reads back as 2
// minutes): "90 seconds", "5 minutes", "1 hour 30 minutes", "1 day".
func DurationWords(d time.Duration) string {
	const day = 24 * time.Hour
	d = d.Round(time.Second)
	switch {
	case d < time.Minute || d%time.Minute != 0 && d < 10*time.Minute:
		return Plural(int(d/time.Second), "second", "seconds")
	case d < time.Hour:
		return Plural(int(d/time.Minute), "minute", "minutes")
	case d%day == 0:
		return Plural(int(d/day), "day", "days")
	}
	h, m := int(d/time.Hour), int(d%time.Hour/time.Minute)
	if m == 0 {
		return Plural(h, "hour", "hours")
	}
	return Plural(h, "hour", "hours") + " " + Plural(m, "minute", "minutes")
}

// PreciseDuration is a measured time in a technical reason (a fetch's
// "timed out after 1.2s"): milliseconds under a second, tenths under a
// minute, whole seconds beyond.
func PreciseDuration(d time.Duration) string {
	switch {
	case d < time.Second:
		return d.Round(time.Millisecond).String()
	case d < time.Minute:
		return d.Round(100 * time.Millisecond).String()
	}
	return d.Round(time.Second).String()
}

// ClockTime is the time of day of an instant, "14:25" (local time): for an
// instant near enough that the day goes without saying ("at 14:25 (in 24
// min)").
func ClockTime(t time.Time) string { return t.Local().Format("15:04") }

// ClockWords is "14:30" today, else "Mon 2 Jan 14:30" (local time): when
// something began ("since 14:30").
func ClockWords(t, now time.Time) string {
	if dayWords(t, now) == "today" {
		return ClockTime(t)
	}
	return t.Local().Format("Mon 2 Jan 15:04")
}

// DayAndTime names the day too: "today 14:02", "yesterday 09:15",
// "Mon 2 Jan 14:02" (local time): when something happened ("first seen
// today 14:02").
func DayAndTime(t, now time.Time) string {
	if day := dayWords(t, now); day != "" {
		return day + " " + ClockTime(t)
	}
	return t.Local().Format("Mon 2 Jan 15:04")
}

// dayWords is "today" or "yesterday" for an instant on those local days,
// else "".
func dayWords(t, now time.Time) string {
	t, now = t.Local(), now.Local()
	ty, tm, td := t.Date()
	if ny, nm, nd := now.Date(); ty == ny && tm == nm && td == nd {
		return "today"
	}
	if yy, ym, yd := now.AddDate(0, 0, -1).Date(); ty == yy && tm == ym && td == yd {
		return "yesterday"
	}
	return ""
}
