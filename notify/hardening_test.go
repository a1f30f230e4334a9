package notify

import (
	"context"
	"errors"
	"io"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"notifio/internal/model"
)

// Item 7: STARTTLS on an implicit-TLS port is named as the wrong security within
// seconds even when the caller's deadline (`email test`: 8 s here, 30 s there)
// is shorter than the per-step timeout, instead of "context deadline exceeded".
func TestWrongSecurityBeatsTheCallersDeadline(t *testing.T) {
	cert, fp := selfSigned(t)
	ts := startServer(t, serverOpts{mode: modeImplicit, cert: cert})
	cfg := ts.config(model.SecurityStartTLS)
	cfg.PinnedCertSHA256 = fp
	cfg.Timeout = 0 // DefaultTimeout, as the user's settings have it
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Second)
	defer cancel()
	start := time.Now()
	err := SendTestEmail(ctx, cfg, "")
	elapsed := time.Since(start)
	var wse *WrongSecurityError
	if !errors.As(err, &wse) || !wse.ServerSpeaksTLS {
		t.Fatalf("after %v: %v, want a WrongSecurityError (the server expects TLS from the first byte)", elapsed, err)
	}
	if elapsed > greetingWait+3*time.Second {
		t.Errorf("took %v, want about %v", elapsed, greetingWait)
	}
	if temp, hint := Classify(err); temp || hint == "" {
		t.Errorf("temporary %v, hint %q", temp, hint)
	}
}

// dataTrouble is an SMTP server on loopback that takes the message after DATA
// and then either hangs (no reply) or closes the connection without a reply.
type dataTrouble struct {
	hang    bool
	release chan struct{}
}

func (b *dataTrouble) NewSession(c *smtp.Conn) (smtp.Session, error) {
	return &troubleSession{b: b, c: c}, nil
}

type troubleSession struct {
	b *dataTrouble
	c *smtp.Conn
}

func (s *troubleSession) Mail(string, *smtp.MailOptions) error { return nil }
func (s *troubleSession) Rcpt(string, *smtp.RcptOptions) error { return nil }
func (s *troubleSession) Data(r io.Reader) error {
	_, _ = io.Copy(io.Discard, r)
	if s.b.hang {
		<-s.b.release
		return nil
	}
	_ = s.c.Close()
	return nil
}
func (s *troubleSession) Reset()        {}
func (s *troubleSession) Logout() error { return nil }

// Item 12: a server that takes the message but never confirms it (hangs or
// closes after DATA) is a temporary failure whose hint says what happened, that
// Notifio retries, and what to check if it goes on.
func TestUnconfirmedDataIsExplained(t *testing.T) {
	for _, hang := range []bool{true, false} {
		name := map[bool]string{true: "hangs after DATA", false: "closes after DATA"}[hang]
		t.Run(name, func(t *testing.T) {
			b := &dataTrouble{hang: hang, release: make(chan struct{})}
			srv := smtp.NewServer(b)
			srv.Domain = "localhost"
			srv.AllowInsecureAuth = true
			l, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			go func() { _ = srv.Serve(l) }()
			defer func() { close(b.release); _ = srv.Close() }()
			host, port, _ := net.SplitHostPort(l.Addr().String())
			p, _ := strconv.Atoi(port)
			cfg := model.Config{Host: host, Port: p, Security: model.SecurityNone, From: "a@example.org", To: []string{"b@example.org"}, Timeout: time.Second}
			s, err := NewSender(cfg, "")
			if err != nil {
				t.Fatal(err)
			}
			msg, err := composeTest(cfg, time.Now())
			if err != nil {
				t.Fatal(err)
			}
			err = s.Send(context.Background(), msg)
			temp, hint := Classify(err)
			t.Logf("%v", err)
			if err == nil || !temp {
				t.Fatalf("err %v, temporary %v; want a temporary failure", err, temp)
			}
			for _, want := range []string{"did not confirm", "keeps retrying", "If this persists"} {
				if !strings.Contains(hint, want) {
					t.Errorf("hint %q lacks %q", hint, want)
				}
			}
		})
	}
}
