package classify

import "notifio/internal/model"

// Kind is what a fetch came to (model.Outcome). These names keep old
// callers compiling until nouns-rewrite.sh has rewritten them.
type Kind = model.Outcome

// The outcome kinds.
const (
	OK              = model.OutcomeOK
	Challenge       = model.OutcomeChallenge
	RateLimited     = model.OutcomeRateLimited
	Denied          = model.OutcomeDenied
	Error           = model.OutcomeError
	SessionExpired  = model.OutcomeSessionExpired
	UnexpectedPage  = model.OutcomeUnexpectedPage
	SignalNoResults = model.SignalNoResults
)
