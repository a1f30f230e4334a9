package notify

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync/atomic"
	"time"

	mail "github.com/wneessen/go-mail"
	gmsmtp "github.com/wneessen/go-mail/smtp"

	"notifio/internal/model"
)

// Sender sends mail through the SMTP server of one Config. It is cheap to make;
// each Send (or Dial) opens its own connection.
//
// Security rules: STARTTLS is mandatory in "starttls" mode (a server that does
// not offer it is an error, never a plain-text fallback); "tls" speaks TLS from
// the first byte; "none" is refused for anything but loopback, and even there the
// password is only sent with a challenge-response mechanism (go-mail's
// auto-discovery never picks PLAIN or LOGIN on an unencrypted connection).
type Sender struct {
	cfg      model.Config
	password string
}

// NewSender checks cfg and returns a Sender, or a *DeliveryError that says what to
// fix in the settings.
func NewSender(cfg model.Config, password string) (*Sender, error) {
	if !cfg.Configured() {
		return nil, classify(model.ErrNotConfigured, cfg)
	}
	if err := cfg.Validate(); err != nil {
		return nil, &DeliveryError{Err: fmt.Errorf("email settings: %w", err), Hint: hintNotSetUp}
	}
	if cfg.Username != "" && password == "" {
		return nil, &DeliveryError{
			Err:  fmt.Errorf("no password is saved for %s", cfg.Username),
			Hint: "Enter the password in Settings › Email",
		}
	}
	return &Sender{cfg: cfg, password: password}, nil
}

// Send delivers one message on a connection of its own.
func (s *Sender) Send(ctx context.Context, msg *mail.Msg) error {
	sess, err := s.Dial(ctx)
	if err != nil {
		return err
	}
	defer sess.Close()
	return sess.Send(msg)
}

// Session is one signed-in connection to the server, for sending several
// messages with a single AUTH. It is not safe for concurrent use.
type Session struct {
	s      *Sender
	client *mail.Client
	smtp   *gmsmtp.Client
	stop   func() bool // unregisters the close-on-cancel hook
}

// Dial connects, secures the connection and signs in. Every error is a
// *DeliveryError.
func (s *Sender) Dial(ctx context.Context) (*Session, error) {
	cfg := s.cfg
	tc, err := tlsConfig(cfg)
	if err != nil {
		return nil, s.fail(err)
	}
	opts := []mail.Option{
		mail.WithPort(cfg.Port),
		mail.WithTimeout(cfg.StepTimeout()),
		mail.WithTLSConfig(tc),
	}
	switch cfg.Security {
	case model.SecurityTLS:
		opts = append(opts, mail.WithSSL())
	case model.SecurityStartTLS:
		opts = append(opts, mail.WithTLSPolicy(mail.TLSMandatory))
	case model.SecurityNone:
		opts = append(opts, mail.WithTLSPolicy(mail.NoTLS))
	default:
		return nil, s.fail(&model.FieldError{Field: "security", Problem: "Choose the security: starttls or tls."})
	}

	// For the plain-text start (starttls, none) we dial ourselves: to notice a
	// server that never greets (it waits for a TLS handshake: wrong security for
	// the port) and to close the connection when ctx is cancelled. For implicit
	// TLS go-mail must dial, because only then does it know the connection is
	// encrypted (which auth auto-discovery depends on).
	var conn *watchedConn
	var stop func() bool
	if cfg.Security != model.SecurityTLS {
		opts = append(opts, mail.WithDialContextFunc(func(dctx context.Context, network, addr string) (net.Conn, error) {
			var d net.Dialer
			c, err := d.DialContext(dctx, network, addr)
			if err != nil {
				return nil, err
			}
			if cfg.Security == model.SecurityNone && !isLoopbackAddr(c.RemoteAddr()) {
				// "localhost" is only a name: refuse an unencrypted connection
				// that has left this computer after all.
				_ = c.Close()
				return nil, &model.FieldError{Field: "security", Problem: fmt.Sprintf(
					"security \"none\" is only for a server on this computer, but %s is %s", cfg.Host, c.RemoteAddr())}
			}
			conn = &watchedConn{Conn: c}
			stop = context.AfterFunc(ctx, func() { _ = c.Close() })
			if err := s.awaitGreeting(ctx, conn); err != nil {
				stop()
				_ = c.Close()
				return nil, err
			}
			return conn, nil
		}))
	}
	if cfg.Username != "" {
		opts = append(opts,
			mail.WithSMTPAuth(mail.SMTPAuthAutoDiscover),
			mail.WithUsername(cfg.Username),
			mail.WithPassword(s.password),
		)
	}

	client, err := mail.NewClient(strings.Trim(model.NormalizeHost(cfg.Host), "[]"), opts...)
	if err != nil {
		return nil, s.fail(err)
	}
	sc, err := client.DialToSMTPClientWithContext(ctx)
	if err != nil {
		if conn != nil {
			stop()
			_ = conn.Close()
		}
		if ctx.Err() != nil {
			return nil, s.fail(ctx.Err())
		}
		return nil, s.fail(s.explainDialError(ctx, err, conn))
	}
	if stop == nil {
		stop = func() bool { return false }
	}
	return &Session{s: s, client: client, smtp: sc, stop: stop}, nil
}

