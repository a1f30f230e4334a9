package notify

import "notifio/internal/model"

// These nouns live in internal/model; the old names keep callers compiling
// until nouns-rewrite.sh has rewritten them.
type (
	Preset       = model.Preset
	Security     = model.Security
	Config       = model.Config
	FieldError   = model.FieldError
	NewChannel   = model.NewChannel
	ChannelState = model.ChannelState
)

const (
	DefaultTimeout   = model.DefaultTimeout
	SecurityStartTLS = model.SecurityStartTLS
	SecurityTLS      = model.SecurityTLS
	SecurityNone     = model.SecurityNone
)

var (
	ErrNotConfigured = model.ErrNotConfigured
	Presets          = model.Presets
	PresetFor        = model.PresetFor
	IsLoopbackHost   = model.IsLoopbackHost
)

// Quiet hours are model's.
type Quiet = model.Quiet

var (
	ParseQuiet   = model.ParseQuiet
	HeldForQuiet = model.HeldForQuiet
)
