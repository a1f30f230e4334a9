package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"notifio/storage"
)

// runWith runs one command line in-process with storage options (a short lock
// timeout, a size cap) and standard input.
func runWith(t *testing.T, dir string, opts storage.Options, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := &Env{Stdout: &out, Stderr: &errb, Stdin: strings.NewReader(stdin), Version: "test", dbOptions: opts}
	code = Run(context.Background(), env, append([]string{"--data", dir}, args...))
	return code, out.String(), errb.String()
}

// resultsSite serves a results page with two listings.
func resultsSite(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<html><head><title>Wohnungen</title><script type="application/ld+json">{"@type":"ItemList","itemListElement":[
{"@type":"ListItem","item":{"@type":"Apartment","name":"Flat 1","url":"/expose/1"}},
{"@type":"ListItem","item":{"@type":"Apartment","name":"Flat 2","url":"/expose/2"}}]}</script></head>
<body><main><article class="card"><a href="/expose/1"><h2>Flat 1</h2></a></article><article class="card"><a href="/expose/2"><h2>Flat 2</h2></a></article></main></body></html>`)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// Item 1: while another Notifio holds the database, `check` works without it
// (and says so) and every other command either works or says plainly that
// Notifio is already running and what to do; none panics.
func TestCommandsWhileDatabaseIsHeld(t *testing.T) {
	srv := resultsSite(t)
	dir := t.TempDir()
	held, err := storage.Open(dir, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	short := storage.Options{LockTimeout: 50 * time.Millisecond}

	code, out, errOut := runWith(t, dir, short, "", "check", srv.URL+"/s")
	if code != 0 || !strings.Contains(out, "Found 2 listings") || !strings.Contains(errOut, "Notifio is running") {
		t.Errorf("check while held: exit %d\n%s\n%s", code, out, errOut)
	}
	for _, args := range [][]string{
		{"run"}, {"once"}, {"search", "add", srv.URL + "/s"}, {"search", "remove", "x"},
		{"search", "pause", "x"}, {"search", "resume", "x"}, {"listings"},
		{"email", "show"}, {"email", "test"}, {"email", "retry"},
		{"email", "set", "--host", "127.0.0.1", "--port", "2525", "--security", "none", "--from", "a@b.de", "--to", "c@d.de"},
	} {
		code, _, errOut := runWith(t, dir, short, "", args...)
		if code != 1 || !strings.Contains(errOut, "Notifio is already running") || !strings.Contains(errOut, "Stop it first") {
			t.Errorf("%v while held: exit %d, stderr %q; want 1 and a plain \"already running\" with what to do", args, code, errOut)
		}
	}
	for _, args := range [][]string{{"search", "list"}, {"sites"}} {
		code, _, errOut := runWith(t, dir, short, "", args...)
		if code != 1 || !strings.Contains(errOut, "has not written its status yet") {
			t.Errorf("%v while held without status file: exit %d, %q", args, code, errOut)
		}
	}
}

// smtpSink is an in-process SMTP server on loopback that keeps what it gets.
type smtpSink struct {
	mu   sync.Mutex
	msgs []string
	addr string
}

func (m *smtpSink) NewSession(_ *smtp.Conn) (smtp.Session, error) { return &smtpSinkSession{m: m}, nil }

type smtpSinkSession struct{ m *smtpSink }

func (s *smtpSinkSession) Mail(string, *smtp.MailOptions) error { return nil }
func (s *smtpSinkSession) Rcpt(string, *smtp.RcptOptions) error { return nil }
func (s *smtpSinkSession) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.m.mu.Lock()
	s.m.msgs = append(s.m.msgs, string(b))
	s.m.mu.Unlock()
	return nil
}
func (s *smtpSinkSession) Reset()        {}
func (s *smtpSinkSession) Logout() error { return nil }

func (m *smtpSink) count() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.msgs)
}

func startSMTPSink(t *testing.T) *smtpSink {
	t.Helper()
	sink := &smtpSink{}
	srv := smtp.NewServer(sink)
	srv.AllowInsecureAuth = true
	srv.Domain = "localhost"
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	sink.addr = l.Addr().String()
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { _ = srv.Close() })
	return sink
}

// attentionItem queues one digest for a paused search and marks it as needing
// attention, as a 535 from the server would.
func attentionItem(t *testing.T, dir, tag string) {
	t.Helper()
	db, err := storage.Open(dir, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s, err := db.AddSearch(storage.Search{Name: tag, URL: "https://example.org/s?q=" + tag, Site: "example.org", Paused: true})
	if err != nil {
		t.Fatal(err)
	}
	l := func(id string) storage.Listing {
		return storage.Listing{ID: "example.org:" + id, URL: "https://example.org/ad/" + id, Title: "Flat " + id}
	}
	now := time.Now()
	if _, err := db.CommitPoll(s.ID, []storage.Listing{l(tag + "-a")}, now); err != nil {
		t.Fatal(err)
	}
	cr, err := db.CommitPoll(s.ID, []storage.Listing{l(tag + "-a"), l(tag + "-b")}, now)
	if err != nil || cr.OutboxID == 0 {
		t.Fatalf("no digest queued: %+v %v", cr, err)
	}
	if err := db.MarkNeedsAttention(cr.OutboxID, "535 5.7.8 authentication failed", "check the password"); err != nil {
		t.Fatal(err)
	}
}

// Item 2: emails that need attention go out once the settings are fixed: new
// settings or a successful test queue them again, and so does `email retry`.
func TestEmailsNeedingAttentionAreRequeued(t *testing.T) {
	sink := startSMTPSink(t)
	host, port, _ := net.SplitHostPort(sink.addr)
	dir := t.TempDir()
	attentionItem(t, dir, "one")
	if code, _, errOut := run(t, dir, "once"); code != 1 || !strings.Contains(errOut, "535") || !strings.Contains(errOut, "notifio email retry") {
		t.Fatalf("once before the fix: exit %d, %q", code, errOut)
	}
	code, out, errOut := run(t, dir, "email", "set", "--host", host, "--port", port, "--security", "none", "--from", "a@example.org", "--to", "b@example.org")
	if code != 0 || !strings.Contains(out, "1 email(s) that needed attention are queued again") {
		t.Fatalf("email set: exit %d\n%s\n%s", code, out, errOut)
	}
	if code, _, errOut := run(t, dir, "once", "--wait", "10s"); code != 0 || sink.count() != 1 {
		t.Fatalf("once after email set: exit %d, %d emails, %q", code, sink.count(), errOut)
	}

	attentionItem(t, dir, "two")
	code, out, errOut = run(t, dir, "email", "test")
	if code != 0 || !strings.Contains(out, "1 email(s) that needed attention are queued again") {
		t.Fatalf("email test: exit %d\n%s\n%s", code, out, errOut)
	}
	attentionItem(t, dir, "three")
	code, out, errOut = run(t, dir, "email", "retry")
	if code != 0 || !strings.Contains(out, "1 email(s) that needed attention are queued again") {
		t.Fatalf("email retry: exit %d\n%s\n%s", code, out, errOut)
	}
	// The test email, then the two digests.
	if code, _, errOut := run(t, dir, "once", "--wait", "10s"); code != 0 || sink.count() != 4 {
		t.Fatalf("once after test and retry: exit %d, %d emails, %q", code, sink.count(), errOut)
	}
}
