package notify

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log"
	"math/big"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net"
	netmail "net/mail"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"notifio/internal/model"
)

// ---- a real SMTP server on loopback (emersion/go-smtp) ----

type serverMode int

const (
	modePlain    serverMode = iota // no TLS at all
	modeStartTLS                   // plain start, STARTTLS offered
	modeImplicit                   // TLS from the first byte (465-style)
)

type received struct {
	From string
	To   []string
	Data []byte
	TLS  bool
	User string
}

type serverOpts struct {
	mode serverMode
	cert tls.Certificate
	// user/pass, when set, make AUTH PLAIN required before MAIL.
	user, pass string
	// allowInsecureAuth offers AUTH without TLS.
	allowInsecureAuth bool
	// onMail/onData may refuse the n-th MAIL/DATA (1-based, counted across
	// connections) by returning an error (use *smtp.SMTPError for a code).
	onMail func(n int) error
	onRcpt func(to string) error
	onData func(n int) error
	// afterData runs after a message was read in full, before the reply.
	afterData func(r received)
	// dataDelay slows every DATA down.
	dataDelay time.Duration
}

type testServer struct {
	t    *testing.T
	opts serverOpts
	addr string
	port int

	mu        sync.Mutex
	srv       *smtp.Server
	ln        net.Listener
	msgs      []received
	authTries int
	mailN     int
	dataN     int
	sessions  int
	active    int
	maxActive int
}

