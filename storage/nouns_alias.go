package storage

import "notifio/internal/model"

// The nouns storage persists live in internal/model; these names keep old
// callers compiling until they are rewritten (nouns-rewrite.sh).
type (
	Search      = model.Search
	Selectors   = model.Selectors
	Filters     = model.Filters
	Listing     = model.Listing
	Change      = model.Change
	Verdict     = model.Verdict
	SameFlat    = model.SameFlat
	PricePoint  = model.PricePoint
	OutboxState = model.OutboxState
	OutboxItem  = model.OutboxItem
	Event       = model.Event
	Channel     = model.Channel
	AlertState  = model.AlertState
	Alert       = model.Alert
)

const (
	ChangePriceDrop      = model.ChangePriceDrop
	ChangePriceRise      = model.ChangePriceRise
	ChangeRelisted       = model.ChangeRelisted
	RelistAfter          = model.RelistAfter
	OutboxPending        = model.OutboxPending
	OutboxSent           = model.OutboxSent
	OutboxNeedsAttention = model.OutboxNeedsAttention
	EventNewListings     = model.EventNewListings
	EventPriceDrop       = model.EventPriceDrop
	EventHealth          = model.EventHealth
)

var (
	Events      = model.Events
	ErrNotFound = model.ErrNotFound
	ErrDiskFull = model.ErrDiskFull
	ErrExists   = model.ErrExists
)
