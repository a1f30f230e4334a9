package poll

import (
	"time"

	"notifio/hostbackoff"
	"notifio/poll/classify"
)

// HealthKind is whether a search works, in one word the window, the command
// line and the alerts all read (their words come from healthwords.go).
type HealthKind string

// The health kinds, from what the poll already records.
const (
	HealthOK             HealthKind = "ok"               // checking as planned (or not checked yet)
	HealthPaused         HealthKind = "paused"           // paused by the user: not a problem
	HealthBlocked        HealthKind = "blocked"          // the site refuses: captcha, rate limit, access denied
	HealthNotResults     HealthKind = "not_results"      // the page no longer looks like results (layout change, soft block)
	HealthSessionExpired HealthKind = "session_expired"  // the site's login expired: the user must log in again
	HealthSiteErrors     HealthKind = "site_errors"      // the site keeps failing (5xx, timeouts)
	HealthOffline        HealthKind = "offline"          // no site reachable: this computer is offline
	HealthHostNotFound   HealthKind = "host_not_found"   // the address's host does not exist (a typo, a site gone) while other sites answer
	HealthDelivery       HealthKind = "delivery_failing" // an email or push of this search needs attention
	// HealthSelectorsStale: the listings the user showed Notifio (its saved
	// selectors) find nothing any more; automatic extraction reads the page.
	HealthSelectorsStale HealthKind = "selectors_stale"
	// HealthNotSaved: the last poll's findings could not be written (a full
	// disk): until Notifio can save again, nothing new is told.
	HealthNotSaved HealthKind = "not_saved"
)

// NeedsUser reports whether the user should know: everything but ok, paused
// and offline (which the window shows, and which fixes itself).
func (k HealthKind) NeedsUser() bool {
	switch k {
	case HealthOK, HealthPaused, HealthOffline, "":
		return false
	}
	return true
}

// Health is one search's health: the kind, the evidence, since when, when
// Notifio tries again, and the words for the user.
type Health struct {
	Kind HealthKind `json:"kind"`
	// Refusal is the site's refusal ladder when blocked or failing:
	// challenge, rate_limited, denied or error.
	Refusal string `json:"refusal,omitempty"`
	// Signal is the evidence, e.g. "title: Just a moment..." or "status 429".
	Signal string `json:"signal,omitempty"`
	// Since is when this spell began (zero when healthy).
	Since time.Time `json:"since,omitzero"`
	// NextTry is when Notifio looks again (zero when it waits for the user).
	NextTry time.Time `json:"next_try,omitzero"`
	// Problem is what happened, in a sentence ("" when healthy).
	Problem string `json:"problem,omitempty"`
	// Hint is what the user can do about it.
	Hint string `json:"hint,omitempty"`
}

// healthInput is what one search's health is computed from; healthOf is a
// function of it alone, so its rules are tested without a watcher.
type healthInput struct {
	paused      bool
	offline     bool
	needsLogin  bool
	lastOutcome string // the search's last answer (classify.Kind or "offline")
	siteOutcome string // the site's last answer
	entry       *hostbackoff.Entry
	signal      string // the search's last evidence
	siteSignal  string // the site's last evidence (its probe's)
	due         time.Time
	delivery    *ChannelFailure // a channel failing for this search's items
	stale       bool            // the saved selectors found nothing at the last check
	saveErr     error           // why the last poll could not be saved (nil: it was)
	since       time.Time       // the recorded start of a spell of this kind, if any
	sinceKind   HealthKind
}

// healthOf decides a search's health, strongest first (kindOf), with the
// signal that shows why and since when.
func healthOf(in healthInput, now time.Time) Health {
	h := kindOf(in)
	if !h.Kind.NeedsUser() {
		return Health{Kind: h.Kind}
	}
	h.Signal = signalOf(in, h.Kind)
	h.Since = now
	if in.sinceKind == h.Kind && !in.since.IsZero() {
		h.Since = in.since
	}
	return h
}

// kindOf is a search's health without its signal: what needs the user
// (login) before what the site does, a site refusal before one page's
// problem, delivery last.
func kindOf(in healthInput) Health {
	h := Health{Kind: HealthOK}
	switch {
	case in.paused:
		h.Kind = HealthPaused
	case in.saveErr != nil: // nothing else counts while nothing can be kept
		h.Kind = HealthNotSaved
	case in.offline || in.lastOutcome == "offline":
		h.Kind = HealthOffline
	case in.needsLogin: // not a search's old answer: a good answer or the user clears it
		h.Kind = HealthSessionExpired
	case in.entry != nil && in.entry.Kind != hostbackoff.Error:
		h.Kind, h.Refusal, h.NextTry = HealthBlocked, in.entry.Kind.String(), in.entry.NextRetry
	case in.lastOutcome == string(classify.UnexpectedPage):
		h.Kind, h.NextTry = HealthNotResults, in.due
		if in.entry != nil {
			h.NextTry = later(in.due, in.entry.NextRetry)
		}
	case in.lastOutcome == OutcomeHostNotFound || in.entry != nil && in.siteOutcome == OutcomeHostNotFound:
		h.Kind = HealthHostNotFound
		if in.entry != nil {
			h.Refusal, h.NextTry = in.entry.Kind.String(), in.entry.NextRetry
		}
	case in.entry != nil && (in.lastOutcome == string(classify.Error) || in.siteOutcome == string(classify.Error)):
		h.Kind, h.Refusal, h.NextTry = HealthSiteErrors, in.entry.Kind.String(), in.entry.NextRetry
	case in.stale && in.lastOutcome == string(classify.OK):
		h.Kind, h.NextTry = HealthSelectorsStale, in.due
	case in.delivery != nil:
		h.Kind = HealthDelivery
	}
	return h
}

// signalOf is what shows why a search has the health kind.
func signalOf(in healthInput, kind HealthKind) string {
	switch kind {
	case HealthBlocked, HealthSiteErrors, HealthSessionExpired, HealthHostNotFound:
		return in.siteSignal // other searches of the site wait for its probe
	case HealthDelivery:
		return in.delivery.Error
	case HealthNotSaved:
		return in.saveErr.Error()
	default:
		return in.signal
	}
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
