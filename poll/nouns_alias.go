package poll

import "notifio/internal/model"

// These nouns live in internal/model; the old names keep callers compiling
// until nouns-rewrite.sh has rewritten them.
type (
	SearchInput    = model.SearchInput
	DryRun         = model.DryRun
	WaitError      = model.WaitError
	AlertSettings  = model.AlertSettings
	SolveResult    = model.SolveResult
	UserError      = model.UserError
	SearchState    = model.SearchState
	WaitKind       = model.WaitKind
	SearchSnapshot = model.SearchSnapshot
	SiteSnapshot   = model.SiteSnapshot
	OutboxSnapshot = model.OutboxSnapshot
	Snapshot       = model.Snapshot
	ChannelFailure = model.ChannelFailure
	HealthKind     = model.HealthKind
	Health         = model.Health
)

const (
	OutcomeNotSaved      = model.OutcomeNotSaved
	OutcomeHostNotFound  = model.OutcomeHostNotFound
	DefaultInterval      = model.DefaultInterval
	MinInterval          = model.MinInterval
	MaxInterval          = model.MaxInterval
	DefaultSiteGap       = model.DefaultSiteGap
	BusySiteRate         = model.BusySiteRate
	DefaultAlertAfter    = model.DefaultAlertAfter
	DefaultRemind        = model.DefaultRemind
	DefaultSummaryAt     = model.DefaultSummaryAt
	StateScheduled       = model.StateScheduled
	StateChecking        = model.StateChecking
	StateWaiting         = model.StateWaiting
	StateProbing         = model.StateProbing
	StatePaused          = model.StatePaused
	StateAttention       = model.StateAttention
	WaitNone             = model.WaitNone
	WaitSite             = model.WaitSite
	WaitProbe            = model.WaitProbe
	WaitLogin            = model.WaitLogin
	SignalUnchanged      = model.SignalUnchanged
	HealthOK             = model.HealthOK
	HealthPaused         = model.HealthPaused
	HealthBlocked        = model.HealthBlocked
	HealthNotResults     = model.HealthNotResults
	HealthSessionExpired = model.HealthSessionExpired
	HealthSiteErrors     = model.HealthSiteErrors
	HealthOffline        = model.HealthOffline
	HealthHostNotFound   = model.HealthHostNotFound
	HealthDelivery       = model.HealthDelivery
	HealthSelectorsStale = model.HealthSelectorsStale
	HealthNotSaved       = model.HealthNotSaved
)

var (
	ErrSiteWaiting = model.ErrSiteWaiting
	ErrBadURL      = model.ErrBadURL
	ErrDuplicate   = model.ErrDuplicate
)
