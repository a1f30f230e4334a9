package poll

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/zalando/go-keyring"

	"notifio/storage"

	"notifio/internal/model"
)

// cookieSite serves a's pages and records the Cookie header of each request.
func cookieSite(t *testing.T, a *site) (*httptest.Server, func() []string) {
	var mu sync.Mutex
	var sent []string
	srv := serveOn(t, "127.0.0.2", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		sent = append(sent, r.Header.Get("Cookie"))
		mu.Unlock()
		a.ServeHTTP(w, r)
	}))
	return srv, func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), sent...) }
}

// The cookie a user pastes is a login in all but name: it is kept in the
// keyring (as push URLs are), never in the database, and still sent.
func TestPastedCookieIsKeptInTheKeyringNotTheDatabase(t *testing.T) {
	h := newHarness(t, "")
	a := newSite(t, "127.0.0.2", "1")
	srv, sent := cookieSite(t, a)
	const secret = "sid=very-secret-session-4711"
	s, err := h.svc.AddSearch(context.Background(), model.SearchInput{URL: srv.URL + "/s", Interval: time.Minute, Cookie: secret})
	if err != nil {
		t.Fatal(err)
	}
	h.runFor(5 * time.Second)
	if got := sent(); len(got) == 0 || got[0] != secret {
		t.Fatalf("the site got cookies %q, want the pasted one", got)
	}
	var c string
	if ok, _ := h.db.GetSetting("cookie:"+s.Site, &c); ok {
		t.Errorf("the database keeps the cookie in its settings: %q", c)
	}
	if got, err := keyring.Get("notifio", "cookie:"+s.Site); err != nil || got != secret {
		t.Errorf("keyring entry = %q, %v; want the cookie under notifio / cookie:%s", got, err, s.Site)
	}
	h.db.Close()
	raw, err := os.ReadFile(filepath.Join(h.dir, storage.FileName))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(raw, []byte("very-secret-session")) {
		t.Error("the cookie is in the database file in plain text")
	}
}

// A cookie an older version kept in the settings moves to the keyring when
// it is first read, and is still sent.
func TestOldPlainTextCookieMovesToTheKeyring(t *testing.T) {
	h := newHarness(t, "")
	a := newSite(t, "127.0.0.2", "1")
	srv, sent := cookieSite(t, a)
	s := h.add("old", srv.URL+"/s", time.Minute)
	if err := h.db.PutSetting("cookie:"+s.Site, "sid=from-an-old-version"); err != nil {
		t.Fatal(err)
	}
	s.CookieRef = "cookie:" + s.Site
	if err := h.db.UpdateSearch(s); err != nil {
		t.Fatal(err)
	}
	h.svc.Close()
	h.svc = h.open()
	h.runFor(5 * time.Second)
	if got := sent(); len(got) == 0 || got[len(got)-1] != "sid=from-an-old-version" {
		t.Fatalf("the site got cookies %q, want the old one", got)
	}
	var c string
	if ok, _ := h.db.GetSetting("cookie:"+s.Site, &c); ok {
		t.Errorf("the plain-text copy is still in the settings: %q", c)
	}
	if got, _ := keyring.Get("notifio", "cookie:"+s.Site); got != "sid=from-an-old-version" {
		t.Errorf("keyring entry = %q", got)
	}
}
