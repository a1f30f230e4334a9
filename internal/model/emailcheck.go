package model

import (
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/mail"
	"strings"
	"time"
	"unicode"
)

// The email settings' presets and checks: what the settings form offers and
// what it says about what the user typed, for the window, the command line
// and the watcher alike.

// DefaultTimeout bounds each step of talking to the SMTP server (connect,
// greeting, each command) when Config.Timeout is zero.
const DefaultTimeout = 30 * time.Second

// Preset is a provider's known SMTP settings and what the user should know about
// signing in there.
type Preset struct {
	Name     string
	Host     string
	Port     int
	Security Security
	// Hint is shown next to the settings form.
	Hint string
}

// Presets are the providers offered in the settings form. The last one, Custom,
// has no server and leaves everything to the user.
var Presets = []Preset{
	{
		Name: "Gmail", Host: "smtp.gmail.com", Port: 587, Security: SecurityStartTLS,
		Hint: "Use an app password, not your Google password: Google account › Security › " +
			"2-Step Verification › App passwords. The username is your full Gmail address.",
	},
	{
		Name: "Outlook / Office 365", Host: "smtp.office365.com", Port: 587, Security: SecurityStartTLS,
		Hint: "SMTP AUTH must be enabled for the mailbox (Microsoft 365 admin center › Users › " +
			"Active users › Mail › Manage email apps › Authenticated SMTP). The username is your full address.",
	},
	{
		Name: "Fastmail", Host: "smtp.fastmail.com", Port: 465, Security: SecurityTLS,
		Hint: "Create an app password with SMTP access: Settings › Privacy & Security › App passwords. " +
			"The username is your full Fastmail address.",
	},
	{
		Name: "iCloud", Host: "smtp.mail.me.com", Port: 587, Security: SecurityStartTLS,
		Hint: "Use an app-specific password: appleid.apple.com › Sign-In and Security › App-Specific " +
			"Passwords. The username is your iCloud address.",
	},
	{
		Name: "Outlook.com", Host: "smtp-mail.outlook.com", Port: 587, Security: SecurityStartTLS,
		Hint: "For a personal Outlook.com or Hotmail address. With two-step verification on, use an app " +
			"password: account.microsoft.com › Security › Advanced security options › App passwords. " +
			"Microsoft is phasing out passwords for SMTP; if yours is refused, use another provider.",
	},
	{
		Name: "GMX", Host: "mail.gmx.net", Port: 587, Security: SecurityStartTLS,
		Hint: "Allow sending from other programs first: GMX web mail › Settings › POP3 & IMAP › " +
			"allow access. The username is your GMX address.",
	},
	{
		Name: "WEB.DE", Host: "smtp.web.de", Port: 587, Security: SecurityStartTLS,
		Hint: "Allow sending from other programs first: WEB.DE web mail › Settings › POP3/IMAP › " +
			"allow access. The username is your WEB.DE address.",
	},
	{
		Name: "T-Online", Host: "securesmtp.t-online.de", Port: 465, Security: SecurityTLS,
		Hint: "Use your email password (set in the Telekom E-Mail Center › Settings › Passwords), " +
			"not your Telekom login. The username is your t-online.de address.",
	},
	{
		Name: "Yahoo", Host: "smtp.mail.yahoo.com", Port: 465, Security: SecurityTLS,
		Hint: "Use an app password: Yahoo account › Account security › Generate app password. " +
			"The username is your full Yahoo address.",
	},
	{
		Name: "Custom",
		Hint: "Port 465 uses TLS, 587 uses STARTTLS. Security \"none\" is only allowed for a server on " +
			"this computer (e.g. a mail bridge); for a bridge with a self-signed certificate, pin its " +
			"SHA-256 fingerprint instead.",
	},
}

// PresetFor returns the preset whose server is host (case-insensitive), if any.
func PresetFor(host string) (Preset, bool) {
	host = NormalizeHost(host)
	for _, p := range Presets {
		if p.Host != "" && p.Host == host {
			return p, true
		}
	}
	return Preset{}, false
}

// Validate checks the settings and returns every problem found (joined), each a
// *FieldError in words a user can act on, or nil.
func (c Config) Validate() error {
	var p problems
	c.checkServer(&p)
	c.checkSecurity(&p)
	c.checkAddresses(&p)
	if c.PinnedCertSHA256 != "" {
		if _, err := ParseFingerprint(c.PinnedCertSHA256); err != nil {
			p.add("pinned_cert_sha256", "The pinned certificate fingerprint must be a SHA-256 fingerprint: 64 hex digits (colons allowed).")
		}
	}
	if c.Timeout < 0 {
		p.add("timeout", "The timeout must not be negative.")
	}
	return errors.Join(p...)
}

// problems collects what Validate found, one *FieldError each.
type problems []error

func (p *problems) add(field, format string, args ...any) {
	*p = append(*p, &FieldError{Field: field, Problem: fmt.Sprintf(format, args...)})
}

