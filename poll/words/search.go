package words

import (
	"fmt"
	"strings"
	"time"

	"notifio/internal/model"
)

// The words of a search's row beside its state (StatusWords, status.go): what
// its last check found, its badge, and why it cannot be checked yet.

// SearchDetail is the quieter second half of a row: when the search was last
// checked and what that found (the baseline or the last find).
func SearchDetail(s model.SearchSnapshot, now time.Time) string {
	found := lastFind(s)
	// A search that goes on being checked has not stopped at a login page,
	// whatever its site's login state says: "login expired" beside "next
	// check in 0:04" read as a contradiction (issue 37, item 3).
	loginElsewhere := s.Health.Kind == model.HealthSessionExpired && s.State != model.StateAttention
	if since := SinceWords(s.Health, now); s.Health.Kind.NeedsUser() && since != "" && !loginElsewhere {
		found = HealthRowWords(s.Health) + " " + since + " · " + found
	}
	if s.LastChecked.IsZero() {
		return found
	}
	return "checked " + ClockWords(s.LastChecked, now) + " · " + found
}

// lastFind is what the last check found, in words that agree with the row's
// badge of listings the user has not seen.
func lastFind(s model.SearchSnapshot) string {
	switch {
	case !s.Baselined && (s.LastOutcome == "" || s.LastOutcome == model.OutcomeOK) &&
		s.State != model.StateWaiting && s.State != model.StateAttention:
		return "the first check records what is already there as a baseline"
	case !s.Baselined:
		return "nothing recorded yet"
	case s.LastNew > 0 && s.LastDrops > 0:
		return Plural(s.LastNew, "new listing", "new listings") + ", " + Plural(s.LastDrops, "price drop", "price drops")
	case s.LastNew > 0:
		return Plural(s.LastNew, "new listing", "new listings")
	case s.LastDrops > 0:
		return Plural(s.LastDrops, "price dropped", "prices dropped")
	case s.Unseen > 0:
		// The badge beside says "1 new": those came earlier, none since.
		return "nothing newer"
	case s.LastChecked.IsZero() || s.LastCount == s.BaselineCount:
		// A full page keeps its count as new listings push old ones off, so
		// this is a guess; the badge case above comes first.
		return "recorded " + Plural(s.BaselineCount, "listing", "listings") + " as a baseline"
	}
	return "no new listings"
}

// UnseenWords is the badge of a row: how many new listings the user has not
// seen, "" for none.
func UnseenWords(n int) string {
	if n <= 0 {
		return ""
	}
	return fmt.Sprintf("%d new", n)
}

// WaitWords explains why a search's site cannot be checked yet, when the
// user asked to check it now.
func WaitWords(w *model.WaitError, now time.Time) string {
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
		when = "at " + ClockTime(w.Until) + " (in " + Countdown(w.Until, now) + ")"
	}
	if w.Wait != model.WaitSite {
		reason = UpperFirst(reason) // a site's name, which begins a site's reason, keeps its own spelling
	}
	return reason + ". Notifio tries again " + when + ". " +
		"Checking earlier would only make " + w.Site + " keep us out for longer."
}

// UpperFirst capitalises the first letter of a sentence, for words that
// begin one after being written to follow a colon.
func UpperFirst(s string) string {
	for i, r := range s {
		return strings.ToUpper(string(r)) + s[i+len(string(r)):]
	}
	return s
}
