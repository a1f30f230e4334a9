package model

import (
	"slices"
	"time"
)

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

// Event is what an outbox item announces; a push channel chooses the events it
// gets.
type Event string

// The events.
const (
	EventNewListings Event = "new_listings"
	EventPriceDrop   Event = "price_drop"
	EventHealth      Event = "health"
)

// Events are all events, in the order they are offered to the user.
var Events = []Event{EventNewListings, EventPriceDrop, EventHealth}

// Channel is a push channel (ntfy, Telegram, …): where the outbox delivers
// besides email. Its service URL holds secrets and lives in the OS keyring
// (notify's Secrets); storage keeps what routing and the user's lists need.
// The zero value of an optional field means "everything": no Searches is every
// search, no Events is every event, no Quiet is no quiet hours.
type Channel struct {
	Name string `json:"name"`
	// Service is the URL scheme, e.g. "ntfy" or "telegram".
	Service string `json:"service"`
	// Display is the service URL with its secrets masked, for lists.
	Display  string   `json:"display"`
	Searches []string `json:"searches,omitempty"`
	Events   []Event  `json:"events,omitempty"`
	// Quiet is the quiet hours, "23:00-07:00" in local time (notify parses it).
	Quiet   string    `json:"quiet,omitempty"`
	Created time.Time `json:"created"`
}

// defaultEvents are what a channel that chose nothing gets: everything — new
// listings, price drops, and word when a search stops working (silence must be
// trustworthy on the phone too).
var defaultEvents = Events

// Wants reports whether the channel gets event for the search.
func (c Channel) Wants(event Event, searchID string) bool {
	events := c.Events
	if len(events) == 0 {
		events = defaultEvents
	}
	if !slices.Contains(events, event) {
		return false
	}
	return len(c.Searches) == 0 || slices.Contains(c.Searches, searchID)
}

// AlertState is one health alert's memory: a search (or a delivery channel)
// that is unhealthy, since when, and what the user has been told. It is kept
// in the database so a restart never announces the same trouble twice.
type AlertState struct {
	// Kind is the health kind of this spell (poll's HealthKind words, e.g.
	// "blocked").
	Kind string `json:"kind"`
	// Site groups searches of one site into one alert.
	Site string `json:"site,omitempty"`
	// Since is when the spell began: the first check that found it.
	Since time.Time `json:"since"`
	// AlertedAt is when the alert was queued; zero until then.
	AlertedAt time.Time `json:"alerted_at,omitempty"`
	// RemindedAt is when the last reminder was queued; zero if none.
	RemindedAt time.Time `json:"reminded_at,omitempty"`
}

// Alert is what a health alert item says, in words composed by the watcher (so
// that email, push and the desktop share one wording).
type Alert struct {
	Kind string `json:"kind"`
	Site string `json:"site,omitempty"`
	// Searches are the names of the searches it is about.
	Searches []string `json:"searches,omitempty"`
	// Subject is the one-line headline (email subject, push title).
	Subject string `json:"subject"`
	// Lines are the body's paragraphs: what happened, since when, what Notifio
	// does, what the user can do.
	Lines []string `json:"lines"`
	// Link is the page to open (the search's results page), if any.
	Link string `json:"link,omitempty"`
	// Recovered is true for a "back to normal" message.
	Recovered bool `json:"recovered,omitempty"`
}

// QueuedAlert is one alert to queue with SaveAlerts: one item per channel
// that gets health alerts, except the channels in Skip ("" is email): trouble
