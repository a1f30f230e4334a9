package storage

import (
	"strconv"
	"time"
)

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
	Rooms      string    `json:"rooms,omitempty"`
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

// OutboxState is where an outbox item stands.
type OutboxState string

// Outbox states. Nothing leaves the outbox unsent: an item is pending until it is
// sent, or needs the user's attention after a permanent failure.
const (
	OutboxPending        OutboxState = "pending"
	OutboxSent           OutboxState = "sent"
	OutboxNeedsAttention OutboxState = "needs_attention"
)

// OutboxItem is one digest waiting to be (or having been) sent on one
// channel: email when Channel is "", else the push channel of that name.
type OutboxItem struct {
	ID uint64 `json:"id"`
	// Channel is the push channel's name; "" is email.
	Channel string `json:"channel,omitempty"`
	// Event is what the item announces; "" is EventNewListings.
	Event      Event     `json:"event,omitempty"`
	SearchID   string    `json:"search_id"`
	SearchName string    `json:"search_name"`
	SearchURL  string    `json:"search_url"`
	Listings   []Listing `json:"listings"`
	// Alert is set on a health alert item (Event health) instead of Listings.
	Alert       *Alert      `json:"alert,omitempty"`
	Created     time.Time   `json:"created"`
	MessageID   string      `json:"message_id"` // stable per item, so a resend is recognisable
	State       OutboxState `json:"state"`
	Attempts    int         `json:"attempts"`
	NextAttempt time.Time   `json:"next_attempt"`
	LastError   string      `json:"last_error,omitempty"`
	Hint        string      `json:"hint,omitempty"`
	SentAt      time.Time   `json:"sent_at,omitempty"`
}

// CommitResult is what one CommitPoll or SavePoll recorded.
type CommitResult struct {
	// New are the listings not seen before, in page order, with FirstSeen set. On
	// a baseline poll it is empty: nothing is announced.
	New []Listing
	// Baseline is true when this was the search's first successful poll: its
	// listings were recorded silently; BaselineCount says how many.
	Baseline      bool
	BaselineCount int
	// OutboxID is the first digest queued for New (0 when nothing was queued):
	// email's when email gets it, else the first push channel's.
	OutboxID uint64
	// OutboxIDs are all the items queued for New and Changed, one per channel each.
	OutboxIDs []uint64
	// Changed are the listings seen before announced as a price change.
	Changed []Listing
	// Held is how many new listings the filters held back (recorded, not
	// announced); Merged how many were already announced by another search or
	// as the same flat on another site.
	Held, Merged int
	// SearchGone is true when the search was deleted during its poll: none of
	// its listings were recorded.
	SearchGone bool
}

// Recovery tells what Open did about a damaged or missing database, so the UI or
// CLI can tell the user (String is a ready-made sentence).
type Recovery struct {
	Reason      string    // what was wrong with the database
	DamagedPath string    // where the damaged file was moved ("" if it was missing)
	BackupPath  string    // the backup that was restored
	BackupTime  time.Time // when that backup was taken
	Rejected    []string  // newer backups that failed the check too
}

func (r *Recovery) String() string {
	if r == nil {
		return ""
	}
	s := "The database was damaged (" + r.Reason + ")"
	if r.DamagedPath == "" {
		s = "The database was missing"
	} else {
		s += "; it was moved to " + r.DamagedPath
	}
	s += ". Restored the backup of " + r.BackupTime.Local().Format("2 Jan 2006 15:04") +
		" (" + r.BackupPath + "): changes since then are lost, and listings seen since then may be announced again."
	if n := len(r.Rejected); n > 0 {
		s += " " + strconv.Itoa(n) + " newer backup(s) were damaged too."
	}
	return s
}
