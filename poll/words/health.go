package words

import (
	"fmt"
	"strings"
	"time"

	"notifio/internal/model"
)

// The words of health: one place for what the window, the command line and
// the alerts say about a search that stopped working.

// Describe fills in the Problem and Hint of h for a search of site.
func Describe(h *model.Health, site string) {
	switch h.Kind {
	case model.HealthBlocked:
		h.Problem, h.Hint = blockedWords(site, h.Refusal)
	case model.HealthNotResults:
		if h.Signal == SignalNeedsBrowser {
			h.Problem = WordsNeedsBrowser
			h.Hint = "Edit the search, tick \"Read with a browser\" and save (on the command line: notifio search edit ID --browser): " +
				"Notifio then reads the page in your own Chrome, Chromium, Edge or Brave, unseen."
			return
		}
		h.Problem = NotResults
		h.Hint = "Open the page in your browser. If you see a check or a login, solve it, then press Check now. " +
			"If the listings are there, the site changed its layout: in Edit, press Test this search and use " +
			"\"Not these? Show me one\"."
	case model.HealthSessionExpired:
		h.Problem = "the login for " + site + " has expired"
		h.Hint = "Log in to " + site + " in your browser and copy the new cookie. Give it to any search of " + site +
			": in the window, Edit → Cookie, then save; on the command line, notifio search edit ID --cookie 'COOKIE'. " +
			"The cookie is one per site: all searches of " + site + " use it. Notifio does not check " + site +
			" until then (notifio once asks it once)."
	case model.HealthHostNotFound:
		h.Problem = site + " was not found: no server is known by that name"
		h.Hint = "Check the search's address for a typo (notifio search list shows it) and correct it in Edit, " +
			"or with notifio search edit ID --url URL. Other sites answer, so this computer is online. " +
			"If the address is right, the site may be gone. Notifio keeps trying less and less often."
	case model.HealthSiteErrors:
		h.Problem = site + " keeps failing"
		h.Hint = "Nothing to do yet: Notifio keeps trying. If it lasts, open the page in your browser to see " +
			"whether the site is down."
	case model.HealthSelectorsStale:
		h.Problem = "the listings you showed Notifio no longer fit the page"
		h.Hint = "Edit the search, press Test this search and show Notifio one listing again " +
			"(or clear the selectors under Advanced). Until then Notifio reads the page by itself."
	case model.HealthNotSaved:
		h.Problem = "Notifio could not save what it found"
		if strings.Contains(h.Signal, model.ErrDiskFull.Error()) { // the words storage wraps it in
			h.Problem = "Notifio could not save what it found: the disk holding its data is full"
		}
		h.Hint = "Free some space on the disk that holds Notifio's data. Nothing is lost: what this check found " +
			"counts as new at the next check that can be saved."
	case model.HealthDelivery:
		h.Problem = "alerts for this search are not going out"
		h.Hint = "See Settings: fix the email or push settings, then send a test."
	}
}

// blockedWords: the problem in the words the Sites tab and the countdowns use
// (KindReason), and what the user can do about that kind.
func blockedWords(site string, k model.Refusal) (problem, hint string) {
	problem = KindReason(site, k)
	switch k {
	case model.RefusalChallenge:
		return problem, "Open the search in your browser and solve the check, then press \"I solved it — probe now\" " +
			"on the Sites tab. Checking less often helps too."
	case model.RefusalRateLimited:
		return problem, "Nothing to do: Notifio waits as long as the site asks. A longer interval for its searches helps."
	}
	return problem, "Open the search in your browser: if it refuses you too, the site may be blocking your network. " +
		"Notifio keeps trying less and less often."
}

// Doing says what Notifio does about h, at now.
func HealthDoing(h model.Health, now time.Time) string {
	switch {
	case h.Kind == model.HealthSessionExpired:
		return "Notifio waits for you to log in again."
	case h.Kind == model.HealthDelivery:
		return "Notifio keeps the messages and sends them once the settings work."
	case h.Kind == model.HealthSelectorsStale:
		return "Notifio reads the page by itself meanwhile, so new listings still come."
	case !h.NextTry.IsZero() && h.NextTry.After(now):
		return "Notifio tries again at " + ClockWords(h.NextTry, now) + "."
	case !h.NextTry.IsZero():
		return "Notifio is trying again now."
	}
	return ""
}

// SinceWords is "since 13:05 (1 h 10 min)".
func SinceWords(h model.Health, now time.Time) string {
	if h.Since.IsZero() {
		return ""
	}
	return "since " + ClockWords(h.Since, now) + " (" + SpanWords(now.Sub(h.Since)) + ")"
}

// AlertSubject is the headline of an alert about searches (names) of one
// site, or about a delivery channel.
func AlertSubject(h model.Health, site string, names []string, reminder bool) string {
	about := quoteNames(names)
	var s string
	switch h.Kind {
	case model.HealthSessionExpired:
		s = "Log in again: " + about + " stopped (the login for " + site + " expired)"
	case model.HealthNotResults:
		s = about + " stopped: the page no longer shows results"
		if h.Signal == SignalNeedsBrowser {
			s = about + " " + WordsNeedsBrowser
		}
	case model.HealthDelivery:
		s = "Notifio cannot deliver: " + h.Problem
	case model.HealthSelectorsStale:
		s = about + ": " + h.Problem
	default:
		s = about + " stopped: " + h.Problem
	}
	if reminder {
		s = "Still not working — " + s
	}
	return s
}

