package storage

import "time"

// Filters are a search's wishes: which listings the user wants announced, and
// which price changes. Every zero value means "no limit" / the default, so a
// search saved before filters existed lets everything through and announces
// price drops, not rises. The matching itself is poll/filter's.
type Filters struct {
	// MinPrice and MaxPrice bound the price, in the listing's own currency; 0 is
	// no bound.
	MinPrice float64 `json:"min_price,omitempty"`
	MaxPrice float64 `json:"max_price,omitempty"`
	// MinRooms and MinSize (m²) are lower bounds; 0 is none.
	MinRooms float64 `json:"min_rooms,omitempty"`
	MinSize  float64 `json:"min_size,omitempty"`
	// Include are words or phrases that must all appear in the title or the
	// location; Exclude are ones none of which may. Case and accents do not count.
	Include []string `json:"include,omitempty"`
	Exclude []string `json:"exclude,omitempty"`
	// HidePromoted holds back listings the site marks as promoted (ads).
	HidePromoted bool `json:"hide_promoted,omitempty"`
	// PriceShown holds back listings that show no price when a price bound is
	// set ("only listings that show a price"); without it they are delivered
	// and marked "price not shown".
	PriceShown bool `json:"price_shown,omitempty"`
	// NoPriceDrops turns the "price dropped" alert off (it is on by default);
	// PriceRises turns the "price went up" alert on.
	NoPriceDrops bool `json:"no_price_drops,omitempty"`
	PriceRises   bool `json:"price_rises,omitempty"`
}

// IsZero reports whether the filters let everything through.
func (f Filters) IsZero() bool {
	return f.MinPrice == 0 && f.MaxPrice == 0 && f.MinRooms == 0 && f.MinSize == 0 &&
		len(f.Include) == 0 && len(f.Exclude) == 0 && !f.HidePromoted && !f.PriceShown &&
		!f.NoPriceDrops && !f.PriceRises
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