// checkServer checks the server's name and port.
func (c Config) checkServer(p *problems) {
	host := NormalizeHost(c.Host)
	switch {
	case host == "":
		p.add("host", "Enter the SMTP server, e.g. smtp.gmail.com.")
	case strings.Contains(host, "://") || strings.ContainsAny(host, "/ @") || strings.ContainsFunc(host, unicode.IsControl):
		p.add("host", "The SMTP server must be a host name like smtp.example.com, without \"smtp://\", a path or spaces.")
	case net.ParseIP(strings.Trim(host, "[]")) == nil && !validHostname(host):
		p.add("host", "%q is not a valid server name.", SanitizeLine(c.Host, 80))
	}
	switch {
	case c.Port == 0:
		p.add("port", "Enter the port: 587 for STARTTLS or 465 for TLS.")
	case c.Port < 1 || c.Port > 65535:
		p.add("port", "The port must be between 1 and 65535 (usually 587 or 465).")
	}
}

// checkSecurity checks the security against the port and the server.
func (c Config) checkSecurity(p *problems) {
	switch c.Security {
	case SecurityStartTLS:
		if c.Port == 465 {
			p.add("security", "Port 465 uses TLS, 587 uses STARTTLS: choose security \"tls\" for port 465.")
		}
	case SecurityTLS:
		if c.Port == 587 || c.Port == 25 {
			p.add("security", "Port 465 uses TLS, 587 uses STARTTLS: choose security \"starttls\" for port %d.", c.Port)
		}
	case SecurityNone:
		if host := NormalizeHost(c.Host); host != "" && !IsLoopbackHost(host) {
			p.add("security", "Security \"none\" would send your mail unencrypted over the network; it is only "+
				"allowed for a server on this computer (localhost). Choose \"starttls\" (port 587) or \"tls\" (port 465).")
		}
	case "":
		p.add("security", "Choose the security: \"starttls\" (port 587) or \"tls\" (port 465).")
	default:
		p.add("security", "Unknown security %q: choose \"starttls\", \"tls\" or \"none\".", SanitizeLine(string(c.Security), 20))
	}
}

// checkAddresses checks the username, the sender and the recipients.
func (c Config) checkAddresses(p *problems) {
	if strings.ContainsFunc(c.Username, unicode.IsControl) {
		p.add("username", "The username must not contain line breaks or control characters.")
	}
	if strings.TrimSpace(c.From) == "" {
		p.add("from", "Enter the sender address (From), usually your own email address.")
	} else if _, err := ParseAddress(c.From); err != nil {
		p.add("from", "The sender address %q is not a valid email address.", SanitizeLine(c.From, 80))
	}
	if len(c.To) == 0 {
		p.add("to", "Enter at least one recipient address (To).")
	}
	for _, to := range c.To {
		if _, err := ParseAddress(to); err != nil {
			p.add("to", "The recipient address %q is not a valid email address.", SanitizeLine(to, 80))
		}
	}
}

// StepTimeout is the effective per-step timeout.
func (c Config) StepTimeout() time.Duration {
	if c.Timeout > 0 {
		return c.Timeout
	}
	return DefaultTimeout
}

// Addr is host:port for dialing.
func (c Config) Addr() string {
	return net.JoinHostPort(strings.Trim(NormalizeHost(c.Host), "[]"), fmt.Sprint(c.Port))
}

// IsLoopbackHost reports whether host is this computer: "localhost" or a loopback
// IP address. No name resolution is done (a name that merely resolves to a
// loopback address today is not trusted for unencrypted mail).
func IsLoopbackHost(host string) bool {
	host = strings.Trim(NormalizeHost(host), "[]")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func NormalizeHost(h string) string {
	return strings.TrimSuffix(strings.ToLower(strings.TrimSpace(h)), ".")
}

func validHostname(h string) bool {
	if len(h) > 253 {
		return false
	}
	for _, label := range strings.Split(h, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, r := range label {
			if !(r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)) {
				return false
			}
		}
	}
	return true
}

// ParseAddress accepts "user@example.com" and "Name <user@example.com>".
func ParseAddress(s string) (*mail.Address, error) {
	if strings.ContainsFunc(s, unicode.IsControl) {
		return nil, errors.New("control characters in address")
	}
	a, err := mail.ParseAddress(strings.TrimSpace(s))
	if err != nil {
		return nil, err
	}
	if !strings.Contains(a.Address, "@") {
		return nil, errors.New("no @ in address")
	}
	return a, nil
}

// ParseFingerprint accepts a SHA-256 fingerprint as hex, with optional colons,
// spaces and a "sha256:" prefix, in any case.
func ParseFingerprint(s string) ([]byte, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	s = strings.TrimPrefix(s, "sha256:")
	s = strings.TrimPrefix(s, "sha256/")
	s = strings.NewReplacer(":", "", " ", "", "-", "").Replace(s)
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != 32 {
		return nil, errors.New("not a SHA-256 fingerprint")
	}
	return b, nil
}
