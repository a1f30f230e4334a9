package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"notifio/poll/fetch"
	"notifio/storage"

	"notifio/internal/model"
	"notifio/internal/polltest"
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
		{"search", "pause", "x"}, {"search", "resume", "x"}, {"listings"}, {"search", "list"}, {"sites"},
		{"email", "show"}, {"email", "test"}, {"email", "retry"},
		{"email", "set", "--host", "127.0.0.1", "--port", "2525", "--security", "none", "--from", "a@b.de", "--to", "c@d.de"},
	} {
		code, _, errOut := runWith(t, dir, short, "", args...)
		if code != 1 || !strings.Contains(errOut, "Notifio is already running") || !strings.Contains(errOut, "Stop it first") {
			t.Errorf("%v while held: exit %d, stderr %q; want 1 and a plain \"already running\" with what to do", args, code, errOut)
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
	s, err := db.AddSearch(model.Search{Name: tag, URL: "https://example.org/s?q=" + tag, Site: "example.org", Paused: true})
	if err != nil {
		t.Fatal(err)
	}
	l := func(id string) model.Listing {
		return model.Listing{ID: "example.org:" + id, URL: "https://example.org/ad/" + id, Title: "Flat " + id}
	}
	now := time.Now()
	if _, err := polltest.Commit(db, s.ID, []model.Listing{l(tag + "-a")}, now); err != nil {
		t.Fatal(err)
	}
	cr, err := polltest.Commit(db, s.ID, []model.Listing{l(tag + "-a"), l(tag + "-b")}, now)
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

// Item 9: `email set` that fails saves nothing: neither a first configuration
// nor a change over a working one.
func TestEmailSetIsAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	base := []string{"email", "set", "--host", "127.0.0.1", "--port", "2525", "--security", "none", "--from", "a@example.org", "--to", "b@example.org"}
	code, _, errOut := runWith(t, dir, storage.Options{}, "secret\n", append(base, "--password-stdin")...)
	if code != 1 || !strings.Contains(errOut, "username") {
		t.Fatalf("password without user: exit %d, %q", code, errOut)
	}
	if _, out, _ := run(t, dir, "email", "show"); !strings.Contains(out, "Email is not set up") {
		t.Fatalf("a failed first email set saved settings:\n%s", out)
	}
	if code, _, errOut := run(t, dir, base...); code != 0 {
		t.Fatalf("valid email set: %d %q", code, errOut)
	}
	for _, bad := range [][]string{
		{"email", "set", "--host", "127.0.0.1", "--port", "2526", "--security", "none", "--from", "c@example.org", "--to", "d@example.org", "--pin-cert", "zz"},
		{"email", "set", "--host", "127.0.0.1", "--port", "99999", "--security", "none", "--from", "c@example.org", "--to", "d@example.org"},
		append(append([]string{}, base[:4]...), "2527", "--security", "none", "--from", "c@example.org", "--to", "d@example.org", "--password-stdin"),
	} {
		code, _, errOut := runWith(t, dir, storage.Options{}, "secret\n", bad...)
		if code == 0 {
			t.Errorf("%v accepted", bad)
		}
		_, out, _ := run(t, dir, "email", "show")
		if !strings.Contains(out, "127.0.0.1:2525") || !strings.Contains(out, "b@example.org") {
			t.Errorf("%v failed (%q) but changed the saved settings:\n%s", bad, errOut, out)
		}
	}
}

// Item 4: spaces and non-ASCII in a pasted URL's query are percent-encoded as a
// browser does, when the search is saved and when it is checked.
func TestSearchURLQueryIsPercentEncoded(t *testing.T) {
	var mu sync.Mutex
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.RequestURI)
		mu.Unlock()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<html><head><script type="application/ld+json">{"@type":"ItemList","itemListElement":[
{"@type":"ListItem","item":{"@type":"Apartment","name":"Flat 1","url":"/expose/1"}}]}</script></head><body></body></html>`)
	}))
	defer srv.Close()
	dir := t.TempDir()
	raw := srv.URL + "/echo?a=1 b=2&c=ä#top"
	code, out, errOut := run(t, dir, "check", raw)
	if code != 0 || !strings.Contains(out, "Found 1 listings") {
		t.Fatalf("check: exit %d\n%s\n%s", code, out, errOut)
	}
	mu.Lock()
	if len(got) != 1 || got[0] != "/echo?a=1%20b=2&c=%C3%A4" {
		t.Errorf("the server saw %q, want /echo?a=1%%20b=2&c=%%C3%%A4", got)
	}
	mu.Unlock()
	code, out, errOut = run(t, dir, "search", "add", "--json", raw)
	if code != 0 || !strings.Contains(out, `"url": "`+srv.URL+`/echo?a=1%20b=2\u0026c=%C3%A4"`) {
		t.Errorf("search add saved: exit %d\n%s\n%s", code, out, errOut)
	}
}

// Item 5: a selector the CSS parser refuses is refused when the search is
// saved, in the parser's words, and nothing is saved.
func TestSearchAddRejectsInvalidSelector(t *testing.T) {
	dir := t.TempDir()
	code, _, errOut := run(t, dir, "search", "add", "--item", "###bad[", "https://www.kleinanzeigen.de/s-wohnung/c203")
	if code != 1 || !strings.Contains(errOut, "###bad[") || !strings.Contains(errOut, "not valid CSS") {
		t.Errorf("bad selector: exit %d, %q", code, errOut)
	}
	if _, out, _ := run(t, dir, "search", "list"); !strings.Contains(out, "No searches yet") {
		t.Errorf("a search with a bad selector was saved:\n%s", out)
	}
}

// Item 10: input bounds of `search add` and the global --data.
func TestSearchAddInputBounds(t *testing.T) {
	dir := t.TempDir()
	const u = "https://www.kleinanzeigen.de/s-wohnung/c203"
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"search", "add", "--every", "0", u}, 2, "--every 0"},
		{[]string{"search", "add", "--every", "-1s", u}, 1, "too short"},
		{[]string{"search", "add", "--every", "876000h", u}, 1, "too long"},
		{[]string{"search", "add", "http://127.0.0.1:99999/s"}, 1, "from 1 to 65535"},
		{[]string{"search", "add", "--name", "a\r\nb", u}, 1, "on one line"},
		{[]string{"search", "add", "--name", "a\x1b[31mred", u}, 1, "on one line"},
	} {
		code, _, errOut := run(t, dir, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("%q: exit %d, %q; want %d and %q", tc.args, code, errOut, tc.code, tc.want)
		}
	}
	if _, out, _ := run(t, dir, "search", "list"); !strings.Contains(out, "No searches yet") {
		t.Fatalf("a refused search was saved:\n%s", out)
	}
	if code, _, errOut := run(t, dir, "search", "add", "--name", "first", u); code != 0 {
		t.Fatalf("add: %d %q", code, errOut)
	}
	for _, dup := range []string{u, u + "#frag", "HTTPS://WWW.Kleinanzeigen.de/s-wohnung/c203"} {
		code, _, errOut := run(t, dir, "search", "add", dup)
		if code != 1 || !strings.Contains(errOut, "already watches this page") || !strings.Contains(errOut, `"first"`) {
			t.Errorf("duplicate %q: exit %d, %q", dup, code, errOut)
		}
	}
	var out, errb bytes.Buffer
	env := &Env{Stdout: &out, Stderr: &errb, Version: "test"}
	for _, args := range [][]string{{"--data", "", "search", "list"}, {"--data=", "sites"}} {
		if code := Run(context.Background(), env, args); code != 2 || !strings.Contains(errb.String(), "empty directory") {
			t.Errorf("%q: exit %d, %q", args, code, errb.String())
		}
	}
}

// Item 6: `check` takes the selector flags the README promises, and uses them.
func TestCheckTakesSelectors(t *testing.T) {
	srv := resultsSite(t)
	dir := t.TempDir()
	code, out, errOut := run(t, dir, "check", "--item", "article.card", "--link", "a", "--title", "h2", srv.URL+"/s")
	if code != 0 || !strings.Contains(out, "Found 2 listings") || !strings.Contains(out, "Method:  selectors") {
		t.Errorf("check with selectors: exit %d\n%s\n%s", code, out, errOut)
	}
	code, _, errOut = run(t, dir, "check", "--item", "###bad[", srv.URL+"/s")
	if code != 1 || !strings.Contains(errOut, "not valid CSS") {
		t.Errorf("check with a bad selector: exit %d, %q", code, errOut)
	}
}

// manySite serves a results page of n listings (enough to grow the database).
func manySite(t *testing.T, n int) *httptest.Server {
	t.Helper()
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"@type":"ListItem","item":{"@type":"Apartment","name":"Flat %d with a long title, two rooms, balcony, Neukölln","url":"/expose/%d"}}`, i, i)
	}
	page := `<html><head><script type="application/ld+json">{"@type":"ItemList","itemListElement":[` + b.String() + `]}</script></head><body></body></html>`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, page)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// Item 8: a full disk (the database capped at its size: bbolt fails the growth
