package model

import "time"

// Listing is one listing as stored (seen) and as carried in a digest email.
type Listing struct {
	ID         string    `json:"id"` // site-namespaced, e.g. "kleinanzeigen.de:2876543210"
	URL        string    `json:"url"`
	Title      string    `json:"title"`
	Price      string    `json:"price,omitempty"`
	PriceValue float64   `json:"price_value,omitempty"`
	Currency   string    `json:"currency,omitempty"`
	Location   string    `json:"location,omitempty"`
	Size       string    `json:"size,omitempty"`
	SizeValue  float64   `json:"size_value,omitempty"` // PageListing's; filled by a migration in older records
	Rooms      string    `json:"rooms,omitempty"`
	RoomsValue float64   `json:"rooms_value,omitempty"` // PageListing's; filled by a migration in older records
	Image      string    `json:"image,omitempty"`
	Promoted   bool      `json:"promoted,omitempty"`
	FirstSeen  time.Time `json:"first_seen"`
	// The fields below are what Notifio decided about the listing (filters.go,
	// prices.go); all are empty for a listing stored before they existed.
	Verdict
	// Prices is the price history, oldest first (the first entry is the price
	// when first seen); empty until the price first changes on an old record.
	Prices []PricePoint `json:"prices,omitempty"`
}

// Change is what happened to a listing already seen, as an alert announces it.
type Change string

// The changes. "" is a listing new to the search.
const (
	ChangePriceDrop Change = "price_drop"
	ChangePriceRise Change = "price_rise"
	ChangeRelisted  Change = "relisted"
)

// RelistAfter is how long a listing must have been gone from its search before
// its return is announced as "back on the market".
const RelistAfter = 7 * 24 * time.Hour

// Verdict is what Notifio decided about one listing: set by poll before
// CommitPoll (Held, Marks), by CommitPoll (the rest), and carried in the outbox
// for the digest's words.
type Verdict struct {
	// Held says in plain words why the search's filters hold the listing back
	// ("costs 1.200 €, more than your 1.000 €"); "" lets it through.
	Held string `json:"held,omitempty"`
	// Marks are notes the alert shows about values the page did not give
	// ("price not shown").
	Marks []string `json:"marks,omitempty"`
	// Change is what the alert announces about a listing already seen.
	Change Change `json:"change,omitempty"`
	// OldPrice is the price before a ChangePriceDrop or ChangePriceRise.
	OldPrice string `json:"old_price,omitempty"`
	// AlsoIn are the names of the user's other searches that found the listing.
	AlsoIn []string `json:"also_in,omitempty"`
	// AlsoOn are the same flat's listings on other sites.
	AlsoOn []SameFlat `json:"also_on,omitempty"`
	// SameAs is the listing on another site this one was matched to (and
	// announced with); nil when none.
	SameAs *SameFlat `json:"same_as,omitempty"`
}

// SameFlat is one listing of another site found to be the same flat.
type SameFlat struct {
	ID    string `json:"id"`
	Site  string `json:"site"`
	URL   string `json:"url"`
	Title string `json:"title"`
	// Why says in plain words why the two were matched.
	Why string `json:"why"`
}

// PricePoint is one entry of a listing's price history.
type PricePoint struct {
	At    time.Time `json:"at"`
	Price string    `json:"price"`
	Value float64   `json:"value,omitempty"`
}