func startServer(t *testing.T, opts serverOpts) *testServer {
	t.Helper()
	ts := &testServer{t: t, opts: opts}
	if err := ts.listen("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ts.Stop)
	return ts
}

func (ts *testServer) listen(addr string) error {
	var ln net.Listener
	var err error
	if ts.opts.mode == modeImplicit {
		ln, err = tls.Listen("tcp", addr, &tls.Config{Certificates: []tls.Certificate{ts.opts.cert}})
	} else {
		ln, err = net.Listen("tcp", addr)
	}
	if err != nil {
		return err
	}
	s := smtp.NewServer(smtp.BackendFunc(ts.newSession))
	s.Domain = "localhost"
	s.ReadTimeout = 10 * time.Second
	s.WriteTimeout = 10 * time.Second
	s.AllowInsecureAuth = ts.opts.allowInsecureAuth
	s.ErrorLog = log.New(io.Discard, "", 0)
	if ts.opts.mode == modeStartTLS {
		s.TLSConfig = &tls.Config{Certificates: []tls.Certificate{ts.opts.cert}}
	}
	ts.mu.Lock()
	ts.srv, ts.ln = s, ln
	ts.addr = ln.Addr().String()
	ts.port = ln.Addr().(*net.TCPAddr).Port
	ts.mu.Unlock()
	go func() { _ = s.Serve(ln) }()
	return nil
}

// Stop closes the server; connections to its port are then refused.
func (ts *testServer) Stop() {
	ts.mu.Lock()
	s, ln := ts.srv, ts.ln
	ts.srv, ts.ln = nil, nil
	ts.mu.Unlock()
	if ln != nil {
		_ = ln.Close() // Serve may not have registered it yet
	}
	if s != nil {
		_ = s.Close()
	}
}

// Restart listens again on the same port.
func (ts *testServer) Restart() error {
	ts.Stop()
	var err error
	for range 50 { // the old socket may linger a moment
		if err = ts.listen(ts.addr); err == nil {
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return err
}

func (ts *testServer) Messages() []received {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return append([]received(nil), ts.msgs...)
}

func (ts *testServer) AuthTries() int {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.authTries
}

func (ts *testServer) MaxActive() int {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.maxActive
}

// config is a client Config for this server.
func (ts *testServer) config(sec model.Security) model.Config {
	return model.Config{
		Host: "127.0.0.1", Port: ts.port, Security: sec,
		From: "Notifio <alerts@example.com>", To: []string{"me@example.com"},
		Timeout: 5 * time.Second,
	}
}

func (ts *testServer) newSession(c *smtp.Conn) (smtp.Session, error) {
	ts.mu.Lock()
	ts.sessions++
	ts.active++
	ts.maxActive = max(ts.maxActive, ts.active)
	ts.mu.Unlock()
	return &session{ts: ts, conn: c}, nil
}

type session struct {
	ts     *testServer
	conn   *smtp.Conn
	authed bool
	user   string
	from   string
	to     []string
}

var _ smtp.AuthSession = (*session)(nil)

func (s *session) AuthMechanisms() []string {
	if s.ts.opts.user == "" {
		return nil
	}
	return []string{sasl.Plain}
}

func (s *session) Auth(mech string) (sasl.Server, error) {
	s.ts.mu.Lock()
	s.ts.authTries++
	s.ts.mu.Unlock()
	return sasl.NewPlainServer(func(identity, username, password string) error {
		if username != s.ts.opts.user || password != s.ts.opts.pass {
			return &smtp.SMTPError{Code: 535, EnhancedCode: smtp.EnhancedCode{5, 7, 8},
				Message: "Username and Password not accepted"}
		}
		s.authed, s.user = true, username
		return nil
	}), nil
}

func (s *session) Mail(from string, _ *smtp.MailOptions) error {
	if s.ts.opts.user != "" && !s.authed {
		return &smtp.SMTPError{Code: 530, EnhancedCode: smtp.EnhancedCode{5, 7, 0}, Message: "Authentication required"}
	}
	s.ts.mu.Lock()
	s.ts.mailN++
	n := s.ts.mailN
	s.ts.mu.Unlock()
	if s.ts.opts.onMail != nil {
		if err := s.ts.opts.onMail(n); err != nil {
			return err
		}
	}
	s.from = from
	return nil
}

func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	if s.ts.opts.onRcpt != nil {
		if err := s.ts.opts.onRcpt(to); err != nil {
			return err
		}
	}
	s.to = append(s.to, to)
	return nil
}

func (s *session) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	if s.ts.opts.dataDelay > 0 {
		time.Sleep(s.ts.opts.dataDelay)
	}
	s.ts.mu.Lock()
	s.ts.dataN++
	n := s.ts.dataN
	s.ts.mu.Unlock()
	if s.ts.opts.onData != nil {
		if err := s.ts.opts.onData(n); err != nil {
			return err
		}
	}
	_, isTLS := s.conn.TLSConnectionState()
	rec := received{From: s.from, To: append([]string(nil), s.to...), Data: b, TLS: isTLS, User: s.user}
	s.ts.mu.Lock()
	s.ts.msgs = append(s.ts.msgs, rec)
	s.ts.mu.Unlock()
	if s.ts.opts.afterData != nil {
		s.ts.opts.afterData(rec)
	}
	return nil
}

func (s *session) Reset() { s.from, s.to = "", nil }

func (s *session) Logout() error {
	s.ts.mu.Lock()
	s.ts.active--
	s.ts.mu.Unlock()
	return nil
}

func smtpErr(code int, msg string) error {
	return &smtp.SMTPError{Code: code, EnhancedCode: smtp.EnhancedCode{code / 100, 0, 0}, Message: msg}
}

// ---- certificates ----

// selfSigned makes a certificate for 127.0.0.1 and localhost signed by itself,
// and its SHA-256 fingerprint (plain hex, as a user might paste it).
func selfSigned(t *testing.T) (tls.Certificate, string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(time.Now().UnixNano()),
		Subject:               pkix.Name{CommonName: "notifio test bridge"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IPAddresses:           []net.IP{net.ParseIP("127.0.0.1")},
		DNSNames:              []string{"localhost"},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(der)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, hex.EncodeToString(sum[:])
}

// ---- MIME ----

type parsedMsg struct {
	Header  netmail.Header
	Subject string
	Text    string
	HTML    string
	Types   []string // content types of the leaf parts
}

func parseMIME(t *testing.T, raw []byte) parsedMsg {
	t.Helper()
	m, err := netmail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("received message does not parse: %v\n%s", err, raw)
	}
	var dec mime.WordDecoder
	subj, err := dec.DecodeHeader(m.Header.Get("Subject"))
	if err != nil {
		t.Fatalf("subject: %v", err)
	}
	p := parsedMsg{Header: m.Header, Subject: subj}
	walkPart(t, m.Header.Get("Content-Type"), m.Header.Get("Content-Transfer-Encoding"), m.Body, &p)
	return p
}

func walkPart(t *testing.T, ct, cte string, body io.Reader, p *parsedMsg) {
	t.Helper()
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil {
		t.Fatalf("content type %q: %v", ct, err)
	}
	if strings.HasPrefix(mt, "multipart/") {
		mr := multipart.NewReader(body, params["boundary"])
		for {
			part, err := mr.NextRawPart()
			if errors.Is(err, io.EOF) {
				return
			}
			if err != nil {
				t.Fatalf("multipart: %v", err)
			}
			walkPart(t, part.Header.Get("Content-Type"), part.Header.Get("Content-Transfer-Encoding"), part, p)
		}
	}
	var r io.Reader = body
	switch strings.ToLower(cte) {
	case "quoted-printable":
		r = quotedprintable.NewReader(body)
	case "base64":
		r = base64.NewDecoder(base64.StdEncoding, body)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("part body: %v", err)
	}
	p.Types = append(p.Types, mt)
	switch mt {
	case "text/plain":
		p.Text = string(b)
	case "text/html":
		p.HTML = string(b)
	}
}

// ---- an in-memory outbox (a test double of storage's outbox) ----

type memOutbox struct {
	mu     sync.Mutex
	items  map[uint64]*model.OutboxItem
	nextID uint64
	// counts of calls, for assertions
	retries int
}

func newMemOutbox() *memOutbox {
	return &memOutbox{items: map[uint64]*model.OutboxItem{}}
}

// Add queues a digest for n listings of a search on example-immo.de, due at due.
func (m *memOutbox) Add(name string, n int, due time.Time) uint64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.nextID++
	id := m.nextID
	item := &model.OutboxItem{
		ID: id, SearchID: "s1", SearchName: name,
		SearchURL: "https://www.example-immo.de/search?city=berlin",
		Created:   due, MessageID: fmt.Sprintf("<outbox-%d.s1.test@notifio.local>", id),
		State: model.OutboxPending, NextAttempt: due,
	}
	for i := range n {
		item.Listings = append(item.Listings, model.Listing{
			ID:    "example-immo.de:" + strconv.Itoa(int(id)*100+i),
			URL:   fmt.Sprintf("https://www.example-immo.de/expose/%d", int(id)*100+i),
			Title: fmt.Sprintf("Flat %d-%d", id, i), Price: "1.200 €", Size: "65 m²", Rooms: "2",
			Location: "Berlin-Neukölln",
		})
	}
	m.items[id] = item
	return id
}

