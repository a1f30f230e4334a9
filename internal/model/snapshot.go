package model

import (
	"time"
)

// SearchState is what a search is doing now, in the words the UI and CLI show.
type SearchState string

// WaitKind is what a waiting search waits for, typed so that observers
// switch on it and never read Reason back (Reason is only words).
type WaitKind string

// SearchSnapshot is one search as observers see it. Zero times mean "not yet".
type SearchSnapshot struct {
	ID            string
	Name          string
	URL           string
	Site          string
	Interval      time.Duration
	State         SearchState
	NextCheck     time.Time // when the next check is due (or the site's wait ends)
	Wait          WaitKind  `json:",omitempty"` // what a Waiting or Attention search waits for
	Reason        string    // the reason in words (poll/words), e.g. "idealista.com is rate-limiting us"; never parsed
	LastChecked   time.Time
	LastOutcome   Outcome // ok, challenge, rate_limited, denied, error, session_expired, unexpected_page
	LastSignal    string  // the evidence behind LastOutcome, e.g. "status 429"
	LastCount     int     // listings on the page at the last successful check
	LastNew       int     // new listings found by the last successful check
	LastDrops     int     // price drops the last successful check announced
	Unseen        int     // new listings since the user last looked
	Baselined     bool
	BaselineCount int // listings recorded silently by the first successful poll
	// Health is whether the search works, with its words (health.go).
	Health Health
	// Filters are the search's filters (zero: none).
	Filters Filters `json:",omitzero"`
}

// SiteSnapshot is one site's backoff state and health as observers see it.
type SiteSnapshot struct {
	Site          string
	Waiting       bool          // the site is in backoff now
	Kind          Refusal       `json:",omitempty"` // refusal kind of the current ladder, zero when clear (JSON: its name, left out when clear)
	Rung          int           // 1-based rung on that ladder, 0 when clear
	NextProbe     time.Time     // when the site may be tried again
	ProbeInFlight bool          // a single probe is out now
	RetryAfter    time.Duration // the last Retry-After the site sent, 0 if none
	LastStatus    int           // HTTP status of the last response, 0 if none
	LastOutcome   Outcome       `json:",omitempty"` // what the last answer was: ok, challenge, denied, …
	LastSignal    string        // the evidence that decided the last outcome; words to show, never parsed
	LastRefusal   string        // path of the saved copy of the last refusal page, if any
	AvgResponse   time.Duration // smoothed: 0.7*previous + 0.3*latest
	SuccessRate   float64       // (ok+1)/(ok+fail+1)
	Searches      int           // how many searches watch this site
	NeedsLogin    bool          `json:",omitempty"` // the site's login expired: the user must log in again (its searches stop until then)
}

// SignalUnchanged is the evidence of an answer whose page is byte for byte the
// last one read (SiteSnapshot.LastSignal with LastOutcome "ok").
const SignalUnchanged = "page unchanged"

// OutboxSnapshot summarises the outbox (email and push).
type OutboxSnapshot struct {
	// Pending counts the items still to be sent, not those in Held.
	Pending int
	// Held counts the pushes waiting for their channel's quiet hours to end:
	// held on purpose, not failing.
	Held           int
	NeedsAttention int
	LastError      string // the server's words for the newest problem
	Hint           string // what the user can do about it
	// Failing are the channels with messages that need attention (health
	// alerts about them are not counted).
	Failing []ChannelFailure `json:",omitempty"`
}

// Snapshot is the whole state observers render; it is a copy, safe to keep.
type Snapshot struct {
	At       time.Time
	Searches []SearchSnapshot
	Sites    []SiteSnapshot
	Outbox   OutboxSnapshot
	Offline  bool // nothing at all was reachable at the last attempt
}

// ChannelFailure is a delivery channel whose messages need attention.
type ChannelFailure struct {
	Channel  string `json:"channel"` // "" is email, else the push channel's name
	Error    string `json:"error"`
	Hint     string `json:"hint,omitempty"`
	SearchID string `json:"search_id,omitempty"` // a search whose message is stuck
}

// HealthKind is whether a search works, in one word the window, the command
// line and the alerts all read (their words come from poll/words).
type HealthKind string

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
	// Refusal is the site's refusal ladder when blocked or failing
	// (challenge, rate_limited, denied or error), zero otherwise.
	Refusal Refusal `json:"refusal,omitempty"`
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

// The states of a search.
const (
	StateScheduled SearchState = "scheduled"       // waiting for its next check
	StateChecking  SearchState = "checking"        // a request is in flight
	StateWaiting   SearchState = "waiting"         // its site is backing off (or waiting for a probe)
	StateProbing   SearchState = "probing"         // this search is its site's single probe
	StatePaused    SearchState = "paused"          // paused by the user
	StateAttention SearchState = "needs_attention" // the user must act (session expired, page not results)
)

// The things a search can wait for.
const (
	WaitNone  WaitKind = ""      // not waiting
	WaitSite  WaitKind = "site"  // its site's pause after a refusal (the backoff)
	WaitProbe WaitKind = "probe" // another search of its site is the single probe
	WaitLogin WaitKind = "login" // the user must log in to the site again
)
