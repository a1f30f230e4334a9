package ui

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"notifio/notify"
	"notifio/poll"
	"notifio/poll/fetch"
	"notifio/storage"

	"notifio/internal/model"

	"notifio/internal/secrets"
)

// These tests run the window over the real watcher and delivery operations (a
// *poll.Service and a *notify.Ops) on a real bbolt database, loopback HTTP
// sites and a loopback SMTP server. The service
// publishes from its own goroutines; every UI update goes through the recording
// dispatcher and runs on the test goroutine, so -race sees one UI goroutine.

// realHarness is the window over a real *poll.Service.
type realHarness struct {
	t   *testing.T
	dir string
	db  *storage.DB
	svc *poll.Service
	q   *queue
	u   *UI
}

func newRealHarness(t *testing.T) *realHarness {
	t.Helper()
	dir := t.TempDir()
	db, err := storage.Open(dir, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	fet := fetch.New(fetch.Options{NoProxy: true})
	svc, err := poll.New(db, poll.Options{
		DataDir: dir, Fetcher: fet,
		SiteGap: 10 * time.Millisecond, RequestTimeout: 10 * time.Second,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	h := &realHarness{t: t, dir: dir, db: db, svc: svc, q: newQueue()}
	ops := notify.NewOps(db, notify.OpsOptions{Secrets: secrets.NewSecrets(dir),
		Requeued: svc.OutboxRequeued, Changed: svc.OutboxChanged})
	h.u = New(test.NewTempApp(t), NewBackend(svc, ops), Options{Dispatch: h.q.dispatch, TickEvery: time.Hour})
	h.u.win.Resize(fyne.NewSize(900, 620))
	h.u.win.Show()
	t.Cleanup(func() {
		h.u.Close()
		svc.Close()
		fet.Close()
		_ = db.Close()
	})
	return h
}

// view returns a harness view for its text helpers (no fake backend behind it).
func (h *realHarness) view() *harness { return &harness{t: h.t, u: h.u} }

// stored returns the searches in the database.
func (h *realHarness) stored() []model.Search {
	h.t.Helper()
	list, err := h.db.ListSearches()
	if err != nil {
		h.t.Fatal(err)
	}
	return list
}

// resultsPage is a small results page; the selectors below find its listings.
const resultsPage = `<!doctype html><html><head><title>Wohnungen in Kreuzberg | Wohnen Ost</title></head><body>
<ul class="results">
<li class="item"><a href="/w/1"><h2>2 Zimmer am Kanal</h2></a><span class="price">980 €</span></li>
<li class="item"><a href="/w/2"><h2>Altbau mit Balkon</h2></a><span class="price">1.150 €</span></li>
<li class="item"><a href="/w/3"><h2>Dachgeschoss</h2></a><span class="price">1.190 €</span></li>
</ul></body></html>`

func TestRealAddWithAnInvalidURLShowsTheErrorAndSavesNothing(t *testing.T) {
	h := newRealHarness(t)
	v := h.view()
	for _, c := range []struct{ url, want string }{
		{"kleinanzeigen.de/s-wohnung-mieten", "must start with https://"},
		{"ftp://example.org/list", "only watch web pages"},
		{"https://", "no website name"},
		// The window lets this one through; the watcher's own check refuses it.
		{"https://me:secret@www.example.org/search", "user name or password"},
	} {
		test.Tap(h.u.searches.add)
		e := h.u.searches.editor
		test.Type(e.url, c.url)
		test.Tap(e.saveBtn)
		if !e.problem.Visible() && !e.saveBtn.Disabled() {
			t.Fatalf("%q: neither a problem nor a save under way", c.url)
		}
		if e.saveBtn.Disabled() {
			h.q.runNext(t) // passed the window's check: the watcher answers off the UI goroutine
		}
		if !e.problem.Visible() || !strings.Contains(e.problem.Text, c.want) {
			t.Errorf("%q: the dialog says %q (visible %v), want it to contain %q", c.url, e.problem.Text, e.problem.Visible(), c.want)
		}
		if strings.Contains(e.problem.Text, "poll:") {
			t.Errorf("%q: the user sees the package prefix: %q", c.url, e.problem.Text)
		}
		if got := h.stored(); len(got) != 0 {
			t.Fatalf("%q: saved %+v", c.url, got)
		}
		if !v.hasText("Add a search") {
			t.Errorf("%q: the dialog closed on an invalid address", c.url)
		}
		test.Tap(e.cancel)
	}
	h.q.runAll()
	if len(h.u.searches.rows) != 0 {
		t.Errorf("the list shows %d searches after invalid adds", len(h.u.searches.rows))
	}
}

func TestRealAddAValidSearchListsItAndTheBaselineIsShown(t *testing.T) {
	var hits atomic.Int32
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, resultsPage)
	}))
	defer site.Close()
	h := newRealHarness(t)
	v := h.view()

	test.Tap(h.u.searches.emptyAdd)
	e := h.u.searches.editor
	test.Type(e.url, site.URL+"/wohnungen/kreuzberg")
	e.advanced.Open(0)
	test.Type(e.item, "li.item")
	test.Type(e.link, "a")
	test.Type(e.title, "h2")
	test.Type(e.price, ".price")

	// Test this search: the dry run goes to the site, suggests a name, saves nothing.
	test.Tap(e.testBtn)
	h.q.runNext(t)
	if !strings.Contains(e.outcome.Text, "Found 3 listings") {
		t.Errorf("the test says %q, want it to find 3 listings", e.outcome.Text)
	}
	if e.name.Text != "Wohnungen in Kreuzberg" {
		t.Errorf("suggested name %q, want the page title without the portal", e.name.Text)
	}
	if got := h.stored(); len(got) != 0 {
		t.Fatalf("the dry run saved %+v", got)
	}

	test.Tap(e.saveBtn)
	h.q.runNext(t) // the save runs off the UI goroutine
	got := h.stored()
	if len(got) != 1 || got[0].Name != "Wohnungen in Kreuzberg" || got[0].Selectors.Item != "li.item" {
		t.Fatalf("stored %+v, want the one search with its selectors", got)
	}
	h.q.runAll()
	v.requireText("Wohnungen in Kreuzberg")
	if h.u.searches.selected != got[0].ID {
		t.Errorf("the new search is not selected (selected %q)", h.u.searches.selected)
	}

	// The first poll is a silent baseline, and the row says what it recorded.
	res := h.svc.Once(context.Background())
	if len(res) != 1 || res[0].Outcome != "ok" {
		t.Fatalf("Once = %+v", res)
	}
	h.q.runAll()
	v.requireText("recorded 3 listings as a baseline")
	if h.u.searches.rows[0].unseen != "" {
		t.Errorf("the baseline is shown as new listings: %q", h.u.searches.rows[0].unseen)
	}
}

