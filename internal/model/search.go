// Package model holds Notifio's nouns: what a search, a listing, a delivery
// channel, a snapshot of the watcher and the operations' inputs and results
// are. It imports nothing of Notifio: storage persists these types, the
// control API carries them, the window and the command line show them
// (CONVENTIONS.md §14, after miniflux's internal/model).
package model

import "time"

// Search is one watched search-result page. The zero value of an optional field
// means "not set": Interval 0 is the default interval, empty selectors mean
// automatic extraction, an empty CookieRef means no cookie.
type Search struct {
	ID        string        `json:"id"`
	Name      string        `json:"name"`
	URL       string        `json:"url"`
	Site      string        `json:"site"`
	Interval  time.Duration `json:"interval"`
	Paused    bool          `json:"paused"`
	Selectors Selectors     `json:"selectors"`
	// CookieRef names the per-site cookie the user pasted (settings key), if any.
	CookieRef string    `json:"cookie_ref,omitempty"`
	Created   time.Time `json:"created"`
	// Baselined is true once the first successful poll recorded the existing listings.
	Baselined     bool      `json:"baselined"`
	BaselineCount int       `json:"baseline_count"`
	LastCount     int       `json:"last_count"`
	LastPolled    time.Time `json:"last_polled"`
	// Browser reads the page in the user's browser (JavaScript-only portals);
	// false, and absent in searches saved before it, is a plain fetch.
	Browser bool `json:"browser,omitempty"`
	// Filters say which listings the user wants (filters.go); the zero value
	// lets every listing through.
	Filters Filters `json:"filters,omitzero"`
}

// Selectors are the user's CSS selectors that override automatic extraction.
type Selectors struct {
	Item  string `json:"item,omitempty"`
	Link  string `json:"link,omitempty"`
	Title string `json:"title,omitempty"`
	Price string `json:"price,omitempty"`
}

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