// as the file system would) is reported as a full disk, `once` exits non-zero,
// and nothing is lost: with room again, the listings are saved.
func TestOnceOnAFullDisk(t *testing.T) {
	srv := manySite(t, 900) // (extraction reads at most 1,000 a page)
	dir := t.TempDir()
	if code, _, errOut := run(t, dir, "search", "add", "--name", "big", srv.URL+"/s"); code != 0 {
		t.Fatalf("add: %q", errOut)
	}
	st, err := os.Stat(filepath.Join(dir, storage.FileName))
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runWith(t, dir, storage.Options{MaxSize: int(st.Size())}, "", "once")
	if code == 0 || !strings.Contains(errOut, "disk holding Notifio's data is full") || !strings.Contains(errOut, "Nothing is lost") {
		t.Errorf("once on a full disk: exit %d\n%s\n%s", code, out, errOut)
	}
	if strings.Contains(out+errOut, "could not be read") {
		t.Errorf("a full disk reported as a site problem:\n%s\n%s", out, errOut)
	}
	code, out, errOut = run(t, dir, "once")
	if code != 0 || !strings.Contains(out, "Found 900 listings") {
		t.Fatalf("once with room again: exit %d\n%s\n%s", code, out, errOut)
	}
	if _, out, _ := run(t, dir, "listings", "-n", "0", "--json"); strings.Count(out, `"first_seen"`) != 900 {
		t.Errorf("%d listings saved, want 900", strings.Count(out, `"first_seen"`))
	}
}