func TestRealCheckNowOnAWaitingSiteShowsTheWaitAndDoesNotFetch(t *testing.T) {
	var hits atomic.Int32
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Retry-After", "600")
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = io.WriteString(w, "<html><head><title>Too Many Requests</title></head><body>slow down</body></html>")
	}))
	defer site.Close()
	h := newRealHarness(t)
	v := h.view()

	s, err := h.svc.AddSearch(context.Background(), model.SearchInput{Name: "Mitte", URL: site.URL + "/suche/mitte"})
	if err != nil {
		t.Fatal(err)
	}
	if res := h.svc.Once(context.Background()); len(res) != 1 || res[0].Outcome != "rate_limited" {
		t.Fatalf("Once = %+v, want the site to rate-limit us", res)
	}
	if n := hits.Load(); n != 1 {
		t.Fatalf("the site was asked %d times, want 1", n)
	}
	h.q.runAll()
	siteName := h.u.searches.rows[0].snap.Site
	v.requireText(siteName + " is rate-limiting us — next try in ")

	h.u.searches.selectSearch(s.ID)
	test.Tap(h.u.searches.check)
	h.q.runAll()
	got := strings.Join(v.overlayTexts(), "\n")
	for _, want := range []string{"is rate-limiting us", "Notifio tries again at", "keep us out for longer"} {
		if !strings.Contains(got, want) {
			t.Errorf("the wait dialog lacks %q; it says:\n%s", want, got)
		}
	}
	// The backend refuses too, when asked behind the window's back.
	var w *model.WaitError
	if err := h.svc.CheckNow(s.ID); !errors.As(err, &w) || time.Until(w.Until) < 9*time.Minute {
		t.Errorf("CheckNow = %v, want a wait of about 10 minutes (Retry-After)", err)
	}
	h.svc.Once(context.Background())
	h.q.runAll()
	if n := hits.Load(); n != 1 {
		t.Errorf("the waiting site was asked %d times, want no request after the first", n)
	}

	// After a restart the wait is remembered, and so is the page that earned it.
	again, err := poll.New(h.db, poll.Options{DataDir: h.dir, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if err := again.CheckNow(s.ID); !errors.As(err, &w) {
		t.Errorf("after a restart CheckNow = %v, want the remembered wait", err)
	}
	if p, ok := again.RefusalPage(siteName); !ok || !strings.HasSuffix(p, ".html") {
		t.Errorf("after a restart RefusalPage = %q, %v; want the kept copy", p, ok)
	}
}

// smtpSite is an in-process SMTP server on loopback.
type smtpSite struct {
	srv        *smtp.Server
	port       int
	user, pass string
	mu         sync.Mutex
	msgs       int
}

func startSMTP(t *testing.T, cert *tls.Certificate, user, pass string) *smtpSite {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ss := &smtpSite{user: user, pass: pass, port: ln.Addr().(*net.TCPAddr).Port}
	ss.srv = smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) { return &smtpSession{ss: ss}, nil }))
	ss.srv.Domain = "localhost"
	ss.srv.ReadTimeout, ss.srv.WriteTimeout = 10*time.Second, 10*time.Second
	ss.srv.ErrorLog = log.New(io.Discard, "", 0)
	if cert != nil {
		ss.srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{*cert}}
	}
	go func() { _ = ss.srv.Serve(ln) }()
	t.Cleanup(func() { _ = ss.srv.Close() })
	return ss
}

