package notify

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/textproto"
	"strings"
	"time"

	mail "github.com/wneessen/go-mail"

	"notifio/internal/model"

	"notifio/internal/pushurl"
)

// DeliveryError is a failed attempt to deliver (or to reach the server), with
// what the user can do about it. Every error the Sender returns is one.
type DeliveryError struct {
	// Err is the underlying error, with the server's own words where it answered.
	Err error
	// Code is the SMTP reply code (e.g. 535), 0 when the server did not answer
	// with one.
	Code int
	// Temporary errors are worth retrying later unchanged; the others need the
	// user (settings, addresses, the server's account).
	Temporary bool
	// Hint says what to do, in a sentence; may be empty.
	Hint string
	// RetryAfter is how long the service asked to be left alone (its
	// Retry-After, capped at an hour); 0 when it did not say.
	RetryAfter time.Duration

	secret string // the password: never part of Error()
}

// Error is the server's words followed by the hint.
func (e *DeliveryError) Error() string {
	if e.Hint == "" {
		return e.Words()
	}
	return e.Words() + ". " + e.Hint
}

// Words is the underlying error alone (the server's words where it answered),
// without the hint.
func (e *DeliveryError) Words() string {
	return pushurl.Redact(e.Err.Error(), e.secret)
}

func (e *DeliveryError) Unwrap() error { return e.Err }

// SaidAndHint is what the server said (Words, "" when there is no
// underlying error) and what to do: how a view reads a DeliveryError
// without importing notify (model.DeliveryWords), and how it crosses the
// watcher's socket.
func (e *DeliveryError) SaidAndHint() (said, hint string) {
	if e.Err != nil {
		said = e.Words()
	}
	return said, e.Hint
}

// WrongSecurityError means the server speaks a different kind of TLS than
// configured: implicit TLS where STARTTLS (or none) was chosen, or plain text
// where TLS was chosen. Left alone, the first case hangs until the timeout.
type WrongSecurityError struct {
	Addr       string
	Configured model.Security
	// ServerSpeaksTLS is true when the server expects TLS from the first byte.
	ServerSpeaksTLS bool
}

func (e *WrongSecurityError) Error() string {
	if e.ServerSpeaksTLS {
		return fmt.Sprintf("the server at %s expects TLS from the first byte, but security is set to %q", e.Addr, e.Configured)
	}
	return fmt.Sprintf("the server at %s answered in plain text (it expects STARTTLS), but security is set to %q", e.Addr, e.Configured)
}

// Hints shared by several classifications.
const (
	hintPorts       = "Port 465 uses TLS, 587 uses STARTTLS: choose the security that matches the port"
	hintCredentials = "Check the username and password in Settings › Email"
	hintGmail       = "Use an app password: Google account › Security › App passwords (Gmail refuses your normal Google password here)"
	hintOutlook     = "SMTP AUTH must be enabled for the mailbox (Microsoft 365 admin center › Active users › Mail › Manage email apps › Authenticated SMTP), and the password must be accepted for SMTP (an app password if two-step verification is on)"
	hintICloud      = "iCloud needs an app-specific password: appleid.apple.com › Sign-In and Security › App-Specific Passwords"
	hintFastmail    = "Fastmail needs an app password with SMTP access: Settings › Privacy & Security › App passwords"
	hintRecipient   = "The server refused a recipient: check the To address"
	hintSender      = "The server refused the sender: check the From address (most providers only accept your own address)"
	hintNoAuthOffer = "The server offers no sign-in (AUTH) on this connection: leave the username empty if it needs none, or check the security setting"
	hintNeedsSignIn = "The server requires signing in: enter your username and password in Settings › Email"
	hintNoSafeAuth  = "The server offers no sign-in method that is safe on this connection (the password would travel unencrypted): use security \"starttls\" or \"tls\", with a pinned certificate for a local bridge"
	hintNoStartTLS  = "The server does not offer STARTTLS on this port. " + hintPorts + " (\"none\" is only for a server on this computer)"
	hintNetwork     = "Could not reach the server: check your internet connection and the server name and port; Notifio keeps retrying"
	hintTimeout     = "The server did not answer in time; Notifio keeps retrying. If this persists, check the port and security (" + hintPortsShort + ")"
	hintPortsShort  = "port 465 uses TLS, 587 uses STARTTLS"
	hintUnconfirmed = "The server took the connection and the message but did not confirm the message (it stopped answering or hung up after the message was sent)" +
		"; Notifio keeps retrying. If this persists, check the port and security (" + hintPortsShort + "), whether the server limits message size, " +
		"and ask your mail provider whether it received the message (a retry carries the same Message-ID)"
	hintServerBusy   = "The server is temporarily unavailable; Notifio retries automatically"
	hintRefused      = "The server refused the message; see its words above"
	hintNotSetUp     = model.HintNotSetUp
	hintPinMismatch  = "If you replaced your bridge's certificate, pin the new fingerprint in Settings › Email; otherwise something is intercepting the connection"
	hintUntrustedFmt = "The server's certificate is not trusted (self-signed or for another name). If this is a bridge on this computer, pin its SHA-256 fingerprint %s in Settings › Email"
)

