// Package decide is what one poll makes of the page it read: which listings
// are new, held back by a filter, seen before, changed in price, back on the
// market or already announced (by another search, or as the same flat on
// another site), and what is queued to be told. It runs inside the poll's one
// storage transaction (storage.SavePoll) and reads and writes only through
// Store: the store keeps what it is told, this package makes every choice.
package decide

import (
	"time"

	"notifio/internal/model"
)

// Store is one poll's transaction as plain reads and writes of one search's
// listings, the index of listings seen across searches and sites, and the
// outbox. Its methods are valid only inside that transaction; an error from a
// write aborts it (nothing of the poll is kept).
type Store interface {
	// Search is the search polled, as stored when the transaction began.
	Search() model.Search
	// Upgraded is true on the first poll since presence was tracked.
	Upgraded() bool
	// Seen and Held report whether the search has the listing delivered or held back.
	Seen(id string) bool
	Held(id string) bool
	// PresentPrice is the price the listing had on the last page read; false
	// when it was not on it.
	PresentPrice(id string) (float64, bool)
	// GoneSince is when the listing left the page; false when it did not.
	GoneSince(id string) (time.Time, bool)
	// SetPresent records l as on the page at its price now.
	SetPresent(l model.Listing) error
	// MarkGone dates the listings on the last page that are not on page.
	MarkGone(page []model.Listing, now time.Time) error
	// Record reads a listing as stored, delivered or held.
	Record(id string, held bool) (model.Listing, error)
	// PutSeen rewrites a delivered listing; PutHeld stores a held one.
	PutSeen(l model.Listing) error
	PutHeld(l model.Listing) error
	// Release moves a held listing to the delivered ones, as the newest.
	Release(l model.Listing) error
	// AddSeen stores a listing as delivered, the newest, and indexes it.
	AddSeen(l model.Listing) error
	// SeenBy is which searches recorded the listing and the outbox items that announced it.
	SeenBy(id string) (searches []string, outbox []uint64)
	// SearchNames are the names of those of ids still stored.
	SearchNames(ids []string) []string
	// FlatsAt are the listings stored at exactly this price (bounded) and
	// the search of each.
	FlatsAt(price float64) (searches []string, ls []model.Listing)
	// AmendOutbox changes listing id in those of items not sent yet.
	AmendOutbox(items []uint64, id string, change func(*model.Listing)) error
	// UpdateStored changes a listing as another search stored it.
	UpdateStored(searchID, id string, change func(*model.Listing)) error
	// Queue queues item for event once per channel that wants it.
	Queue(item model.OutboxItem, event model.Event) ([]uint64, error)
	// NoteAlerted records the outbox items that announce ls.
	NoteAlerted(ls []model.Listing, ids []uint64) error
	// MarkViewed counts every listing stored so far as looked at.
	MarkViewed() error
	// PutSearch stores the search.
	PutSearch(s model.Search) error
}
