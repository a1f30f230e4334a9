package notify

import (
	"context"
	"errors"
	"net"
	"net/textproto"
	"strings"
	"testing"
	"time"

	"notifio/internal/model"
)

func digestItem() model.OutboxItem {
	return model.OutboxItem{
		ID: 7, SearchID: "s1", SearchName: "Berlin 2 rooms",
		SearchURL: "https://www.example-immo.de/search?city=berlin",
		Created:   time.Date(2026, 3, 1, 9, 30, 0, 0, time.UTC),
		MessageID: "<outbox-7.s1.abc123@notifio.local>",
		State:     model.OutboxPending,
		Listings: []model.Listing{
			{ID: "example-immo.de:1", URL: "https://www.example-immo.de/expose/1", Title: "Sunny flat near the park",
				Price: "1.250 €", Size: "68 m²", Rooms: "2", Location: "Berlin-Neukölln"},
			{ID: "example-immo.de:2", URL: "/expose/2", Title: "Altbau mit Balkon",
				Price: "980 €", Size: "54 m²", Rooms: "2,5", Location: "Berlin-Wedding"},
		},
	}
}

func TestDigestDeliveredWithBothParts(t *testing.T) {
	ts := startServer(t, serverOpts{mode: modePlain})
	cfg := ts.config(model.SecurityNone)
	item := digestItem()
	msg, err := ComposeDigest(item, cfg)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSender(cfg, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Send(context.Background(), msg); err != nil {
		t.Fatal(err)
	}
	msgs := ts.Messages()
	if len(msgs) != 1 {
		t.Fatalf("server received %d messages, want 1", len(msgs))
	}
	if msgs[0].From != "alerts@example.com" || len(msgs[0].To) != 1 || msgs[0].To[0] != "me@example.com" {
		t.Errorf("envelope: from %q to %q", msgs[0].From, msgs[0].To)
	}
	p := parseMIME(t, msgs[0].Data)
	if p.Subject != "2 new on Berlin 2 rooms" {
		t.Errorf("subject = %q", p.Subject)
	}
	if got := p.Header.Get("Message-Id"); got != "<outbox-7.s1.abc123@notifio.local>" {
		t.Errorf("Message-ID = %q", got)
	}
	if d, err := p.Header.Date(); err != nil || !d.Equal(item.Created) {
		t.Errorf("Date = %v (%v), want %v", d, err, item.Created)
	}
	if got := p.Header.Get("Auto-Submitted"); got != "auto-generated" {
		t.Errorf("Auto-Submitted = %q", got)
	}
	if len(p.Types) != 2 || p.Types[0] != "text/plain" || p.Types[1] != "text/html" {
		t.Fatalf("parts = %v, want text/plain then text/html", p.Types)
	}
	for _, want := range []string{"Sunny flat near the park", "1.250 €", "68 m² · 2 rooms", "Berlin-Neukölln",
		"https://www.example-immo.de/expose/1", "https://www.example-immo.de/expose/2", "Altbau mit Balkon", "2,5 rooms"} {
		if !strings.Contains(p.Text, want) {
			t.Errorf("text part lacks %q:\n%s", want, p.Text)
		}
	}
	for _, want := range []string{`<a href="https://www.example-immo.de/expose/1"`, "Sunny flat near the park",
		"1.250 €", "Berlin-Neukölln", `<a href="https://www.example-immo.de/expose/2"`} {
		if !strings.Contains(p.HTML, want) {
			t.Errorf("HTML part lacks %q:\n%s", want, p.HTML)
		}
	}
}

func TestStartTLSAuthPlainWithPinnedSelfSignedCert(t *testing.T) {
	cert, fp := selfSigned(t)
	ts := startServer(t, serverOpts{mode: modeStartTLS, cert: cert, user: "bridge-user", pass: "s3cret-pw"})
	cfg := ts.config(model.SecurityStartTLS)
	cfg.Username = "bridge-user"
	// A user pastes the fingerprint with colons and in upper case.
	cfg.PinnedCertSHA256 = strings.ToUpper(formatFingerprint(mustHex(t, fp)))

	if err := SendTestEmail(context.Background(), cfg, "s3cret-pw"); err != nil {
		t.Fatalf("SendTestEmail: %v", err)
	}
	msgs := ts.Messages()
	if len(msgs) != 1 {
		t.Fatalf("got %d messages", len(msgs))
	}
	if !msgs[0].TLS || msgs[0].User != "bridge-user" {
		t.Errorf("message went over TLS=%v as %q; want TLS as bridge-user", msgs[0].TLS, msgs[0].User)
	}
	if p := parseMIME(t, msgs[0].Data); p.Subject != "Notifio test email" {
		t.Errorf("subject %q", p.Subject)
	}

	t.Run("without the pin the self-signed cert is refused, with its fingerprint in the hint", func(t *testing.T) {
		cfg := cfg
		cfg.PinnedCertSHA256 = ""
		err := SendTestEmail(context.Background(), cfg, "s3cret-pw")
		temp, hint := Classify(err)
		if err == nil || temp || !strings.Contains(hint, formatFingerprint(mustHex(t, fp))) {
			t.Fatalf("err = %v, temporary %v, hint %q", err, temp, hint)
		}
	})
	t.Run("another certificate than the pinned one is refused", func(t *testing.T) {
		cfg := cfg
		cfg.PinnedCertSHA256 = strings.Repeat("ab", 32)
		err := SendTestEmail(context.Background(), cfg, "s3cret-pw")
		var pme *PinMismatchError
		if !errors.As(err, &pme) {
			t.Fatalf("err = %v, want a PinMismatchError", err)
		}
		if temp, hint := Classify(err); temp || !strings.Contains(hint, "pin") {
			t.Errorf("temporary %v, hint %q", temp, hint)
		}
	})
	if n := ts.AuthTries(); n != 1 {
		t.Errorf("AUTH attempts = %d, want 1 (none over an untrusted connection)", n)
	}
}

func mustHex(t *testing.T, s string) []byte {
	b, err := model.ParseFingerprint(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestImplicitTLS(t *testing.T) {
	cert, fp := selfSigned(t)
	ts := startServer(t, serverOpts{mode: modeImplicit, cert: cert, user: "me@example.com", pass: "app-password"})
	cfg := ts.config(model.SecurityTLS)
	cfg.Username = "me@example.com"
	cfg.PinnedCertSHA256 = fp
	msg, err := ComposeDigest(digestItem(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSender(cfg, "app-password")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Send(context.Background(), msg); err != nil {
		t.Fatalf("Send: %v", err)
	}
	msgs := ts.Messages()
	if len(msgs) != 1 || !msgs[0].TLS || msgs[0].User != "me@example.com" {
		t.Fatalf("messages = %+v", msgs)
	}
}

func TestWrongSecurityForPortFailsFastWithHint(t *testing.T) {
	cert, fp := selfSigned(t)
	const timeout = 2 * time.Second

	t.Run("starttls on an implicit-TLS port", func(t *testing.T) {
		ts := startServer(t, serverOpts{mode: modeImplicit, cert: cert})
		cfg := ts.config(model.SecurityStartTLS)
		cfg.PinnedCertSHA256 = fp
		cfg.Timeout = timeout
		start := time.Now()
		err := SendTestEmail(context.Background(), cfg, "")
		elapsed := time.Since(start)
		if err == nil {
			t.Fatal("no error")
		}
		if elapsed > timeout+time.Second {
			t.Errorf("took %v, want about the timeout %v", elapsed, timeout)
		}
		var wse *WrongSecurityError
		if !errors.As(err, &wse) || !wse.ServerSpeaksTLS {
			t.Errorf("err = %v, want a WrongSecurityError (server speaks TLS)", err)
		}
		temp, hint := Classify(err)
		if temp || !strings.Contains(hint, "Port 465 uses TLS, 587 uses STARTTLS") || !strings.Contains(hint, `"tls"`) {
			t.Errorf("temporary %v, hint %q", temp, hint)
		}
		if !strings.Contains(err.Error(), "465") {
			t.Errorf("message does not mention the ports: %v", err)
		}
	})

	t.Run("tls on a STARTTLS port", func(t *testing.T) {
		ts := startServer(t, serverOpts{mode: modeStartTLS, cert: cert})
		cfg := ts.config(model.SecurityTLS)
		cfg.PinnedCertSHA256 = fp
		cfg.Timeout = timeout
		start := time.Now()
		err := SendTestEmail(context.Background(), cfg, "")
		if elapsed := time.Since(start); elapsed > timeout+time.Second {
			t.Errorf("took %v", elapsed)
		}
		var wse *WrongSecurityError
		if !errors.As(err, &wse) || wse.ServerSpeaksTLS {
			t.Fatalf("err = %v, want a WrongSecurityError (server speaks plain text)", err)
		}
		temp, hint := Classify(err)
		if temp || !strings.Contains(hint, "Port 465 uses TLS, 587 uses STARTTLS") || !strings.Contains(hint, `"starttls"`) {
			t.Errorf("temporary %v, hint %q", temp, hint)
		}
	})

	t.Run("a silent server is a timeout, not wrong security", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				defer c.Close() // accept, say nothing
			}
		}()
		cfg := model.Config{Host: "127.0.0.1", Port: ln.Addr().(*net.TCPAddr).Port, Security: model.SecurityNone,
			From: "a@example.com", To: []string{"b@example.com"}, Timeout: 500 * time.Millisecond}
		err = SendTestEmail(context.Background(), cfg, "")
		var wse *WrongSecurityError
		if err == nil || errors.As(err, &wse) {
			t.Fatalf("err = %v", err)
		}
		if temp, _ := Classify(err); !temp {
			t.Errorf("a silent server should be retried: %v", err)
		}
	})
}

func TestNeverPlainTextWithCredentials(t *testing.T) {
	t.Run("starttls mode, server offers no STARTTLS", func(t *testing.T) {
		ts := startServer(t, serverOpts{mode: modePlain, user: "u", pass: "pw", allowInsecureAuth: true})
		cfg := ts.config(model.SecurityStartTLS)
		cfg.Username = "u"
		err := SendTestEmail(context.Background(), cfg, "pw")
		if err == nil {
			t.Fatal("sent without TLS")
		}
		if temp, hint := Classify(err); temp || !strings.Contains(hint, "STARTTLS") {
			t.Errorf("temporary %v, hint %q", temp, hint)
		}
		if ts.AuthTries() != 0 || len(ts.Messages()) != 0 {
			t.Errorf("AUTH tries %d, messages %d: credentials or mail went out in plain text", ts.AuthTries(), len(ts.Messages()))
		}
	})
	t.Run("none on loopback, server offers only PLAIN", func(t *testing.T) {
		ts := startServer(t, serverOpts{mode: modePlain, user: "u", pass: "pw", allowInsecureAuth: true})
		cfg := ts.config(model.SecurityNone)
		cfg.Username = "u"
		err := SendTestEmail(context.Background(), cfg, "pw")
		if err == nil {
			t.Fatal("password sent in plain text")
		}
		if temp, hint := Classify(err); temp || !strings.Contains(hint, "unencrypted") {
			t.Errorf("temporary %v, hint %q", temp, hint)
		}
		if ts.AuthTries() != 0 {
			t.Errorf("AUTH tries %d, want 0", ts.AuthTries())
		}
	})
}

func TestAuthFailureIsPermanentWithProviderHint(t *testing.T) {
	cert, fp := selfSigned(t)
	ts := startServer(t, serverOpts{mode: modeStartTLS, cert: cert, user: "me@gmail.com", pass: "right"})
	cfg := ts.config(model.SecurityStartTLS)
	cfg.Username = "me@gmail.com"
	cfg.PinnedCertSHA256 = fp
	err := SendTestEmail(context.Background(), cfg, "wrong-password-123")
	var de *DeliveryError
	if !errors.As(err, &de) || de.Code != 535 || de.Temporary {
		t.Fatalf("err = %v, want a permanent 535 DeliveryError", err)
	}
	if !strings.Contains(err.Error(), "Username and Password not accepted") {
		t.Errorf("the server's words are missing: %v", err)
	}
	if !strings.Contains(de.Hint, "check the username and password") && !strings.Contains(de.Hint, "Check the username and password") {
		t.Errorf("generic hint = %q", de.Hint)
	}
	if strings.Contains(err.Error(), "wrong-password-123") {
		t.Errorf("the password is in the error: %v", err)
	}

	// The same reply from Gmail or Outlook gets their specific hint.
	for host, want := range map[string]string{
		"smtp.gmail.com":     "app password: Google account › Security › App passwords",
		"smtp.office365.com": "SMTP AUTH must be enabled for the mailbox",
		"smtp.mail.me.com":   "app-specific password",
	} {
		c := cfg
		c.Host = host
		d := classify(de.Err, c)
		if d.Temporary || !strings.Contains(d.Hint, want) {
			t.Errorf("%s: temporary %v, hint %q, want %q", host, d.Temporary, d.Hint, want)
		}
	}
}

func TestClassify(t *testing.T) {
	tp := func(code int, msg string) error { return &textproto.Error{Code: code, Msg: msg} }
	cases := []struct {
		name string
		err  error
		temp bool
		hint string
	}{
		{"421 greeting", tp(421, "4.3.2 Service not available"), true, "temporarily"},
		{"451", tp(451, "4.3.0 try again"), true, "temporarily"},
		{"454", tp(454, "4.7.0 TLS not available"), true, "retries"},
		{"535", tp(535, "5.7.8 Authentication failed"), false, "username and password"},
		{"534", tp(534, "5.7.9 Application-specific password required"), false, "username and password"},
		{"530 starttls", tp(530, "5.7.0 Must issue a STARTTLS command first"), false, "STARTTLS"},
		{"550", tp(550, "5.1.1 no such user"), false, "To address"},
		{"553", tp(553, "5.1.3 bad address"), false, "To address"},
		{"554", tp(554, "5.7.1 rejected"), false, "refused"},
		{"timeout", &net.OpError{Op: "read", Net: "tcp", Err: timeoutErr{}}, true, "in time"},
		{"refused", &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}, true, "reach"},
		{"dns", &net.DNSError{Err: "no such host", Name: "smtp.example.invalid", IsNotFound: true}, true, "server name"},
		{"deadline", context.DeadlineExceeded, true, "in time"},
		{"not configured", model.ErrNotConfigured, false, "Settings"},
		{"pin", &PinMismatchError{Got: "aa", Want: "bb"}, false, "fingerprint"},
		{"wrong security", &WrongSecurityError{Addr: "x:465", Configured: model.SecurityStartTLS, ServerSpeaksTLS: true}, false, "Port 465 uses TLS, 587 uses STARTTLS"},
	}
	for _, c := range cases {
		temp, hint := Classify(c.err)
		if temp != c.temp || !strings.Contains(hint, c.hint) {
			t.Errorf("%s: Classify = %v, %q; want %v, …%q…", c.name, temp, hint, c.temp, c.hint)
		}
	}
	if temp, hint := Classify(nil); temp || hint != "" {
		t.Errorf("Classify(nil) = %v, %q", temp, hint)
	}
}

type timeoutErr struct{}

func (timeoutErr) Error() string   { return "i/o timeout" }
func (timeoutErr) Timeout() bool   { return true }
func (timeoutErr) Temporary() bool { return true }

func TestRecipientRefusedIsPermanent(t *testing.T) {
	ts := startServer(t, serverOpts{mode: modePlain, onRcpt: func(to string) error {
		return smtpErr(550, "No such user here")
	}})
	err := SendTestEmail(context.Background(), ts.config(model.SecurityNone), "")
	temp, hint := Classify(err)
	if err == nil || temp || !strings.Contains(hint, "To address") || !strings.Contains(err.Error(), "No such user here") {
		t.Fatalf("err = %v, temporary %v, hint %q", err, temp, hint)
	}
}

func TestGreeting421IsTemporary(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			_, _ = c.Write([]byte("421 4.3.2 Too busy, try later\r\n"))
			_ = c.Close()
		}
	}()
	cfg := model.Config{Host: "127.0.0.1", Port: ln.Addr().(*net.TCPAddr).Port, Security: model.SecurityNone,
		From: "a@example.com", To: []string{"b@example.com"}, Timeout: 2 * time.Second}
	err = SendTestEmail(context.Background(), cfg, "")
	var de *DeliveryError
	if !errors.As(err, &de) || de.Code != 421 || !de.Temporary {
		t.Fatalf("err = %v, want a temporary 421", err)
	}
}

func TestSenderRefusesBadSettings(t *testing.T) {
	_, err := NewSender(model.Config{}, "")
	if !errors.Is(err, model.ErrNotConfigured) {
		t.Errorf("empty config: %v", err)
	}
	cfg := model.Config{Host: "smtp.example.com", Port: 587, Security: model.SecurityStartTLS, Username: "me",
		From: "me@example.com", To: []string{"me@example.com"}}
	if _, err := NewSender(cfg, ""); err == nil || !strings.Contains(err.Error(), "password") {
		t.Errorf("missing password: %v", err)
	}
	cfg.Security = model.SecurityNone
	if _, err := NewSender(cfg, "pw"); err == nil || !strings.Contains(err.Error(), "unencrypted") {
		t.Errorf("none to a remote host: %v", err)
	}
}
