package ui

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"notifio/internal/model"
	"notifio/poll/words"
)

// The words of the Sites view: what a site's state means, in the user's words
// (no "backoff", "rung" or classifier evidence).

// siteTroubled reports whether a site needs the user's eye: it refused,
// waits, is being probed, or needs a login. Those cards come first.
func siteTroubled(s model.SiteSnapshot) bool {
	return s.Kind != "" || s.Waiting || s.ProbeInFlight || s.Attention != ""
}

// siteWhy says what a refusal of this kind means, how long the waits grow, and
// what the user can do; the card's headline already says which kind.
func siteWhy(s model.SiteSnapshot) string {
	var what, todo string
	k, known := model.ParseRefusal(s.Kind)
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
	if known && k == model.RefusalError && s.LastOutcome == model.OutcomeUnexpectedPage {
		what, todo = pageWhy(s) // a page, not a server fault, put it on the error ladder
		inARow = "Each such page in a row"
	}
	if !known {
		what = "The site refused us (" + strings.ReplaceAll(s.Kind, "_", " ") + ")."
	}
	if !known {
		k = model.RefusalError
	}
	return what + " " + inARow + " makes the pause longer (" + words.LadderWords(k) + "); one good answer ends it. " + todo
}

// pageWhy is siteWhy for a site whose page did not look like results: what
// it means and what the user can do.
func pageWhy(s model.SiteSnapshot) (what, todo string) {
	if words.NeedsBrowser(s.LastOutcome, s.LastSignal) {
		return "The page shows its listings only with JavaScript, which Notifio runs only when a search reads the page with a browser.",
			"Edit the site\u2019s searches, tick \u201cRead with a browser\u201d and save."
	}
	return "The page did not look like results: the site may have changed its layout, or shown a check or a login.",
		"Open the page in your browser; if the listings are there, edit the search, press Test this search and show Notifio one."
}

// siteLastResponse describes the last answer a site gave and what showed it.
func siteLastResponse(s model.SiteSnapshot) string {
	var b strings.Builder
	switch {
	case s.LastStatus == 0 && s.LastSignal == "" && s.Kind != "":
		// The wait was restored from disk; the answer that earned it was not kept.
		b.WriteString("Last answer: none since Notifio started (the pause was remembered)")
	case s.LastStatus == 0:
		b.WriteString("Last answer: none yet")
	case s.LastOutcome == "session_expired":
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

// signalWords is the evidence behind a site's last answer in plain words, ""
// when its status already says it. It goes by the answer's kind: the
// evidence itself is the classifier's, shown but never read.
func signalWords(s model.SiteSnapshot) string {
	sig := s.LastSignal
	if sig == "" || sig == "status "+strconv.Itoa(s.LastStatus) {
		return ""
	}
	switch model.Outcome(s.LastOutcome) {
	case model.OutcomeChallenge:
		return "the page was a captcha or browser check"
	case model.OutcomeDenied:
		return "the page said access is blocked"
	case model.OutcomeUnexpectedPage:
		if words.NeedsBrowser(s.LastOutcome, sig) {
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

// siteStats is the searches line of a site card: which searches it holds and
// how fast it answers.
func siteStats(s model.SiteSnapshot, names []string) string {
	var parts []string
	switch {
	case len(names) > 0:
		parts = append(parts, "Searches: "+nameList(names))
	default:
		parts = append(parts, words.Plural(s.Searches, "search", "searches"))
	}
	switch {
	case s.AvgResponse <= 0:
	case s.AvgResponse < time.Second:
		parts = append(parts, "answers quickly")
	case s.AvgResponse < 5*time.Second:
		parts = append(parts, "answers in about "+words.Plural(int(s.AvgResponse.Round(time.Second)/time.Second), "second", "seconds"))
	default:
		parts = append(parts, "answers slowly (about "+words.Plural(int(s.AvgResponse.Round(time.Second)/time.Second), "second", "seconds")+")")
	}
	// SuccessRate is smoothed ((ok+1)/(ok+fail+1)): right after a start it reads
	// "50%" for a site that has let nothing through, so it is not shown.
	return strings.Join(parts, " · ")
}

// shownNames is how many search names a site's card lists before "and N more",
// and nameRunes how long each may be: 30 long names in full would fill the card.
const (
	shownNames = 4
	nameRunes  = 40
)

// nameList lists the first names, each cut to nameRunes, and how many more.
func nameList(names []string) string {
	shown := make([]string, 0, shownNames)
	for i, n := range names {
		if i == shownNames {
			break
		}
		shown = append(shown, shortName(n, nameRunes))
	}
	out := strings.Join(shown, ", ")
	if more := len(names) - len(shown); more > 0 {
		out += fmt.Sprintf(" and %d more", more)
	}
	return out
}

// shortName cuts a name to at most n runes, ending in "…" when it was cut.
func shortName(name string, n int) string {
	r := []rune(name)
	if len(r) <= n {
		return name
	}
	return strings.TrimSpace(string(r[:n-1])) + "…"
}
