package hostbackoff

import "notifio/internal/model"

// Kind is the kind of refusal a site answered with (model.Refusal). Each kind
// has its own ladder. These names keep old callers compiling until
// nouns-rewrite.sh has rewritten them.
type Kind = model.Refusal

// The refusal kinds.
const (
	Challenge   = model.RefusalChallenge
	RateLimited = model.RefusalRateLimited
	Denied      = model.RefusalDenied
	Error       = model.RefusalError
)

// Kinds and ParseKind are model's.
var (
	Kinds     = model.Refusals
	ParseKind = model.ParseRefusal
)

// SiteOf is model's: the one definition of a site.
var SiteOf = model.SiteOf
