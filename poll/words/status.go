package words

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"notifio/internal/model"
)

// The words of what a search or a site is doing now: one place for the
// window's rows and Sites tab and for `notifio search list` and `notifio
// sites` (health.go says whether a search works). Each is a function of
// a snapshot and the clock, and switches on the snapshot's typed fields; none
// reads a sentence back.

// Words a snapshot's Reason is made of, and that the rows show.
const (
	NotResults = "the page did not look like results"
	// WordsNeedsBrowser is what a search of a page that shows its listings
	// only with JavaScript says (needsbrowser.go).
	WordsNeedsBrowser = "needs a browser: the page shows its listings only with JavaScript"
	// WordsLogin is what a search or site whose login expired says.
	WordsLogin = "session expired — log in again"
)

// Plural writes "1 listing" or "3 listings".
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// KindWords names a refusal kind as what the site did: "is rate-limiting
// us"; the zero kind (no refusal) "is fine".
func KindWords(k model.Refusal) string {
	switch k {
	case model.RefusalChallenge:
		return "asked for a captcha (challenge page)"
	case model.RefusalRateLimited:
		return "is rate-limiting us"
	case model.RefusalDenied:
		return "refused access"
	case model.RefusalError:
		return "had errors (server or network)"
	case 0:
		return "is fine"
	}
	return "refused us (" + strings.ReplaceAll(k.String(), "_", " ") + ")"
}

// KindReason says in plain words why a site is being left alone:
// "idealista.com is rate-limiting us".
func KindReason(site string, k model.Refusal) string {
	return site + " " + KindWords(k)
}

// ProbeWaitWords is the state of a search whose site's probe is out.
func ProbeWaitWords(site string) string { return "waiting for the probe on " + site }

// ProbingWords is the state of the search that is its site's probe.
func ProbingWords(site string) string { return "probing " + site }

// StatusWords says what a search is doing, in plain words. site is the
// search's site snapshot, or nil when the snapshot has none.
func StatusWords(s model.SearchSnapshot, site *model.SiteSnapshot, now time.Time) string {
	switch s.State {
	case model.StateChecking:
		return "checking…"
	case model.StateProbing:
		return ProbingWords(s.Site)
	case model.StatePaused:
		return "paused"
	case model.StateAttention:
		return attentionWords(s)
	case model.StateWaiting:
		return waitingWords(s, site, now)
	}
	if Retrying(s, site) {
		if site.ProbeInFlight {
			return ProbeWaitWords(s.Site)
		}
		if s.LastOutcome == model.OutcomeUnexpectedPage { // its wait is on the error ladder
			return pageWords(s) + " — trying again now"
		}
		return s.Site + " " + KindWords(site.Kind) + " — trying again now"
	}
	next := nextCheckWords(s.NextCheck, now)
	if s.LastOutcome == model.OutcomeUnexpectedPage {
		return pageWords(s) + " — " + next
	}
	return next
}

// pageWords says what was wrong with a page that did not look like results:
// it needs a browser, or it just did not.
func pageWords(s model.SearchSnapshot) string {
	if NeedsBrowser(s.LastOutcome, s.LastSignal) {
		return WordsNeedsBrowser
	}
	return NotResults
}

// waitingWords is the state of a search whose site is pausing or probing.
func waitingWords(s model.SearchSnapshot, site *model.SiteSnapshot, now time.Time) string {
	if s.Wait == model.WaitProbe || site != nil && site.ProbeInFlight && !s.NextCheck.After(now) {
		return ProbeWaitWords(s.Site)
	}
	reason := s.Reason
	switch {
	case s.Health.Kind.NeedsUser() && s.Health.Problem != "":
		reason = s.Health.Problem // the words alerts and `notifio status` use
	case s.LastOutcome == model.OutcomeUnexpectedPage:
		// The site's wait is on the "error" ladder, but "had errors" would
		// hide what the user can act on.
		reason = pageWords(s)
	case reason == "":
		reason = s.Site + " asked us to wait"
	}
	if !s.NextCheck.After(now) {
		return reason + " — trying again any moment"
	}
	return reason + " — next try in " + Countdown(s.NextCheck, now)
}