// AlertLines are an alert's paragraphs: what, since when, what Notifio does,
// what the user can do.
func AlertLines(h model.Health, site string, names []string, now time.Time) []string {
	what := "Notifio cannot check " + quoteNames(names) + " on " + site + ": " + h.Problem + "."
	switch h.Kind {
	case model.HealthDelivery:
		what = h.Problem + "."
	case model.HealthSelectorsStale:
		what = "On " + site + ", " + h.Problem + " of " + quoteNames(names) + "."
	}
	if h.Signal != "" {
		what += " (What it saw: " + h.Signal + ".)"
	}
	lines := []string{what}
	if !h.Since.IsZero() {
		lines = append(lines, "This has lasted "+SpanWords(now.Sub(h.Since))+", since "+ClockWords(h.Since, now)+".")
	}
	if d := HealthDoing(h, now); d != "" {
		lines = append(lines, d)
	}
	return append(lines, "What you can do: "+h.Hint)
}

// RecoveryLines say searches of site work again and what came in with them.
func RecoveryLines(site string, names []string, since time.Time, newCount int, now time.Time) (string, []string) {
	about := quoteNames(names)
	if len(names) == 0 {
		about = site // a delivery channel
	}
	subject := "Back to normal: " + about
	again := " works again. It had stopped at "
	if len(names) > 1 { // “A”, “B” and “C” work again
		again = " work again. They had stopped at "
	}
	lines := []string{about + again + ClockWords(since, now) + ", " +
		SpanWords(now.Sub(since)) + " ago."}
	switch {
	case len(names) == 0:
	case newCount == 0:
		lines = append(lines, "No new listings arrived since.")
	case newCount == 1:
		lines = append(lines, "1 new listing arrived since; it comes in its own message.")
	default:
		lines = append(lines, fmt.Sprintf("%d new listings arrived since; they come in their own message.", newCount))
	}
	return subject, lines
}

// quoteNames is "“Kreuzberg”", "“A” and “B”" or "“A”, “B” and 3 more".
func quoteNames(names []string) string {
	q := make([]string, 0, len(names))
	for _, n := range names {
		q = append(q, "“"+n+"”")
	}
	switch {
	case len(q) == 0:
		return "a search"
	case len(q) == 1:
		return q[0]
	case len(q) <= 3:
		return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
	}
	return strings.Join(q[:2], ", ") + fmt.Sprintf(" and %d more", len(q)-2)
}

// HealthRowWords is the health in a word or two, for a row: its kind's, or
// what the status beside it says ("needs a browser", "rate-limited").
func HealthRowWords(h model.Health) string {
	switch {
	case h.Kind == model.HealthNotResults && h.Signal == SignalNeedsBrowser:
		return "needs a browser"
	case h.Kind == model.HealthBlocked && h.Refusal == model.RefusalRateLimited:
		// beside "… is rate-limiting us", "blocked since" read as a second state
		return "rate-limited"
	case h.Kind == model.HealthBlocked && h.Refusal == model.RefusalChallenge:
		return "captcha"
	}
	return HealthWords(h.Kind)
}

// Words is the kind in a word or two, for a row or a list: "blocked",
// "login expired".
func HealthWords(k model.HealthKind) string {
	switch k {
	case model.HealthNotResults:
		return "no results"
	case model.HealthSessionExpired:
		return "login expired"
	case model.HealthSiteErrors:
		return "site failing"
	case model.HealthHostNotFound:
		return "host not found"
	case model.HealthDelivery:
		return "messages not going out"
	case model.HealthSelectorsStale:
		return "your choice no longer fits"
	case model.HealthNotSaved:
		return "not saved"
	}
	return string(k)
}

// Line is the health in one line, for a list: "ok", or the problem, since
// when and what Notifio does.
func HealthLine(h model.Health, now time.Time) string {
	switch h.Kind {
	case model.HealthOK, "":
		return "ok"
	case model.HealthPaused:
		return "paused"
	case model.HealthOffline:
		return "offline: no site reachable"
	}
	line := h.Problem
	if s := SinceWords(h, now); s != "" {
		line += " " + s
	}
	if d := HealthDoing(h, now); d != "" {
		line += ". " + d
	}
	return line
}

// ChannelProblem is "Emails are not going out", "Pushes to “phone” are not
// going out" ("" is email).
func ChannelProblem(channel string) string {
	return ChannelWords(channel) + " are not going out"
}

// ChannelWords names a delivery channel for the user: "Emails", "Pushes to “phone”".
func ChannelWords(channel string) string {
	if channel == "" {
		return "Emails"
	}
	return "Pushes to “" + channel + "”"
}
