package words

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"notifio/internal/model"
)

// The words of a site's card on the Sites tab and of `notifio sites`, beside
// its headline (SiteWords, status.go): what a refusal means, the last answer,
// the site's searches. No "backoff", "rung" or classifier evidence.

// SiteTroubled reports whether a site needs the user's eye: it refused,
// waits, is being probed, or needs a login. Those cards come first and say
// why.
func SiteTroubled(s model.SiteSnapshot) bool {
	return s.Kind != 0 || s.Waiting || s.ProbeInFlight || s.NeedsLogin
}

// SiteWhy says what a refusal of this kind means, how long the waits grow, and
// what the user can do; the card's headline already says which kind.
func SiteWhy(s model.SiteSnapshot) string {
	k := s.Kind
	var what, todo string
	switch k {
	case model.RefusalChallenge:
		what = "The site showed a captcha or a browser check instead of results: it takes Notifio for a robot."
		todo = "If you can, open the site in your browser, solve the check, then press \u201cI solved it \u2014 probe now\u201d."
	case model.RefusalRateLimited:
		what = "The site said Notifio asks too often. When it names a wait, Notifio keeps to it, up to an hour."
		todo = "If this keeps happening, give this site\u2019s searches a longer interval or watch fewer of them."
	case model.RefusalDenied:
		what = "The site refused access (or showed a \u201cblocked\u201d page)."
		todo = "If it never lets up, the site does not want to be read automatically from this connection."
	default:
		what = "The site did not answer properly: a server error, a timeout or a broken connection. Being offline does not count."
		todo = "Nothing to do: this usually passes on its own."
	}
	inARow := "Each refusal in a row"
	switch {
	case k == model.RefusalError && s.LastOutcome == model.OutcomeUnexpectedPage:
		what, todo = pageWhy(s) // a page, not a server fault, put it on the error ladder
		inARow = "Each such page in a row"
	case !k.Valid(): // not one of the four: said as a refusal, waited on as an error
		what, k = "The site refused us.", model.RefusalError
	}
	return what + " " + inARow + " makes the pause longer (" + LadderWords(k) + "); one good answer ends it. " + todo
}

// pageWhy is SiteWhy for a site whose page did not look like results: what
// it means and what the user can do.
func pageWhy(s model.SiteSnapshot) (what, todo string) {
	if NeedsBrowser(s.LastOutcome, s.LastSignal) {
		return "The page shows its listings only with JavaScript, which Notifio runs only when a search reads the page with a browser.",
			"Edit the site\u2019s searches, tick \u201cRead with a browser\u201d and save."
	}
	return "The page did not look like results: the site may have changed its layout, or shown a check or a login.",
		"Open the page in your browser; if the listings are there, edit the search, press Test this search and show Notifio one."
}

// SiteLoginWhy is SiteWhy for a site whose searches stopped at its login
// page and whose last answer was that page.
const SiteLoginWhy = "The site sent Notifio to its login page. Log in again in your browser, copy the Cookie " +
	"header and paste it into one of its searches (Edit, then Advanced, then Cookie): one cookie serves all the site's searches. " +
	"Then press \u201cI logged in again \u2014 try now\u201d. Its searches stay stopped until then."

// StoppedAtLoginWhy is SiteWhy for a site that answers again while n of its
// searches still wait, stopped at its login page earlier.
func StoppedAtLoginWhy(n int) string {
	return Plural(n, "search of this site stopped", "searches of this site stopped") +
		" at its login page earlier; the site answers again. Press \u201cI logged in again \u2014 try now\u201d to check them."
}

// SiteLastAnswer describes the last answer a site gave and what showed it.
func SiteLastAnswer(s model.SiteSnapshot) string {
	var b strings.Builder
	switch {
	case s.LastStatus == 0 && s.LastSignal == "" && s.Kind != 0:
		// The wait was restored from disk; the answer that earned it was not kept.
		b.WriteString("Last answer: none since Notifio started (the pause was remembered)")
	case s.LastStatus == 0:
		b.WriteString("Last answer: none yet")
	case s.LastOutcome == model.OutcomeSessionExpired:
		// A 200 at the end of a redirect to the login page is not "fine".
		b.WriteString("Last answer: its login page")
	case s.LastOutcome == model.OutcomeUnexpectedPage:
		b.WriteString("Last answer: a page without results")
	case s.LastStatus < 300:
		b.WriteString("Last answer: fine")
	default:
		fmt.Fprintf(&b, "Last answer: refused (%d %s)", s.LastStatus, http.StatusText(s.LastStatus))
	}
	if w := signalWords(s); w != "" {
		b.WriteString(" — " + w)
	}
	return b.String()
}

