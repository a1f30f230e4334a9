package ui

import (
	"fmt"
	"log/slog"
	"regexp"
	"strconv"
	"strings"
	"time"

	"notifio/internal/model"
	"notifio/poll/words"
)

// This file turns snapshots into the words the window shows. Everything here is a
// pure function of its arguments (the clock included), so it is tested by tables.

// searchDetail is the quieter second half of a row: when the search was last
// checked and what that found (the baseline or the last find).
func searchDetail(s model.SearchSnapshot, now time.Time) string {
	found := lastFind(s)
	// A search that goes on being checked has not stopped at a login page,
	// whatever its site's login state says: "login expired" beside "next
	// check in 0:04" read as a contradiction (issue 37, item 3).
	loginElsewhere := s.Health.Kind == model.HealthSessionExpired && s.State != model.StateAttention
	if since := words.SinceWords(s.Health, now); s.Health.Kind.NeedsUser() && since != "" && !loginElsewhere {
		found = words.HealthRowWords(s.Health) + " " + since + " · " + found
	}
	if s.LastChecked.IsZero() {
		return found
	}
	return "checked " + words.ClockWords(s.LastChecked, now) + " · " + found
}

// lastFind is what the last check found, in words that agree with the row's
// badge of listings the user has not seen.
func lastFind(s model.SearchSnapshot) string {
	switch {
	case !s.Baselined && (s.LastOutcome == "" || s.LastOutcome == "ok") &&
		s.State != model.StateWaiting && s.State != model.StateAttention:
		return "the first check records what is already there as a baseline"
	case !s.Baselined:
		return "nothing recorded yet"
	case s.LastNew > 0 && s.LastDrops > 0:
		return words.Plural(s.LastNew, "new listing", "new listings") + ", " + words.Plural(s.LastDrops, "price drop", "price drops")
	case s.LastNew > 0:
		return words.Plural(s.LastNew, "new listing", "new listings")
	case s.LastDrops > 0:
		return words.Plural(s.LastDrops, "price dropped", "prices dropped")
	case s.Unseen > 0:
		// The badge beside says "1 new": those came earlier, none since.
		return "nothing newer"
	case s.LastChecked.IsZero() || s.LastCount == s.BaselineCount:
		// A full page keeps its count as new listings push old ones off, so
		// this is a guess; the badge case above comes first.
		return "recorded " + words.Plural(s.BaselineCount, "listing", "listings") + " as a baseline"
	}
	return "no new listings"
}

// unseenWords is the badge of a row: how many new listings the user has not seen.
func unseenWords(n int) string {
	if n <= 0 {
		return ""
	}
	return fmt.Sprintf("%d new", n)
}

// intervalChoices are the intervals the add/edit dialog offers.
var intervalChoices = []time.Duration{
	30 * time.Second, time.Minute, 2 * time.Minute, 5 * time.Minute,
	10 * time.Minute, 15 * time.Minute, 30 * time.Minute, time.Hour,
}

// intervalOptions are intervalChoices as the dialog lists them.
func intervalOptions() []string {
	out := make([]string, len(intervalChoices))
	for i, d := range intervalChoices {
		out[i] = words.DurationWords(d)
	}
	return out
}

// parseInterval reads what a user typed as an interval: "2 minutes", "90 seconds",
// "1 hour", "5 min", "90s", "1m30s", or a bare number of minutes. It refuses
// intervals below model.MinInterval with a reason.
func parseInterval(text string) (time.Duration, error) {
	t := strings.ToLower(strings.TrimSpace(text))
	if t == "" {
		return 0, userError("Choose how often to check, for example “2 minutes”.")
	}
	d, err := time.ParseDuration(t)
	if err != nil {
		d, err = parseWordsDuration(t)
	}
	if err != nil {
		return 0, userError("Write how often to check like “2 minutes” or “90 seconds”.")
	}
	if d < model.MinInterval {
		return 0, userError("Notifio checks a search at most every 30 seconds, so the site does not block you. Choose 30 seconds or more.")
	}
	if d > model.MaxInterval {
		return 0, userError("Notifio checks a search at least once every 7 days. Choose 7 days or less, or pause the search instead.")
	}
	return d, nil
}