// Classify says whether err is worth retrying unchanged (temporary: 4xx replies,
// network trouble, timeouts) or needs the user (auth 530/534/535, 5xx recipient
// or sender, TLS or certificate problems, wrong security for the port, settings),
// and what to do about it. A *DeliveryError from the Sender carries its own
// classification (with a provider-specific hint, since it knows the server);
// other errors are classified here without knowing the provider.
func Classify(err error) (temporary bool, hint string) {
	if err == nil {
		return false, ""
	}
	var de *DeliveryError
	if errors.As(err, &de) {
		return de.Temporary, de.Hint
	}
	d := classify(err, model.Config{})
	return d.Temporary, d.Hint
}

// classify wraps err into a *DeliveryError for the server in cfg.
func classify(err error, cfg model.Config) *DeliveryError {
	var de *DeliveryError
	if errors.As(err, &de) {
		return de
	}
	d := &DeliveryError{Err: err, Code: smtpCode(err)}
	if unconfirmed(err, d.Code) {
		d.Temporary, d.Hint = true, hintUnconfirmed
		return d
	}
	d.Temporary, d.Hint = classifyErr(err, d.Code, cfg)
	return d
}

// unconfirmed reports a message that went out without a reply to it: the
// server hung or hung up after DATA. (go-mail's SendError does not unwrap to
// the network error, so the network rules would not see it.)
func unconfirmed(err error, code int) bool {
	var se *mail.SendError
	return code == 0 && errors.As(err, &se) && se.Reason == mail.ErrSMTPDataClose
}

// classifyErr says whether err is temporary and what the user can do: the
// settings first (nothing to retry until the user changes them), then TLS,
// sign-in negotiation, the server's reply code, the network. Unknown errors
// are retried, with backoff, rather than give up on an alert.
func classifyErr(err error, code int, cfg model.Config) (bool, string) {
	for _, rule := range []func(error, int, model.Config) (bool, string, bool){
		settingsProblem, tlsProblem, authProblem, replyProblem, networkProblem,
	} {
		if temp, hint, ok := rule(err, code, cfg); ok {
			return temp, hint
		}
	}
	return true, ""
}

func settingsProblem(err error, _ int, _ model.Config) (bool, string, bool) {
	var fe *model.FieldError
	switch {
	case errors.Is(err, model.ErrNotConfigured) || errors.As(err, &fe):
		return false, hintNotSetUp, true
	case errors.Is(err, context.Canceled):
		return true, "", true
	}
	return false, "", false
}

// tlsProblem: the wrong mode for the port, certificate problems.
func tlsProblem(err error, _ int, cfg model.Config) (bool, string, bool) {
	var wse *WrongSecurityError
	if errors.As(err, &wse) {
		if wse.ServerSpeaksTLS {
			return false, fmt.Sprintf("Port 465 uses TLS, 587 uses STARTTLS: this server expects TLS, choose security \"tls\" for port %d", cfg.Port), true
		}
		return false, fmt.Sprintf("Port 465 uses TLS, 587 uses STARTTLS: this server expects STARTTLS, choose security \"starttls\" for port %d", cfg.Port), true
	}
	var rhe tls.RecordHeaderError
	var pme *PinMismatchError
	var cie x509.CertificateInvalidError
	switch {
	case errors.As(err, &rhe):
		return false, hintPorts, true
	case errors.As(err, &pme), errors.Is(err, errNoPeerCert):
		return false, hintPinMismatch, true
	case errors.As(err, &cie):
		return false, "The server's certificate is invalid (" + cie.Error() + "); if this is your own bridge, pin its fingerprint", true
	}
	if fp, ok := untrustedCertFingerprint(err); ok {
		return false, fmt.Sprintf(hintUntrustedFmt, fp), true
	}
	return false, "", false
}

