package words

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"notifio/internal/model"
)

// How often a search is checked, as the window offers it and reads what the
// user typed.

// intervalChoices are the intervals the add/edit dialog and Settings offer.
var intervalChoices = []time.Duration{
	30 * time.Second, time.Minute, 2 * time.Minute, 5 * time.Minute,
	10 * time.Minute, 15 * time.Minute, 30 * time.Minute, time.Hour,
}

// IntervalOptions are the intervals a search's dialog offers, in words
// ParseInterval reads back.
func IntervalOptions() []string {
	out := make([]string, len(intervalChoices))
	for i, d := range intervalChoices {
		out[i] = DurationWords(d)
	}
	return out
}

// ParseInterval reads what a user typed as an interval: "2 minutes", "90 seconds",
// "1 hour", "5 min", "90s", "1m30s", or a bare number of minutes. It refuses
// intervals outside model.MinInterval and model.MaxInterval with a
// *model.UserError that says why.
func ParseInterval(text string) (time.Duration, error) {
	t := strings.ToLower(strings.TrimSpace(text))
	if t == "" {
		return 0, &model.UserError{Msg: "Choose how often to check, for example “2 minutes”."}
	}
	d, err := time.ParseDuration(t)
	if err != nil {
		d, err = parseWordsDuration(t)
	}
	if err != nil {
		return 0, &model.UserError{Msg: "Write how often to check like “2 minutes” or “90 seconds”."}
	}
	if d < model.MinInterval {
		return 0, &model.UserError{Msg: "Notifio checks a search at most every 30 seconds, so the site does not block you. Choose 30 seconds or more."}
	}
	if d > model.MaxInterval {
		return 0, &model.UserError{Msg: "Notifio checks a search at least once every 7 days. Choose 7 days or less, or pause the search instead."}
	}
	return d, nil
}

// parseWordsDuration reads "<number> <unit>" pairs such as "1 hour 30 minutes".
func parseWordsDuration(t string) (time.Duration, error) {
	fields := strings.Fields(t)
	if len(fields) == 1 {
		n, err := strconv.ParseFloat(fields[0], 64)
		if err != nil || n <= 0 {
			return 0, fmt.Errorf("words: not a number: %q", t)
		}
		return time.Duration(n * float64(time.Minute)), nil
	}
	if len(fields)%2 != 0 {
		return 0, fmt.Errorf("words: unreadable interval %q", t)
	}
	var total time.Duration
	for i := 0; i < len(fields); i += 2 {
		n, err := strconv.ParseFloat(strings.ReplaceAll(fields[i], ",", "."), 64)
		if err != nil || n < 0 || n > 24*60 {
			return 0, fmt.Errorf("words: unreadable number %q", fields[i])
		}
		var unit time.Duration
		switch strings.TrimSuffix(fields[i+1], ".") {
		case "s", "sec", "secs", "second", "seconds":
			unit = time.Second
		case "m", "min", "mins", "minute", "minutes":
			unit = time.Minute
		case "h", "hr", "hrs", "hour", "hours":
			unit = time.Hour
		default:
			return 0, fmt.Errorf("words: unknown unit %q", fields[i+1])
		}
		total += time.Duration(n * float64(unit))
	}
	return total, nil
}
