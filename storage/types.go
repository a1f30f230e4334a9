package storage

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

// OutboxItem is one digest email waiting to be (or having been) sent.
type OutboxItem struct {
	ID          uint64      `json:"id"`
	SearchID    string      `json:"search_id"`
	SearchName  string      `json:"search_name"`
	SearchURL   string      `json:"search_url"`
	Listings    []Listing   `json:"listings"`
	Created     time.Time   `json:"created"`
	MessageID   string      `json:"message_id"` // stable per item, so a resend is recognisable
	State       OutboxState `json:"state"`
	Attempts    int         `json:"attempts"`
	NextAttempt time.Time   `json:"next_attempt"`
	LastError   string      `json:"last_error,omitempty"`
	Hint        string      `json:"hint,omitempty"`
	SentAt      time.Time   `json:"sent_at,omitempty"`
}