// parseWordsDuration reads "<number> <unit>" pairs such as "1 hour 30 minutes".
func parseWordsDuration(t string) (time.Duration, error) {
	fields := strings.Fields(t)
	if len(fields) == 1 {
		n, err := strconv.ParseFloat(fields[0], 64)
		if err != nil || n <= 0 {
			return 0, fmt.Errorf("ui: not a number: %q", t)
		}
		return time.Duration(n * float64(time.Minute)), nil
	}
	if len(fields)%2 != 0 {
		return 0, fmt.Errorf("ui: unreadable interval %q", t)
	}
	var total time.Duration
	for i := 0; i < len(fields); i += 2 {
		n, err := strconv.ParseFloat(strings.ReplaceAll(fields[i], ",", "."), 64)
		if err != nil || n < 0 || n > 24*60 {
			return 0, fmt.Errorf("ui: unreadable number %q", fields[i])
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
			return 0, fmt.Errorf("ui: unknown unit %q", fields[i+1])
		}
		total += time.Duration(n * float64(unit))
	}
	return total, nil
}

// userError is a message the window wrote for the user, shown as it is.
func userError(msg string) error { return &model.UserError{Msg: msg} }

// checkSearchURL validates what the user pasted as a search address, with
// the watcher's own check, and returns it trimmed, or an error that says what
// to do.
func checkSearchURL(raw string) (string, error) {
	if _, err := words.ParseSearchURL(raw); err != nil {
		return "", err
	}
	return strings.TrimSpace(raw), nil
}

// listingDetail is the second line of a listing row.
func listingDetail(price, size, rooms, location string, firstSeen, now time.Time) string {
	var parts []string
	for _, p := range []string{price, size, roomsWords(rooms), location} {
		if p = strings.TrimSpace(p); p != "" {
			parts = append(parts, p)
		}
	}
	if !firstSeen.IsZero() {
		parts = append(parts, "first seen "+words.DayAndTime(firstSeen, now))
	}
	return strings.Join(parts, " · ")
}

// roomCount is a room count as sites write it: "2", "2,5 Zi.", "3-Zimmer",
// "2 rooms", "1 - 2 Zimmer".
var roomCount = regexp.MustCompile(`^(\d+(?:[.,]\d)?)(?:\s*[-–]\s*(\d+(?:[.,]\d)?))?(?:\s*-?\s*(?:zimmer|zi\.?|rooms?|räume|raum|habitaciones|hab\.?|locali|pokoje))?\b\.?$`)

// roomsWords writes a room count in one form, "1 room", "2.5 rooms",
// "1–2 rooms", whatever the site's words; other text is left alone.
func roomsWords(rooms string) string {
	r := strings.TrimSpace(rooms)
	m := roomCount.FindStringSubmatch(strings.ToLower(r))
	if m == nil {
		return r
	}
	n := strings.ReplaceAll(m[1], ",", ".")
	if m[2] != "" {
		return n + "–" + strings.ReplaceAll(m[2], ",", ".") + " rooms"
	}
	if n == "1" {
		return "1 room"
	}
	return n + " rooms"
}

// waitWords explains why a search's site cannot be checked yet.
func waitWords(w *model.WaitError, now time.Time) string {
	reason := strings.TrimSpace(w.Reason)
	if reason == "" {
		reason = w.Site + " asked us to wait"
	}
	if w.Wait == model.WaitProbe {
		return "Notifio is checking with one search whether " + w.Site + " lets us back in. " +
			"This search follows as soon as that probe comes back."
	}
	when := "any moment now"
	if w.Until.After(now) {
		when = "at " + words.ClockTime(w.Until) + " (in " + words.Countdown(w.Until, now) + ")"
	}
	if w.Wait != model.WaitSite {
		reason = upperFirst(reason) // a site's name, which begins a site's reason, keeps its own spelling
	}
	return reason + ". Notifio tries again " + when + ". " +
		"Checking earlier would only make " + w.Site + " keep us out for longer."
}

// upperFirst capitalises the first letter of a sentence.
func upperFirst(s string) string {
	for i, r := range s {
		return strings.ToUpper(string(r)) + s[i+len(string(r)):]
	}
	return s
}

// unexpectedWords is what the window says of an error nobody worded for the
// user (a failing disk, a bug): the log has it whole.
const unexpectedWords = "Something unexpected went wrong. Notifio's log has the details."

// backendWords is an error from the watcher as the user reads it: the words
// of its *model.UserError, however wrapped. Anything else is logged whole and
// said plainly.
func backendWords(err error) string {
	if w, ok := words.UserWords(err); ok {
		return w
	}
	slog.Error("unexpected error", "err", err)
	return unexpectedWords
}