func (ss *smtpSite) messages() int {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.msgs
}

type smtpSession struct {
	ss     *smtpSite
	authed bool
}

func (s *smtpSession) AuthMechanisms() []string {
	if s.ss.user == "" {
		return nil
	}
	return []string{sasl.Plain}
}

func (s *smtpSession) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, username, password string) error {
		if username != s.ss.user || password != s.ss.pass {
			return &smtp.SMTPError{Code: 535, EnhancedCode: smtp.EnhancedCode{5, 7, 8}, Message: "Username and Password not accepted"}
		}
		s.authed = true
		return nil
	}), nil
}

func (s *smtpSession) Mail(string, *smtp.MailOptions) error {
	if s.ss.user != "" && !s.authed {
		return &smtp.SMTPError{Code: 530, EnhancedCode: smtp.EnhancedCode{5, 7, 0}, Message: "Authentication required"}
	}
	return nil
}

func (s *smtpSession) Rcpt(string, *smtp.RcptOptions) error { return nil }

func (s *smtpSession) Data(r io.Reader) error {
	if _, err := io.Copy(io.Discard, r); err != nil {
		return err
	}
	s.ss.mu.Lock()
	s.ss.msgs++
	s.ss.mu.Unlock()
	return nil
}

func (s *smtpSession) Reset()        {}
func (s *smtpSession) Logout() error { return nil }

// selfSignedCert is a certificate for 127.0.0.1 and its SHA-256 fingerprint (hex),
// the way a local mail bridge's certificate is pinned in Settings.
func selfSignedCert(t *testing.T) (tls.Certificate, string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, DNSNames: []string{"localhost"},
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(der)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, hex.EncodeToString(sum[:])
}