// Retrying reports whether a scheduled search's site has refused and its wait
// ran out without a good answer since: the site keeps its ladder until a check
// succeeds, so until then the search is not healthy, however near its check.
func Retrying(s model.SearchSnapshot, site *model.SiteSnapshot) bool {
	return s.State == model.StateScheduled && site != nil && site.Kind != 0 && !site.Waiting
}

// nextCheckWords is the countdown of a scheduled search.
func nextCheckWords(next, now time.Time) string {
	switch {
	case next.IsZero():
		return "first check soon"
	case !next.After(now):
		return "checking in a moment"
	}
	return "next check in " + Countdown(next, now)
}

// attentionWords says what the user must do about a search that needs them.
func attentionWords(s model.SearchSnapshot) string {
	switch {
	case s.Wait == model.WaitLogin || s.LastOutcome == model.OutcomeSessionExpired:
		return "needs attention: " + WordsLogin
	case s.LastOutcome == model.OutcomeUnexpectedPage:
		return pageWords(s)
	case s.Reason == "":
		return "needs attention"
	}
	return "needs attention: " + s.Reason
}

// SiteWords is the one-line state of a site, beside its name: the window's
// card and `notifio sites` alike. A site whose login expired says what the
// user must do (WordsLogin): not a wait, its searches stop until then.
func SiteWords(s model.SiteSnapshot, now time.Time) string {
	switch {
	case s.NeedsLogin:
		return WordsLogin
	case s.ProbeInFlight:
		return "checking now whether the site lets Notifio back in"
	case s.LastOutcome == model.OutcomeHostNotFound && s.Kind != 0:
		return "not found: no server is known by that name — check the address for a typo"
	case s.Waiting && s.NextProbe.After(now):
		if s.Rung > 1 {
			return siteKindWords(s) + " — " + ordinal(s.Rung) + " time in a row"
		}
		return siteKindWords(s)
	case s.Kind != 0:
		return "pause over after it " + siteKindWords(s) + " — the next search checks it"
	}
	return "reads normally"
}

// siteKindWords is KindWords for a site, naming a page that did not look like
// results as that: it waits on the error ladder, but "had errors (server or
// network)" beside "Last answer: fine" was a second wording of one page.
func siteKindWords(s model.SiteSnapshot) string {
	switch {
	case s.Kind == model.RefusalError && NeedsBrowser(s.LastOutcome, s.LastSignal):
		return "showed a page that needs a browser: its listings appear only with JavaScript"
	case s.Kind == model.RefusalError && s.LastOutcome == model.OutcomeUnexpectedPage:
		return "showed a page that did not look like results"
	}
	return KindWords(s.Kind)
}

// ordinal is "2nd", "3rd", "11th".
func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return strconv.Itoa(n) + suffix
}

// NextProbeWords is when a waiting site is asked again, "" for a site that is
// not waiting.
func NextProbeWords(s model.SiteSnapshot, now time.Time) string {
	switch {
	case s.ProbeInFlight:
		return "One search is asking now; the others wait for its answer."
	case s.NextProbe.IsZero() || !s.Waiting:
		return ""
	case !s.NextProbe.After(now):
		return "Notifio asks again any moment."
	}
	return fmt.Sprintf("Notifio asks again in %s (at %s).", Countdown(s.NextProbe, now), ClockTime(s.NextProbe))
}

// RetryAfterWords says how long the site itself asked Notifio to wait, or "".
func RetryAfterWords(s model.SiteSnapshot) string {
	if s.RetryAfter <= 0 {
		return ""
	}
	asked := "The site asked Notifio to wait " + DurationWords(s.RetryAfter)
	// The ladder wins when it is longer: "asks again in 6 min" beside "asked
	// to wait 2 minutes" read as Notifio not keeping to it (issue 37).
	if s.Kind.Valid() && s.Rung > 1 {
		l := model.DefaultLadders()[s.Kind]
		if len(l) > 0 && l[min(s.Rung, len(l))-1]*85/100 > s.RetryAfter {
			return asked + "; after " + strconv.Itoa(s.Rung) + " refusals in a row Notifio waits longer."
		}
	}
	return asked + "."
}
