package fetch

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"strings"
	"syscall"
	"time"

	"notifio/poll/words"
)

// Sentinels for errors.Is.
var (
	// ErrBodyTooLarge: the decompressed body went past MaxBody; the connection was closed.
	ErrBodyTooLarge = errors.New("body larger than the cap")
	// ErrHeadersTooLarge: the response headers went past MaxHeaderBytes.
	ErrHeadersTooLarge = errors.New("response headers larger than the cap")
)

// Error is every error Fetch returns. Its message starts with "fetch: ".
type Error struct {
	// URL is the URL being fetched when it failed (userinfo redacted).
	URL string
	// Reason is a short phrase for people, e.g. "the page was larger than 5 MiB",
	// "timed out after 300ms", "DNS lookup for x.example failed".
	Reason string
	// Err is the underlying error (nil or a sentinel when Reason says it all).
	Err error
}

func (e *Error) Error() string {
	msg := "fetch: " + e.URL + ": " + e.Reason
	if e.Err != nil && e.Err != ErrBodyTooLarge {
		msg += " (" + e.Err.Error() + ")"
	}
	return msg
}

func (e *Error) Unwrap() error { return e.Err }

// Timeout reports whether the failure was a deadline or timeout.
func (e *Error) Timeout() bool { return IsTimeout(e.Err) }

// IsTimeout reports whether err is a deadline or a timeout at any stage (dial,
// TLS handshake, awaiting headers, reading the body).
func IsTimeout(err error) bool {
	if errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	for e := err; e != nil; e = errors.Unwrap(e) {
		if _, self := e.(*Error); self {
			continue // its Timeout method asks this function
		}
		if t, ok := e.(interface{ Timeout() bool }); ok && t.Timeout() {
			return true
		}
	}
	return false
}

// IsNetworkUnreachable reports whether err means this machine could not reach the
// network at all, as opposed to a site that answered badly. The poller uses it for
// "offline is not a refusal". Exactly these count:
//
//   - any DNS failure (*net.DNSError: host not found, no resolver, resolver
//     timeout): offline machines fail here first;
//   - ENETUNREACH "network is unreachable", EHOSTUNREACH "no route to host",
//     ENETDOWN "network is down", EADDRNOTAVAIL "cannot assign requested address"
//     (no usable local address), and their Windows WSA equivalents.
//
// Not counted, because a host (or something on its path) did answer: connection
// refused, connection reset, every timeout (a site that drops our packets looks
// the same as a slow network), TLS and certificate errors, oversize headers or
// body, and any HTTP status.
func IsNetworkUnreachable(err error) bool {
	if err == nil {
		return false
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return true
	}
	var errno syscall.Errno
	if errors.As(err, &errno) {
		for _, e := range unreachableErrnos {
			if errno == e {
				return true
			}
		}
	}
	return false
}

// IsHostNotFound reports whether err is a DNS answer that the host does not
// exist (NXDOMAIN, no address). Alone it cannot tell a mistyped or vanished
// host from a resolver that answers so while this computer is offline: the
// poller counts it as offline only when no other site answers either.
func IsHostNotFound(err error) bool {
	var dns *net.DNSError
	return errors.As(err, &dns) && dns.IsNotFound
}

// transportError turns a failure of client.Do or of a body read into an *Error
// with a plain reason.
func (f *Fetcher) transportError(ctx context.Context, u *url.URL, start time.Time, err error) *Error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	e := &Error{URL: u.Redacted(), Err: err}
	e.Reason = f.describe(ctx, start, err)
	if strings.Contains(err.Error(), "response headers exceeded") {
		e.Err = fmt.Errorf("%w: %v", ErrHeadersTooLarge, err)
	}
	return e
}

func (f *Fetcher) describe(ctx context.Context, start time.Time, err error) string {
	msg := err.Error()
	var dns *net.DNSError
	var errno syscall.Errno
	var unknownCA x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	var invalid x509.CertificateInvalidError
	var recHdr tls.RecordHeaderError
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		return "timed out after " + words.PreciseDuration(time.Since(start))
	case ctx.Err() == context.Canceled:
		return "canceled"
	case strings.Contains(msg, "response headers exceeded"):
		return "response headers larger than " + formatSize(f.opts.MaxHeaderBytes)
	case strings.Contains(msg, "timeout awaiting response headers"):
		return "no response headers within " + words.PreciseDuration(f.opts.ResponseHeaderTimeout)
	case errors.Is(err, context.DeadlineExceeded):
		return "timed out after " + words.PreciseDuration(time.Since(start))
	case strings.Contains(msg, "TLS handshake timeout"):
		return "TLS handshake timed out"
	case errors.As(err, &dns):
		if dns.IsNotFound {
			return "DNS lookup for " + dns.Name + " failed: host not found"
		}
		return "DNS lookup for " + dns.Name + " failed"
	case errors.As(err, &unknownCA):
		return "TLS: certificate signed by an unknown authority"
	case errors.As(err, &hostErr):
		return "TLS: certificate is not valid for this host"
	case errors.As(err, &invalid):
		return "TLS: invalid certificate (expired or not yet valid?)"
	case errors.As(err, &recHdr):
		return "TLS: the server did not answer with TLS"
	case errors.As(err, &errno) && errnoReason(errno) != "":
		return errnoReason(errno)
	case IsTimeout(err):
		var op *net.OpError
		if errors.As(err, &op) && op.Op == "dial" {
			return "connection timed out"
		}
		return "timed out"
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return "connection closed early"
	case strings.Contains(msg, "tls:"):
		return "TLS handshake failed"
	}
	return "request failed"
}
