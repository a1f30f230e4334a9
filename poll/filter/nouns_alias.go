package filter

import "notifio/internal/model"

// These nouns live in internal/model; the old names keep callers compiling
// until nouns-rewrite.sh has rewritten them.
type (
	Result = model.FilterResult
)