// Item 13: `extract FILE` applies the fetcher's byte cap: a 50 MB file is
// refused in words, a file at the cap is read.
func TestExtractAppliesTheFetchCap(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.html")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(50 << 20); err != nil { // sparse: 50 MB without writing them
		t.Fatal(err)
	}
	f.Close()
	code, _, errOut := run(t, dir, "extract", "--url", "https://www.kleinanzeigen.de/s-wohnung/c203", big)
	if code != 1 || !strings.Contains(errOut, "52.4 MB") || !strings.Contains(errOut, "at most 5.2 MB") {
		t.Errorf("50 MB file: exit %d, %q", code, errOut)
	}
	page, err := os.ReadFile(fixture(t, "kleinanzeigen-results.html"))
	if err != nil {
		t.Fatal(err)
	}
	atCap := filepath.Join(dir, "cap.html")
	padded := append(page, bytes.Repeat([]byte(" "), int(fetch.DefaultMaxBody)-len(page))...)
	if err := os.WriteFile(atCap, padded, 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := run(t, dir, "extract", "--url", "https://www.kleinanzeigen.de/s-wohnung/c203", atCap); code != 0 {
		t.Errorf("file at the cap: exit %d, %q", code, errOut)
	}
}

func TestPrintableStripsTerminalControls(t *testing.T) {
	for in, want := range map[string]string{
		"Flat 1":                             "Flat 1",
		"a\x1b[31mred\x1b[0m":                "ared",
		"x\x1b]0;owned\x07y":                 "xy",
		"x\x1b]8;;https://e.x\x1b\\y":        "xy",
		"two\r\nlines\tand\x00nul":           "two  lines and nul",
		"bidi \u202egnp.exe":                 "bidi  gnp.exe",
		"c1 \u009b31mcsi":                    "c1 csi",
		"dangling \x1b":                      "dangling ",
		"Wohnung in München, 3 Zi., 1.250 €": "Wohnung in München, 3 Zi., 1.250 €",
	} {
		if got := printable(in); got != want {
			t.Errorf("printable(%q) = %q, want %q", in, got, want)
		}
	}
}

