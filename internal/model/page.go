package model

// What extraction reads from a result page (poll/extract) and what the
// filters decide about it (poll/filter).

// PageListing is one listing found on a result page. ID is the site's own identifier
// (not yet namespaced by site); URL is absolute http(s) on the page's site.
// PriceValue, SizeValue and RoomsValue are the numbers Price, Size and Rooms
// show (a size in the unit the page writes, m² on the portals), read once by
// extraction: the filters compare these, never the text.
type PageListing struct {
	ID         string  `json:"id"`
	URL        string  `json:"url"`
	Title      string  `json:"title"`
	Price      string  `json:"price"`
	PriceValue float64 `json:"price_value"`
	Currency   string  `json:"currency"`
	Location   string  `json:"location"`
	Size       string  `json:"size"`
	SizeValue  float64 `json:"size_value"` // the number Size shows, read by ShownAmount (0 = none)
	Rooms      string  `json:"rooms"`
	RoomsValue float64 `json:"rooms_value"` // the number Rooms shows, read by ShownAmount (0 = none)
	Image      string  `json:"image"`
	Promoted   bool    `json:"promoted"`
}

// PageSelectors are user CSS selectors; when Item is set they override everything.
// Empty fields mean automatic extraction.
type PageSelectors struct {
	Item  string
	Link  string
	Title string
	Price string
}

// PageResult is what extraction found on one page.
type PageResult struct {
	// Site is the profile's site name, else the page host's registrable domain.
	Site string `json:"site"`
	// Method says what produced the listings: "profile:kleinanzeigen.de", "selectors",
	// "jsonld", "nextdata", "appstate", "cards", "learnt" (the cards of the list
	// learnt on earlier polls, MethodLearnt) or "none".
	Method   string        `json:"method"`
	Listings []PageListing `json:"listings"`
	// NoResults is true when the page carries a recognised "no results" marker.
	NoResults bool `json:"no_results"`
	// Container is true when a results container was recognised (even if empty):
	// the profile's container, the user's item selector matching, or a generic
	// strategy finding a list.
	Container bool `json:"-"`
	// Blocked is the evidence when the page looks like a bot check / captcha page
	// served instead of results (e.g. `title "Ich bin kein Roboter - ImmobilienScout24"`),
	// "" otherwise. It is only looked for when no listings were found.
	Blocked string `json:"-"`
	// Fallback names the site profile that found nothing on this page, so
	// automatic extraction was used instead ("" when none did): the profile
	// may be outdated.
	Fallback string `json:"fallback,omitempty"`
	// Note is a sentence for the user about how the page was read ("" when
	// there is nothing to say): a profile that fell back, listings cut.
	Note string `json:"note,omitempty"`
	// Structure names the result list the cards were read from and what it
	// showed (its place's hash, its count, its cards' link slots and URL
	// shapes: learnt.go; "" when the listings did not come from cards): keep
	// it with the search and pass it back as Options.Structure.
	Structure string `json:"-"`
}

// MethodLearnt is Result.Method of a page read by the result list its search
// learnt on earlier polls: the same cards the full search ("cards") would read.
const MethodLearnt = "learnt"

// Group is one repeated group of a page, as the user is shown it.
type Group struct {
	Count     int           // how many listings it holds
	Example   string        // its first listing as one line: "Helle 3-Zimmer-Wohnung · 1.150 €"
	Selectors PageSelectors // what reads it (item, link, title): save these with the search
	Chosen    bool          // the group automatic extraction reads
}

// FilterResult is the decision about one listing.
type FilterResult struct {
	// Held is why the filters hold the listing back, "" when it passes.
	Held string
	// Marks are notes about values the page did not show ("price not shown"):
	// a listing is never dropped for a value it does not give.
	Marks []string
}

// Pass reports whether the listing is let through.
func (r FilterResult) Pass() bool { return r.Held == "" }

// The values of PageResult.Method besides "profile:<site>".
const (
	MethodSelectors = "selectors" // the user's CSS selectors
	MethodJSONLD    = "jsonld"    // schema.org JSON-LD
	MethodNextData  = "nextdata"  // Next.js __NEXT_DATA__
	MethodAppState  = "appstate"  // other embedded app state (window.__INITIAL_STATE__ = {...} and the like)
	MethodCards     = "cards"     // the repeated-card heuristic
	MethodNone      = "none"      // nothing recognisable
)
