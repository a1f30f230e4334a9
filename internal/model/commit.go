package model

// CommitResult is what one poll recorded in its transaction (storage.SavePoll,
// decided by poll/decide).
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
