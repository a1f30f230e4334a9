package extract

import "notifio/internal/model"

// These nouns live in internal/model; the old names keep callers compiling
// until nouns-rewrite.sh has rewritten them.
type (
	Listing   = model.PageListing
	Selectors = model.PageSelectors
	Result    = model.PageResult
	Group     = model.Group
)

const (
	MethodSelectors = model.MethodSelectors
	MethodJSONLD    = model.MethodJSONLD
	MethodNextData  = model.MethodNextData
	MethodAppState  = model.MethodAppState
	MethodCards     = model.MethodCards
	MethodNone      = model.MethodNone
	MethodLearnt    = model.MethodLearnt
)