// Item 3 (the CLI's part): stored text with terminal escapes and line breaks
// (saved before names were checked, or a title from a page) is printed inert.
func TestTablesPrintStoredTextInert(t *testing.T) {
	dir := t.TempDir()
	db, err := storage.Open(dir, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := db.AddSearch(model.Search{Name: "evil\x1b[2J\r\nname", URL: "https://example.org/s", Site: "example.org"})
	if err != nil {
		t.Fatal(err)
	}
	l := model.Listing{ID: "example.org:1", URL: "https://example.org/ad/1", Title: "Flat\x1b]0;pwned\x07 \u202eevil\nline", Price: "1\r000 €"}
	if _, err := polltest.Commit(db, s.ID, []model.Listing{l}, time.Now()); err != nil {
		t.Fatal(err)
	}
	db.Close()
	for _, args := range [][]string{{"search", "list"}, {"listings"}} {
		code, out, errOut := run(t, dir, args...)
		if code != 0 {
			t.Fatalf("%v: %d %q", args, code, errOut)
		}
		lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
		if strings.ContainsFunc(out, func(r rune) bool { return r != '\n' && unsafeRune(r) }) || len(lines) != 2 {
			t.Errorf("%v printed controls or broke its rows:\n%q", args, out)
		}
	}
}

// Issue 35: a check that `once` could not save (a full disk) is known to a
// later, separate `notifio status` (before, that one said "All healthy": the
// database could not be written, and the failure lived only in once's
// memory). The next saved check clears it.
func TestStatusKnowsACheckOnceCouldNotSave(t *testing.T) {
	srv := manySite(t, 900)
	dir := t.TempDir()
	if code, _, errOut := run(t, dir, "search", "add", "--name", "big", srv.URL+"/s"); code != 0 {
		t.Fatalf("add: %q", errOut)
	}
	st, err := os.Stat(filepath.Join(dir, storage.FileName))
	if err != nil {
		t.Fatal(err)
	}
	if code, _, _ := runWith(t, dir, storage.Options{MaxSize: int(st.Size())}, "", "once"); code == 0 {
		t.Fatal("once on a full disk succeeded")
	}
	code, out, errOut := run(t, dir, "status")
	if code != 1 || !strings.Contains(out, "could not save what it found") || !strings.Contains(out, "the disk holding its data is full") ||
		!strings.Contains(out, "Free some space") {
		t.Errorf("status after once could not save: exit %d\n%s\n%s", code, out, errOut)
	}
	if code, out, errOut := run(t, dir, "once"); code != 0 {
		t.Fatalf("once with room again: exit %d\n%s\n%s", code, out, errOut)
	}
	if code, out, errOut := run(t, dir, "status"); code != 0 || strings.Contains(out, "could not save") {
		t.Errorf("status after a saved check: exit %d\n%s\n%s", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "not-saved.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the marker stays after a saved check: %v", err)
	}
}
