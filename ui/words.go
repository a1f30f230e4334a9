package ui

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"notifio/poll"
)

// This file turns snapshots into the words the window shows. Everything here is a
// pure function of its arguments (the clock included), so it is tested by tables.

// secondsWithin is how close a countdown shows seconds. Further away it shows
// whole minutes: a seconds countdown changes every second and so costs the
// window a full frame every second (docs/PERFORMANCE.md, GUI), while nobody
// needs to know that a check 34 minutes away is 33:58 away.
const secondsWithin = 3 * time.Minute

// countdown says how long until an instant: m:ss when it is at most
// secondsWithin away, else whole minutes ("34 min", "1 h 5 min", "2 h").
// Seconds are rounded up, so a wait that is still running never reads 0:00.
// Minutes are counted as a clock counts them, from the current minute to the
// instant's minute: "in 24 min (at 14:25)" agrees with a clock showing 14:01,
// it is within a minute of the exact wait, and every minutes countdown in the
// window changes at the same instant, when the clock's minute does, so the
// window draws one frame a minute for all of them.
func countdown(until, now time.Time) string {
	d := until.Sub(now)
	if d <= secondsWithin {
		d = max(d, 0)
		secs := int64((d + time.Second - 1) / time.Second)
		return fmt.Sprintf("%d:%02d", secs/60, secs%60)
	}
	// More than secondsWithin away, so at least 3 minutes apart on the clock.
	mins := int64(until.Truncate(time.Minute).Sub(now.Truncate(time.Minute)) / time.Minute)
	h, m := mins/60, mins%60
	switch {
	case h == 0:
		return fmt.Sprintf("%d min", m)
	case m == 0:
		return fmt.Sprintf("%d h", h)
	}
	return fmt.Sprintf("%d h %d min", h, m)
}

// clockTime formats an instant as the user's wall-clock time.
func clockTime(t time.Time) string { return t.Local().Format("15:04") }

// Words used for outcomes and for search states that need the user.
const (
	wordsSessionExpired = "needs attention: session expired — log in again"
	wordsUnexpectedPage = "the page did not look like results"
	probeReasonPrefix   = "waiting for the probe"
)

// searchStatus says what a search is doing, in plain words. site is the search's
// site snapshot, or nil when the snapshot has none.
func searchStatus(s poll.SearchSnapshot, site *poll.SiteSnapshot, now time.Time) string {
	switch s.State {
	case poll.StateChecking:
		return "checking…"
	case poll.StateProbing:
		return "probing " + s.Site
	case poll.StatePaused:
		return "paused"
	case poll.StateAttention:
		return attentionWords(s)
	case poll.StateWaiting:
		probe := strings.HasPrefix(s.Reason, probeReasonPrefix) ||
			(site != nil && site.ProbeInFlight && !s.NextCheck.After(now))
		if probe {
			return "waiting for the probe on " + s.Site
		}
		reason := s.Reason
		switch {
		case s.Health.Kind.NeedsUser() && s.Health.Problem != "":
			reason = s.Health.Problem // the words alerts and `notifio status` use
		case s.LastOutcome == "unexpected_page":
			// The site's wait is on the "error" ladder, but "had errors" would
			// hide what the user can act on.
			reason = wordsUnexpectedPage
		case reason == "":
			reason = s.Site + " asked us to wait"
		}
		if !s.NextCheck.After(now) {
			return reason + " — trying again any moment"
		}
		return reason + " — next try in " + countdown(s.NextCheck, now)
	}
	if retrying(s, site) {
		if site.ProbeInFlight {
			return "waiting for the probe on " + s.Site
		}
		return s.Site + " " + kindWords(site.Kind) + " — trying again now"
	}
	next := nextCheckWords(s.NextCheck, now)
	if s.LastOutcome == "unexpected_page" || s.Reason == wordsUnexpectedPage {
		return wordsUnexpectedPage + " — " + next
	}
	return next
}

// retrying reports whether a scheduled search's site has refused and its wait
// ran out without a good answer since: the site keeps its ladder until a check
// succeeds, so until then the search is not healthy, however near its check.
func retrying(s poll.SearchSnapshot, site *poll.SiteSnapshot) bool {
	return s.State == poll.StateScheduled && site != nil && site.Kind != "" && !site.Waiting
}

// nextCheckWords is the countdown of a scheduled search.
func nextCheckWords(next, now time.Time) string {
	switch {
	case next.IsZero():
		return "first check soon"
	case !next.After(now):
		return "checking in a moment"
	}
	return "next check in " + countdown(next, now)
}

// attentionWords says what the user must do about a search that needs them.
func attentionWords(s poll.SearchSnapshot) string {
	switch {
	case s.LastOutcome == "session_expired":
		return wordsSessionExpired
	case s.LastOutcome == "unexpected_page" || s.Reason == wordsUnexpectedPage:
		return wordsUnexpectedPage
	case s.Reason == "":
		return "needs attention"
	case strings.HasPrefix(s.Reason, "needs attention"):
		return s.Reason
	}
	return "needs attention: " + s.Reason
}