// explainDialError recognises the wrong security for the port.
func (s *Sender) explainDialError(ctx context.Context, err error, conn *watchedConn) error {
	cfg := s.cfg
	var rhe tls.RecordHeaderError
	if cfg.Security == model.SecurityTLS && errors.As(err, &rhe) {
		// We said hello in TLS and the server answered in plain text (its "220"
		// greeting): a STARTTLS or plain port.
		return &WrongSecurityError{Addr: cfg.Addr(), Configured: cfg.Security, ServerSpeaksTLS: false}
	}
	if conn != nil && conn.read.Load() == 0 && isTimeout(err) {
		// Connected, but not a byte of greeting: a server that expects TLS first
		// waits for our handshake just as we wait for its greeting. Find out.
		if s.speaksTLS(ctx) {
			return &WrongSecurityError{Addr: cfg.Addr(), Configured: cfg.Security, ServerSpeaksTLS: true}
		}
		return fmt.Errorf("the server at %s accepted the connection but sent no greeting within %s: %w", cfg.Addr(), cfg.StepTimeout(), err)
	}
	return err
}

// greetingWait is how long a plain-text start waits for the server's first byte
// before asking whether the server expects TLS instead: a real SMTP server greets
// at once, and a TLS port waits for us forever. A server that is merely slow is
// then waited for as usual.
const greetingWait = 3 * time.Second

// awaitGreeting waits up to greetingWait for the server's first byte (kept for
// go-mail to read). When none comes and the port speaks TLS, the wrong security is
// reported at once, whatever deadline the caller has: `email test`, the relay and
// `once` all say the same, within seconds.
func (s *Sender) awaitGreeting(ctx context.Context, c *watchedConn) error {
	_ = c.Conn.SetReadDeadline(time.Now().Add(min(greetingWait, s.cfg.StepTimeout())))
	n, err := c.Conn.Read(c.first[:])
	_ = c.Conn.SetReadDeadline(time.Time{})
	if n == 1 {
		c.pending = true
		c.read.Add(1)
		return nil
	}
	if !isTimeout(err) {
		return err
	}
	if s.speaksTLS(ctx) {
		return &WrongSecurityError{Addr: s.cfg.Addr(), Configured: s.cfg.Security, ServerSpeaksTLS: true}
	}
	return nil
}

// speaksTLS reports whether the server completes (or gets far enough into) a TLS
// handshake: a certificate presented or a TLS alert received. Nothing is sent
// beyond the handshake, so certificate verification failures are fine here.
func (s *Sender) speaksTLS(ctx context.Context) bool {
	tc, err := tlsConfig(s.cfg)
	if err != nil {
		return false
	}
	ctx, cancel := context.WithTimeout(ctx, min(s.cfg.StepTimeout(), 5*time.Second))
	defer cancel()
	d := tls.Dialer{Config: tc}
	c, err := d.DialContext(ctx, "tcp", s.cfg.Addr())
	if err == nil {
		_ = c.Close()
		return true
	}
	var alert tls.AlertError
	var pme *PinMismatchError
	if _, ok := untrustedCertFingerprint(err); ok || errors.As(err, &alert) || errors.As(err, &pme) {
		return true
	}
	return false
}

// Send delivers msg on the session. Every error is a *DeliveryError.
func (ss *Session) Send(msg *mail.Msg) error {
	err := ss.client.SendWithSMTPClient(ss.smtp, msg)
	if err != nil && msg.IsDelivered() {
		// The server accepted the message; only the RSET after it failed. The
		// message is delivered, the connection is not to be trusted further.
		_ = ss.smtp.Close()
		return nil
	}
	if err != nil {
		return ss.s.fail(err)
	}
	return nil
}

// Close says goodbye to the server and closes the connection.
func (ss *Session) Close() error {
	defer ss.stop()
	if err := ss.client.CloseWithSMTPClient(ss.smtp); err != nil {
		_ = ss.smtp.Close()
		return err
	}
	return nil
}

// fail turns err into a *DeliveryError that knows this server (for the hint) and
// never shows the password.
func (s *Sender) fail(err error) error {
	d := classify(err, s.cfg)
	d.secret = s.password
	return d
}

func isLoopbackAddr(a net.Addr) bool {
	ta, ok := a.(*net.TCPAddr)
	return ok && ta.IP.IsLoopback()
}

// watchedConn counts the bytes read, to tell "no greeting" from "slow reply",
// and hands on the greeting's first byte awaitGreeting read.
type watchedConn struct {
	net.Conn
	read    atomic.Int64
	first   [1]byte
	pending bool // first holds a byte not yet returned by Read
}

func (c *watchedConn) Read(p []byte) (int, error) {
	if c.pending && len(p) > 0 {
		c.pending = false
		p[0] = c.first[0]
		return 1, nil
	}
	n, err := c.Conn.Read(p)
	c.read.Add(int64(n))
	return n, err
}

// SendTestEmail sends a short test message with cfg and password and returns nil
// or a *DeliveryError: the server's words plus what to do about them (e.g. "Use an
// app password: ..." for a Gmail 535, "Port 465 uses TLS, 587 uses STARTTLS" for
// the wrong security). It does not touch the outbox.
func SendTestEmail(ctx context.Context, cfg model.Config, password string) error {
	s, err := NewSender(cfg, password)
	if err != nil {
		return err
	}
	msg, err := composeTest(cfg, time.Now())
	if err != nil {
		return s.fail(err)
	}
	err = s.Send(ctx, msg)
	// A test email is one attempt: nothing retries it, so the hint must not
	// promise that Notifio keeps trying.
	var de *DeliveryError
	if errors.As(err, &de) {
		de.Hint = strings.ReplaceAll(de.Hint, "; Notifio keeps retrying", "")
	}
	return err
}
