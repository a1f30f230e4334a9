package model

import (
	"errors"
	"strings"
	"time"
)

// Delivery's nouns: the email settings, push channels as the user enters
// them and as lists show them, and the settings' own typed error.

// Security is how the connection to the SMTP server is protected.
type Security string

// The supported security modes.
const (
	// SecurityStartTLS connects in plain text and upgrades with STARTTLS before
	// anything else is sent; the upgrade is mandatory (usually port 587).
	SecurityStartTLS Security = "starttls"
	// SecurityTLS speaks TLS from the first byte ("implicit TLS", usually port 465).
	SecurityTLS Security = "tls"
	// SecurityNone is unencrypted and allowed only for a server on this computer
	// (a loopback address or "localhost"), e.g. a local bridge.
	SecurityNone Security = "none"
)

// Config is the user's SMTP settings. The password is not part of it: it lives in
// Secrets.
type Config struct {
	Host     string   `json:"host"`
	Port     int      `json:"port"`
	Security Security `json:"security"`
	// Username signs in with SMTP AUTH; empty means no sign-in.
	Username string `json:"username,omitempty"`
	// From is the sender address (most providers only accept the account's own).
	From string `json:"from"`
	// To is one or more recipient addresses.
	To []string `json:"to"`
	// PinnedCertSHA256 is an optional SHA-256 fingerprint (hex; colons and spaces
	// allowed) of the server's certificate. When set, exactly that certificate is
	// trusted instead of the system's certificate authorities: this is how a
	// self-signed certificate of a local bridge is trusted.
	PinnedCertSHA256 string `json:"pinned_cert_sha256,omitempty"`
	// Timeout bounds each step of a conversation with the server; 0 means
	// DefaultTimeout.
	Timeout time.Duration `json:"timeout,omitempty"`
}

// FieldError is one problem with one setting, in words for the settings form.
type FieldError struct {
	Field   string // "host", "port", "security", "username", "from", "to", "pinned_cert_sha256", "timeout"
	Problem string
}

func (e *FieldError) Error() string { return e.Problem }

// ErrNotConfigured means no SMTP server has been set up yet. The relay keeps the
// outbox untouched until it is.
var ErrNotConfigured = errors.New("email is not set up yet: enter an SMTP server in Settings › Email")

// Configured reports whether the user entered anything at all; an unconfigured
// Config is not an error, it only means email is off.
func (c Config) Configured() bool {
	return strings.TrimSpace(c.Host) != ""
}

// NewChannel is a push channel as the user describes it. Zero values: no Name
// is the service's name (numbered when taken), no Searches every search, no
// Events new listings only, no Quiet no quiet hours.
type NewChannel struct {
	Name     string
	URL      string
	Searches []string // search IDs
	Events   []Event
	Quiet    string // "23:00-07:00"
}

// ChannelState is a channel with how its pushes are doing, for lists.
type ChannelState struct {
	Channel
	// Pending counts the pushes still to be sent (not those held).
	Pending int
	// HeldUntil is when quiet hours end for pushes waiting for them; zero if none.
	HeldUntil time.Time
	// NeedsAttention counts the pushes that failed for good.
	NeedsAttention int
	// LastError and Hint are the service's words for the newest problem (a push
	// that needs attention, else one retrying) and what to do.
	LastError, Hint string
	// LastSent is when the service last accepted a push; zero if never (or
	// long enough ago that the sent item was pruned).
	LastSent time.Time
}

// HintNotSetUp is what to do when email is not set up (ErrNotConfigured, a
// FieldError of the settings).
const HintNotSetUp = "Open Settings › Email"

// DeliveryWords is a failed delivery in what the server said and what to do,
// as notify's DeliveryError gives them.
type DeliveryWords interface {
	SaidAndHint() (said, hint string)
}

// SetUpHint is the hint for an error that is not a DeliveryError: "open the
// settings" when email is not set up or a setting is wrong, "" otherwise.
func SetUpHint(err error) string {
	var fe *FieldError
	if errors.Is(err, ErrNotConfigured) || errors.As(err, &fe) {
		return HintNotSetUp
	}
	return ""
}

// SettingEmail is the settings key the email settings (Config) are stored
// under: notify writes them, storage reads their host to know whether email
// is set up.
const SettingEmail = "email"