// authProblem: sign-in negotiation that failed before anything was sent.
func authProblem(err error, _ int, cfg model.Config) (bool, string, bool) {
	switch {
	case errors.Is(err, mail.ErrNoSupportedAuthDiscovered):
		if cfg.Security == model.SecurityNone {
			return false, hintNoSafeAuth, true
		}
		return false, "The server offers no sign-in method Notifio supports; check the security setting", true
	case errors.Is(err, mail.ErrPlainAuthNotSupported), errors.Is(err, mail.ErrLoginAuthNotSupported):
		return false, hintNoSafeAuth, true
	}
	msg := err.Error()
	switch {
	case strings.Contains(msg, "does not support STARTTLS"):
		return false, hintNoStartTLS, true
	case strings.Contains(msg, "server does not support SMTP AUTH"):
		return false, hintNoAuthOffer, true
	case strings.Contains(msg, "unencrypted connection"):
		// net/smtp-style refusal to send credentials in clear text.
		return false, hintNoSafeAuth, true
	}
	return false, "", false
}

// replyProblem: the server's reply code.
func replyProblem(err error, code int, cfg model.Config) (bool, string, bool) {
	switch {
	case code == 454:
		return true, "The server could not sign you in or start TLS right now; Notifio retries automatically", true
	case code >= 400 && code < 500:
		return true, hintServerBusy, true
	case code >= 500 && code < 600:
		return false, permanentHint(err, code, cfg), true
	}
	return false, "", false
}

// permanentHint is what to do about a 5xx reply.
func permanentHint(err error, code int, cfg model.Config) string {
	var se *mail.SendError
	isSendErr := errors.As(err, &se)
	switch {
	case code == 530 && strings.Contains(strings.ToUpper(err.Error()), "STARTTLS"):
		return "The server requires STARTTLS first. " + hintPorts
	case code == 530 && cfg.Username == "":
		return hintNeedsSignIn
	case code == 530, code == 534, code == 535:
		return authHint(model.NormalizeHost(cfg.Host))
	case code == 523 || code == 538:
		return "The server requires an encrypted connection to sign in. " + hintPorts
	case isSendErr && se.Reason == mail.ErrSMTPRcptTo:
		return hintRecipient
	case isSendErr && se.Reason == mail.ErrSMTPMailFrom:
		return hintSender
	case code == 550 || code == 553 || code == 551 || code == 501:
		return hintRecipient
	}
	return hintRefused
}

// networkProblem: timeouts, refused or reset connections, DNS (which also
// fails while the computer is offline, so it is retried too).
func networkProblem(err error, _ int, _ model.Config) (bool, string, bool) {
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return true, fmt.Sprintf("Could not find the server %q: check the server name and your internet connection; Notifio keeps retrying", dnsErr.Name), true
	}
	if errors.Is(err, context.DeadlineExceeded) || isTimeout(err) {
		return true, hintTimeout, true
	}
	if isConnRefused(err) {
		return true, "The server refused the connection (is it running, and is the port right?); Notifio keeps retrying", true
	}
	var netErr net.Error
	var opErr *net.OpError
	var se *mail.SendError
	if errors.As(err, &opErr) || errors.As(err, &netErr) || errors.Is(err, io.EOF) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, net.ErrClosed) ||
		isConnBroken(err) || errors.Is(err, mail.ErrNoActiveConnection) ||
		(errors.As(err, &se) && se.Reason == mail.ErrConnCheck) {
		return true, hintNetwork, true
	}
	return false, "", false
}

func authHint(host string) string {
	switch {
	case host == "smtp.gmail.com" || host == "smtp.googlemail.com" || strings.HasSuffix(host, ".gmail.com"):
		return hintGmail
	case host == "smtp.office365.com" || host == "smtp-mail.outlook.com" || strings.HasSuffix(host, ".office365.com") ||
		strings.HasSuffix(host, ".outlook.com"):
		return hintOutlook
	case host == "smtp.mail.me.com" || strings.HasSuffix(host, ".mail.me.com"):
		return hintICloud
	case strings.HasSuffix(host, "fastmail.com"):
		return hintFastmail
	}
	return hintCredentials
}

// smtpCode finds the SMTP reply code in err: from go-mail's SendError, else from
// a textproto reply (greeting, EHLO, STARTTLS, AUTH), else 0.
func smtpCode(err error) int {
	var se *mail.SendError
	if errors.As(err, &se) && se.ErrorCode() != 0 {
		return se.ErrorCode()
	}
	var tpe *textproto.Error
	if errors.As(err, &tpe) {
		return tpe.Code
	}
	return 0
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