// searchDetail is the quieter second half of a row: when the search was last
// checked and what that found (the baseline or the last find).
func searchDetail(s poll.SearchSnapshot, now time.Time) string {
	found := lastFind(s)
	if since := s.Health.SinceWords(now); s.Health.Kind.NeedsUser() && since != "" {
		found = s.Health.Kind.Words() + " " + since + " · " + found
	}
	if s.LastChecked.IsZero() {
		return found
	}
	at := clockTime(s.LastChecked)
	if y, m, d := s.LastChecked.Local().Date(); y != now.Local().Year() || m != now.Local().Month() || d != now.Local().Day() {
		at = s.LastChecked.Local().Format("2 Jan 15:04")
	}
	return "checked " + at + " · " + found
}

// lastFind is what the last check found, in words that agree with the row's
// badge of listings the user has not seen.
func lastFind(s poll.SearchSnapshot) string {
	switch {
	case !s.Baselined && (s.LastOutcome == "" || s.LastOutcome == "ok") &&
		s.State != poll.StateWaiting && s.State != poll.StateAttention:
		return "the first check records what is already there as a baseline"
	case !s.Baselined:
		return "nothing recorded yet"
	case s.LastNew > 0:
		return plural(s.LastNew, "new listing", "new listings")
	case s.Unseen > 0:
		// The badge beside says "1 new": those came earlier, none since.
		return "nothing newer"
	case s.LastChecked.IsZero() || s.LastCount == s.BaselineCount:
		// A full page keeps its count as new listings push old ones off, so
		// this is a guess; the badge case above comes first.
		return "recorded " + plural(s.BaselineCount, "listing", "listings") + " as a baseline"
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

// plural writes "1 listing" or "3 listings".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// kindWords names a refusal kind as a user reads it.
func kindWords(kind string) string {
	switch kind {
	case "challenge":
		return "asked for a captcha (challenge page)"
	case "rate_limited":
		return "is rate-limiting us"
	case "denied":
		return "refused access"
	case "error":
		return "had errors (server or network)"
	case "":
		return "is fine"
	}
	return "refused us (" + strings.ReplaceAll(kind, "_", " ") + ")"
}

// humanDuration writes a duration the way people say it: "90 seconds", "5 minutes",
// "1 hour 30 minutes".
func humanDuration(d time.Duration) string {
	d = d.Round(time.Second)
	switch {
	case d < time.Minute || d%time.Minute != 0 && d < 10*time.Minute:
		return plural(int(d/time.Second), "second", "seconds")
	case d < time.Hour:
		return plural(int(d/time.Minute), "minute", "minutes")
	}
	h, m := int(d/time.Hour), int(d%time.Hour/time.Minute)
	if m == 0 {
		return plural(h, "hour", "hours")
	}
	return plural(h, "hour", "hours") + " " + plural(m, "minute", "minutes")
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
		out[i] = humanDuration(d)
	}
	return out
}

// parseInterval reads what a user typed as an interval: "2 minutes", "90 seconds",
// "1 hour", "5 min", "90s", "1m30s", or a bare number of minutes. It refuses
// intervals below poll.MinInterval with a reason.
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
	if d < poll.MinInterval {
		return 0, userError("Notifio checks a search at most every 30 seconds, so the site does not block you. Choose 30 seconds or more.")
	}
	if d > poll.MaxInterval {
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

// userError is a message written for the user, shown as it is.
type userError string

func (e userError) Error() string { return string(e) }

// checkSearchURL validates what the user pasted as a search address and returns
// it trimmed, or an error that says what to do.
func checkSearchURL(raw string) (string, error) {
	s := strings.TrimSpace(raw)
	if s == "" {
		return "", userError("Paste the address of a search results page (copy it from your browser's address bar).")
	}
	u, err := url.Parse(s)
	if err != nil {
		return "", userError("That does not look like a web address. Copy the whole address from your browser's address bar; it starts with https://.")
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
	case "":
		return "", userError("The address must start with https:// (or http://). Copy the whole address from your browser's address bar.")
	default:
		return "", userError(fmt.Sprintf("Notifio can only watch web pages (addresses starting with https:// or http://), not %q addresses.", u.Scheme+":"))
	}
	if u.Hostname() == "" {
		return "", userError("The address has no website name after https://. Copy the whole address from your browser's address bar.")
	}
	return s, nil
}

// suggestName suggests a search name for a results page: its title without
// the portal's name ("Wohnung mieten in Berlin" from "Wohnung mieten in Berlin
// | kleinanzeigen.de"), or, when the title is only the portal's name or
// missing, the site and what the URL's path and filters say. Only for results:
// a refusal page's title ("Just a moment...") names nothing the user watches.
func suggestName(title, rawURL, site string) string {
	t := strings.Join(strings.Fields(title), " ")
	for _, sep := range []string{" | ", " – ", " — ", " - "} {
		if i := strings.Index(t, sep); i > 0 {
			t = t[:i]
		}
	}
	brand := strings.ToLower(strings.SplitN(site, ".", 2)[0])
	if i := strings.Index(strings.ToLower(t), " bei "+brand); i > 0 { // "… bei immobilien.de"
		t = t[:i]
	}
	if t == "" || brand != "" && strings.EqualFold(strings.ReplaceAll(t, " ", ""), brand) {
		t = urlName(rawURL, site)
	}
	const maxRunes = 60
	if r := []rune(t); len(r) > maxRunes {
		t = strings.TrimSpace(string(r[:maxRunes])) + "…"
	}
	return t
}

// urlName is "kleinanzeigen.de: wohnung mieten, berlin, up to 1200": the site,
// the words of the URL's path (not its codes and numbers) and the limits in its
// query.
func urlName(rawURL, site string) string {
	u, err := url.Parse(rawURL)
	if err != nil || site == "" {
		return ""
	}
	var parts []string
	for _, seg := range strings.Split(u.Path, "/") {
		seg = strings.TrimSuffix(strings.TrimSuffix(seg, ".html"), ".htm")
		if seg == "" || strings.ContainsAny(seg, "0123456789") {
			continue // c203l3331, an ID or a page number
		}
		words := strings.FieldsFunc(seg, func(r rune) bool { return r == '-' || r == '_' || r == '+' })
		if len(words) > 1 && len(words[0]) == 1 {
			words = words[1:] // "s-wohnung-mieten": a site's own prefix
		}
		if len(words) > 0 {
			parts = append(parts, strings.Join(words, " "))
		}
	}
	q := u.Query()
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		v := strings.Trim(q.Get(k), ": ")
		if _, err := strconv.ParseFloat(v, 64); err != nil {
			continue
		}
		switch lk := strings.ToLower(k); {
		case strings.Contains(lk, "max") || strings.HasSuffix(lk, "bis") || strings.HasSuffix(lk, "to"):
			parts = append(parts, "up to "+v)
		case strings.Contains(lk, "min") || strings.HasSuffix(lk, "von") || strings.HasSuffix(lk, "from"):
			parts = append(parts, "from "+v)
		}
	}
	if len(parts) == 0 {
		return site
	}
	return site + ": " + strings.Join(parts, ", ")
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
		parts = append(parts, "first seen "+dayAndTime(firstSeen, now))
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

// dayAndTime writes an instant relative to now: "today 14:02", "yesterday 09:15",
// or "Mon 2 Jan 14:02".
func dayAndTime(t, now time.Time) string {
	t, now = t.Local(), now.Local()
	ty, tm, td := t.Date()
	ny, nm, nd := now.Date()
	switch {
	case ty == ny && tm == nm && td == nd:
		return "today " + t.Format("15:04")
	case t.Year() == now.AddDate(0, 0, -1).Year() && t.YearDay() == now.AddDate(0, 0, -1).YearDay():
		return "yesterday " + t.Format("15:04")
	}
	return t.Format("Mon 2 Jan 15:04")
}

// waitWords explains why a search's site cannot be checked yet.
func waitWords(w *poll.WaitError, now time.Time) string {
	reason := strings.TrimSpace(w.Reason)
	if reason == "" {
		reason = w.Site + " asked us to wait"
	}
	if strings.HasPrefix(reason, probeReasonPrefix) {
		return "Notifio is checking with one search whether " + w.Site + " lets us back in. " +
			"This search follows as soon as that probe comes back."
	}
	when := "any moment now"
	if w.Until.After(now) {
		when = "at " + clockTime(w.Until) + " (in " + countdown(w.Until, now) + ")"
	}
	if !strings.HasPrefix(reason, w.Site) {
		reason = upperFirst(reason) // a site's name keeps its own spelling
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

// backendWords is an error from the watcher as the user reads it: without the
// package prefixes meant for logs, and for a refused address just the reason.
func backendWords(err error) string {
	msg := err.Error()
	if errors.Is(err, poll.ErrBadURL) {
		msg = strings.TrimPrefix(msg, poll.ErrBadURL.Error()+": ")
	}
	for strings.HasPrefix(msg, "poll: ") {
		msg = strings.TrimPrefix(msg, "poll: ")
	}
	return msg
}

// trayHealthWords is the tray's line about the searches: all working, or
// which needs the user, in the words the alerts use.
func trayHealthWords(s poll.Snapshot) string {
	var troubled []poll.SearchSnapshot
	for _, ss := range s.Searches {
		if ss.Health.Kind.NeedsUser() {
			troubled = append(troubled, ss)
		}
	}
	switch {
	case len(s.Searches) == 0:
		return "No searches yet"
	case len(troubled) == 0:
		return "All searches are working"
	case len(troubled) == 1:
		return upperFirst(troubled[0].Name + ": " + troubled[0].Health.Problem)
	}
	return fmt.Sprintf("%d searches need you", len(troubled))
}