// fillLoopbackEmail types an SMTP configuration into the settings form.
func fillLoopbackEmail(s *settingsView, port int, security, user, password, pin string) {
	s.host.SetText("127.0.0.1")
	s.port.SetText(strconv.Itoa(port))
	for _, c := range securityChoices {
		if string(c.mode) == security {
			s.security.SetSelected(c.words)
		}
	}
	s.username.SetText(user)
	s.password.SetText(password)
	s.from.SetText("Notifio <alerts@example.com>")
	s.to.SetText("me@example.com")
	s.pin.SetText(pin)
}

func TestRealSendTestEmailReportsSuccess(t *testing.T) {
	mail := startSMTP(t, nil, "", "")
	h := newRealHarness(t)
	h.u.selectView(viewSettings)
	s := h.u.settings
	fillLoopbackEmail(s, mail.port, string(model.SecurityNone), "", "", "")
	test.Tap(s.testBtn)
	if !s.testBtn.Disabled() || !s.activity.Visible() {
		t.Error("no activity shown while the test email is being sent")
	}
	h.q.runNext(t)
	if !strings.HasPrefix(s.testResult.Text, "Test email sent to me@example.com") {
		t.Errorf("the settings say %q after a successful test", s.testResult.Text)
	}
	if s.testBtn.Disabled() || s.activity.Visible() {
		t.Error("the activity indicator is still shown after the test email went out")
	}
	if n := mail.messages(); n != 1 {
		t.Errorf("the server received %d messages, want 1", n)
	}
}

func TestRealSendTestEmailShowsTheServersWordsAndAHintOn535(t *testing.T) {
	cert, fp := selfSignedCert(t)
	mail := startSMTP(t, &cert, "me@example.com", "correct-horse")
	h := newRealHarness(t)
	h.u.selectView(viewSettings)
	s := h.u.settings
	fillLoopbackEmail(s, mail.port, string(model.SecurityStartTLS), "me@example.com", "wrong-battery", fp)
	test.Tap(s.testBtn)
	h.q.runNext(t)
	got := s.testResult.Text
	for _, want := range []string{"The test email was not sent", "535", "Username and Password not accepted",
		"What to do: Check the username and password"} {
		if !strings.Contains(got, want) {
			t.Errorf("the failure lacks %q; it says:\n%s", want, got)
		}
	}
	if s.testResult.Importance != widget.DangerImportance {
		t.Errorf("the failure is not shown as a problem (importance %v)", s.testResult.Importance)
	}
	if n := mail.messages(); n != 0 {
		t.Errorf("the server accepted %d messages with a wrong password", n)
	}
}

// Issue 37, item 4: on the real backend (NewBackend over a *poll.Service),
// loosening a filter offers the listings it held back; the fake backend of the
// other tests hid that the offer was never made.
func TestRealLooserFiltersOfferTheHeldBackListings(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, resultsPage)
	}))
	defer site.Close()
	h := newRealHarness(t)
	v := h.view()
	s, err := h.svc.AddSearch(context.Background(), model.SearchInput{Name: "Kreuzberg", URL: site.URL + "/wohnungen",
		Selectors: model.PageSelectors{Item: "li.item", Link: "a", Title: "h2", Price: ".price"},
		Filters:   model.Filters{MaxPrice: 1000}})
	if err != nil {
		t.Fatal(err)
	}
	if res := h.svc.Once(context.Background()); len(res) != 1 || res[0].Outcome != "ok" {
		t.Fatalf("Once = %+v", res)
	}
	h.q.runAll()
	h.u.searches.selectSearch(s.ID)
	test.Tap(h.u.searches.edit)
	h.q.runAll()
	e := h.u.searches.editor
	if e.filters.maxPrice.Text != "1.000" {
		t.Fatalf("the edit dialog shows max price %q", e.filters.maxPrice.Text)
	}
	e.filters.maxPrice.SetText("")
	test.Tap(e.saveBtn)
	h.q.runUntil(t, "the offer of the held-back listings", func() bool {
		return v.hasText("2 listing(s) that your filters held back earlier pass them now.")
	})
	test.Tap(v.button("Yes"))
	h.q.runUntil(t, "the held-back listings shown", func() bool {
		ls, _ := h.svc.Listings(s.ID)
		return len(ls) == 3
	})
}

