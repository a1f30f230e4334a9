package model

import (
	"errors"
	"time"
)

// SearchInput is what a user gives to add or edit a search. A zero Interval means
// the default (2 minutes); empty selectors mean automatic extraction; an empty
// Cookie leaves the site's cookie unchanged.
type SearchInput struct {
	Name      string
	URL       string
	Interval  time.Duration
	Selectors PageSelectors
	Cookie    string // a Cookie header for the search's site, pasted by the user
	// Browser reads the page in the user's browser (see BrowserDefault).
	Browser bool
	// Example is one listing's title, price or link as the user's browser
	// shows it ("show me one"): a dry run derives the selectors that read the
	// list around it (DryRun.Derived). Not saved; "" = none.
	Example string
	// Filters are the search's filters (saved as given: the zero value lets
	// everything through; a dry run judges its listings by them).
	Filters Filters
}

// DryRun is the result of one poll that saves nothing ("test this search",
// `notifio check`).
type DryRun struct {
	URL        string
	Site       string
	Outcome    Outcome       // ok, challenge, rate_limited, denied, error, session_expired, unexpected_page, waiting
	Status     int           // HTTP status, 0 when nothing was fetched
	RetryAfter time.Duration // parsed Retry-After, 0 if none
	Signal     string        // the evidence that decided the outcome
	Message    string        // the outcome in plain words for the user
	Title      string        // the page's <title>, used to suggest a search name
	Method     string        // which extraction produced the listings
	Note       string        // how the page was read, for the user ("" when plain): a profile that fell back, a page cut
	NoResults  bool          // the page said it has no results
	Listings   []PageListing
	WaitUntil  time.Time // when Outcome is "waiting": when the site may be tried
	// Groups are the page's repeated lists, most listing-like first (the one
	// read marked Chosen), for the user to pick another.
	Groups []Group
	// Derived are the selectors found from SearchInput.Example (Listings are
	// then what they read); Item "" with listings: none are needed.
	Derived PageSelectors
	// ExampleProblem says, for the user, why SearchInput.Example gave no list
	// ("" when it did, or none was given); the rest is the page read as usual.
	ExampleProblem string
	// Browser is set when the page was read with a browser. BrowserTry is
	// the same page read with a browser, when plain reading found no results
	// on a page that runs scripts; BrowserNote says what differs, or why no
	// browser could try.
	Browser     bool
	BrowserTry  *DryRun
	BrowserNote string
	// Judged says, parallel to Listings, whether SearchInput.Filters let each
	// through and why not ("Test this search").
	Judged []FilterResult
}

// ErrSiteWaiting is returned (wrapped in a *WaitError) when an operation would
// fetch from a site that is backing off.
var ErrSiteWaiting = errors.New("poll: site is backing off")

// WaitError says why and until when a site cannot be checked.
type WaitError struct {
	Site  string
	Until time.Time
	// Wait is what the search waits for: WaitSite or WaitProbe.
	Wait WaitKind
	// Reason is Wait in words, as a snapshot's Reason; never parsed.
	Reason string
}

func (e *WaitError) Error() string {
	return "poll: " + e.Site + " cannot be checked yet: " + e.Reason + " (next try at " + e.Until.Format("15:04:05") + ")"
}

// Unwrap makes errors.Is(err, ErrSiteWaiting) true.
func (e *WaitError) Unwrap() error { return ErrSiteWaiting }

// SolveResult is what "Solve it in the browser" came to.
type SolveResult struct {
	// Cookies is how many of the site's cookies the window left.
	Cookies int
	// ProbeAt is when the site's next probe goes (zero when the site was
	// not waiting); ProbeNote says why it could not go at once ("" when it can).
	ProbeAt   time.Time
	ProbeNote string
}

// Default and minimum search intervals, and the per-site request gap.
const (
	DefaultInterval = 2 * time.Minute
	MinInterval     = 30 * time.Second
	MaxInterval     = 7 * 24 * time.Hour
	DefaultSiteGap  = 5 * time.Second
	// BusySiteRate is the rate above which a site's searches get a warning:
	// more than one request every 15 seconds.
	BusySiteRate = 15 * time.Second
)

// SolveWindow is an open "solve it in the browser" window (poll/browser's
// Session): Done ends it as closing it would.
type SolveWindow interface {
	Done()
}