func (m *memOutbox) Put(item model.OutboxItem) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.items[item.ID] = &item
	m.nextID = max(m.nextID, item.ID)
}

func (m *memOutbox) Get(id uint64) model.OutboxItem {
	m.mu.Lock()
	defer m.mu.Unlock()
	return *m.items[id]
}

func (m *memOutbox) DueOutbox(now time.Time, limit int) ([]model.OutboxItem, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []model.OutboxItem
	for _, it := range m.items {
		if it.State == model.OutboxPending && !it.NextAttempt.After(now) {
			out = append(out, *it)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

func (m *memOutbox) MarkSent(id uint64, at time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	it, ok := m.items[id]
	if !ok {
		return fmt.Errorf("no item %d", id)
	}
	it.State, it.SentAt, it.LastError, it.Hint = model.OutboxSent, at, "", ""
	return nil
}

func (m *memOutbox) MarkRetry(id uint64, attempts int, next time.Time, lastErr string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	it, ok := m.items[id]
	if !ok {
		return fmt.Errorf("no item %d", id)
	}
	m.retries++
	it.State, it.Attempts, it.NextAttempt, it.LastError = model.OutboxPending, attempts, next, lastErr
	return nil
}

func (m *memOutbox) MarkNeedsAttention(id uint64, lastErr, hint string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	it, ok := m.items[id]
	if !ok {
		return fmt.Errorf("no item %d", id)
	}
	it.State, it.LastError, it.Hint = model.OutboxNeedsAttention, lastErr, hint
	return nil
}

func (m *memOutbox) NextOutboxDue() (time.Time, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var next time.Time
	found := false
	for _, it := range m.items {
		if it.State == model.OutboxPending && (!found || it.NextAttempt.Before(next)) {
			next, found = it.NextAttempt, true
		}
	}
	return next, found
}

// ---- a fake clock ----

type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{t: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// staticCfg is a cfgFn for NewRelay.
func staticCfg(cfg model.Config, password string) func() (model.Config, string, error) {
	return func() (model.Config, string, error) { return cfg, password, nil }
}