// Issue 37, item 6: a price drop is said in words the window's font can draw,
// marked "PRICE DROPPED" in the Listings view, and the search's row says it.
func TestRealPriceDropIsSaidInTheRowAndTheListing(t *testing.T) {
	var price atomic.Value
	price.Store("820 €")
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, strings.Replace(resultsPage, "980 €", price.Load().(string), 1))
	}))
	defer site.Close()
	h := newRealHarness(t)
	v := h.view()
	s, err := h.svc.AddSearch(context.Background(), model.SearchInput{Name: "Kreuzberg", URL: site.URL + "/wohnungen",
		Selectors: model.PageSelectors{Item: "li.item", Link: "a", Title: "h2", Price: ".price"}})
	if err != nil {
		t.Fatal(err)
	}
	h.svc.Once(context.Background())
	price.Store("790 €")
	if err := h.svc.CheckNow(s.ID); err != nil {
		t.Fatal(err)
	}
	h.svc.Once(context.Background())
	h.q.runAll()
	v.requireText("1 price dropped")
	h.u.searches.selectSearch(s.ID)
	test.Tap(h.u.searches.listings)
	h.q.runAll()
	line := "790 € · price dropped from 820 €"
	found := ""
	for _, txt := range v.texts() {
		if strings.HasPrefix(txt, line) {
			found = txt
		}
	}
	if found == "" {
		t.Fatalf("no listing says %q; the window shows %q", line, v.texts())
	}
	if m := missingGlyphs(t, found); len(m) > 0 {
		t.Errorf("%q has characters the window's font cannot draw: %v", found, m)
	}
	v.requireText("PRICE DROPPED")
}

// Issue 37, item 10: a search without a baseline (added while the watcher did
// not run, e.g. by `notifio search add`) is checked at once when the watcher
// starts, not spread across the interval behind its site's other searches.
func TestRealANewSearchIsCheckedAtOnceForItsBaseline(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, resultsPage)
	}))
	defer site.Close()
	dir := t.TempDir()
	db, err := storage.Open(dir, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	fet := fetch.New(fetch.Options{NoProxy: true})
	defer fet.Close()
	first, err := poll.New(db, poll.Options{DataDir: dir, Fetcher: fet, SiteGap: time.Millisecond, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	sel := model.PageSelectors{Item: "li.item", Link: "a", Title: "h2", Price: ".price"}
	for i := 1; i <= 12; i++ {
		if _, err := first.AddSearch(context.Background(), model.SearchInput{Name: fmt.Sprintf("Mitte %d", i),
			URL: fmt.Sprintf("%s/s/%d", site.URL, i), Interval: 10 * time.Minute, Selectors: sel}); err != nil {
			t.Fatal(err)
		}
	}
	first.Once(context.Background()) // every one has its baseline
	first.Close()
	fresh, err := db.AddSearch(model.Search{Name: "Mitte 13", URL: site.URL + "/s/13", Site: "127.0.0.1", Interval: 10 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	svc, err := poll.New(db, poll.Options{DataDir: dir, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	baselined := 0
	for _, s := range svc.Snapshot().Searches {
		if s.Baselined {
			baselined++
		}
		if s.ID == fresh.ID && time.Until(s.NextCheck) > 30*time.Second {
			t.Errorf("the search without a baseline is first checked in %s, want at once", time.Until(s.NextCheck).Round(time.Second))
		}
	}
	if baselined != 12 {
		t.Fatalf("%d searches have their baseline, want 12", baselined)
	}
}
