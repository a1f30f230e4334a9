package cli

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/zalando/go-keyring"
)

// A push held for the channel's quiet hours is not a failure: `once` in the
// quiet hours exits 0 and says the push waits (it exited 1, "could not be sent
// yet", every night). The quiet hours span the test's own clock, so the push
// is held, and the loopback service URL is never contacted.
func TestOnceInQuietHoursExitsZero(t *testing.T) {
	keyring.MockInit()
	var n atomic.Int32
	n.Store(2)
	var contacted atomic.Bool
	svc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { contacted.Store(true) }))
	defer svc.Close()
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var b strings.Builder
		for i := range int(n.Load()) {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `{"@type":"ListItem","item":{"@type":"Apartment","name":"Flat %d","url":"/expose/%d"}}`, i, i)
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<html><head><script type="application/ld+json">{"@type":"ItemList","itemListElement":[`+b.String()+`]}</script></head><body></body></html>`)
	}))
	defer site.Close()
	dir := t.TempDir()
	now := time.Now()
	quiet := now.Add(-time.Hour).Format("15:04") + "-" + now.Add(time.Hour).Format("15:04")
	if code, _, errOut := run(t, dir, "search", "add", "--name", "Flats", site.URL+"/s"); code != 0 {
		t.Fatal(errOut)
	}
	url := "ntfy://" + strings.TrimPrefix(svc.URL, "http://") + "/flats?scheme=http"
	if code, _, errOut := run(t, dir, "push", "add", url, "--quiet", quiet); code != 0 {
		t.Fatal(errOut)
	}
	if code, out, errOut := run(t, dir, "once"); code != 0 {
		t.Fatalf("baseline once: exit %d\n%s\n%s", code, out, errOut)
	}
	n.Store(3) // a new listing
	code, out, errOut := run(t, dir, "once")
	if code != 0 || !strings.Contains(out, "1 push(es) wait for quiet hours to end") {
		t.Errorf("once in quiet hours with a held push: exit %d\n%s\n%s", code, out, errOut)
	}
	if contacted.Load() {
		t.Error("the push went out in quiet hours")
	}
}