// SiteEvidence is the last answer as its evidence, "Last answer: status 429,
// signal: status 429.", for `notifio sites`, whose headless reader wants the
// status and the classifier's signal as they were (the window says them in
// words: SiteLastAnswer); "" before any answer.
func SiteEvidence(s model.SiteSnapshot) string {
	if s.LastStatus == 0 && s.LastSignal == "" {
		return ""
	}
	last := fmt.Sprintf("Last answer: status %d", s.LastStatus)
	if s.LastSignal != "" {
		last += ", signal: " + s.LastSignal
	}
	return last + "."
}

// signalWords is the evidence behind a site's last answer in plain words, ""
// when its status already says it. It goes by the answer's kind: the
// evidence itself is the classifier's, shown but never read.
func signalWords(s model.SiteSnapshot) string {
	sig := s.LastSignal
	if sig == "" || sig == "status "+strconv.Itoa(s.LastStatus) {
		return ""
	}
	switch s.LastOutcome {
	case model.OutcomeSessionExpired:
		return "" // "its login page", and the card's why says where it sent Notifio
	case model.OutcomeChallenge:
		return "the page was a captcha or browser check"
	case model.OutcomeDenied:
		return "the page said access is blocked"
	case model.OutcomeUnexpectedPage:
		if NeedsBrowser(s.LastOutcome, sig) {
			return "it is built by scripts, which Notifio runs only with a browser"
		}
	case model.OutcomeOK:
		switch sig {
		case model.SignalUnchanged:
			return "the page had not changed"
		case model.SignalNoResults:
			return "the page said there are no results"
		}
		return sig + " on the page" // the classifier's count: "12 listings"
	}
	return sig
}

// SiteStats is the searches line of a site card: which searches it holds and
// how fast it answers.
func SiteStats(s model.SiteSnapshot, names []string) string {
	var parts []string
	switch {
	case len(names) > 0:
		parts = append(parts, "Searches: "+NameList(names))
	default:
		parts = append(parts, Plural(s.Searches, "search", "searches"))
	}
	secs := int(s.AvgResponse.Round(time.Second) / time.Second)
	switch {
	case s.AvgResponse <= 0:
	case s.AvgResponse < time.Second:
		parts = append(parts, "answers quickly")
	case s.AvgResponse < 5*time.Second:
		parts = append(parts, "answers in about "+Plural(secs, "second", "seconds"))
	default:
		parts = append(parts, "answers slowly (about "+Plural(secs, "second", "seconds")+")")
	}
	// SuccessRate is smoothed ((ok+1)/(ok+fail+1)): right after a start it reads
	// "50%" for a site that has let nothing through, so it is not shown.
	return strings.Join(parts, " · ")
}

// ShownNames is how many search names a site's card lists before "and N
// more", and NameRunes how long a search's name may be where it is named in
// a line: 30 long names in full would fill the card.
const (
	ShownNames = 4
	NameRunes  = 40
)

// NameList lists the first ShownNames names, each cut to NameRunes, and how
// many more.
func NameList(names []string) string {
	shown := make([]string, 0, ShownNames)
	for i, n := range names {
		if i == ShownNames {
			break
		}
		shown = append(shown, ShortName(n, NameRunes))
	}
	out := strings.Join(shown, ", ")
	if more := len(names) - len(shown); more > 0 {
		out += fmt.Sprintf(" and %d more", more)
	}
	return out
}

// ShortName cuts a name to at most n runes, ending in "…" when it was cut.
func ShortName(name string, n int) string {
	r := []rune(name)
	if len(r) <= n {
		return name
	}
	return strings.TrimSpace(string(r[:n-1])) + "…"
}

// TooEarlyWords says from when a manual probe of site is allowed, counting
// down to at.
func TooEarlyWords(site string, at, now time.Time) string {
	return "Too early: Notifio can probe " + site + " from " + ClockTime(at) + " (in " + Countdown(at, now) +
		"). Asking sooner would look like another refusal and make the wait longer."
}

// SiteLine is one site on one line, for `notifio sites`: its state in the window's words (SiteWords,
// NextProbeWords), then the evidence a headless user wants to see
// (SiteEvidence).
func SiteLine(s model.SiteSnapshot, now time.Time) string {
	parts := []string{s.Site + ": " + SiteWords(s, now) + "."}
	if w := NextProbeWords(s, now); w != "" {
		parts = append(parts, w)
	}
	if w := SiteEvidence(s); w != "" {
		parts = append(parts, w)
	}
	if w := RetryAfterWords(s); w != "" {
		parts = append(parts, w)
	}
	parts = append(parts, Plural(s.Searches, "search", "searches")+".")
	return strings.Join(parts, " ")
}
