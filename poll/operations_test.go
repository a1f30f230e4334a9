package poll

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"notifio/internal/model"
)

// The operations the window and the command line call, over a real database
// and a loopback site.

func (h *harness) search(id string) model.SearchSnapshot {
	h.t.Helper()
	for _, s := range h.svc.Snapshot().Searches {
		if s.ID == id {
			return s
		}
	}
	h.t.Fatalf("no search %s in the snapshot", id)
	return model.SearchSnapshot{}
}

func TestLooseningAFilterOffersWhatItHeldBack(t *testing.T) {
	h := newHarness(t, "")
	a := newSite(t, "127.0.0.1", "1", "2")
	s, err := h.svc.AddSearch(context.Background(), model.SearchInput{
		Name: "Cheap", URL: a.srv.URL + "/search", Interval: time.Minute,
		Filters: model.Filters{MaxPrice: 901},
	})
	if err != nil {
		t.Fatal(err)
	}
	h.runFor(5 * time.Second) // baseline: 900 and 901 €
	a.add("3")                // 902 €: over the bound
	h.runFor(70 * time.Second)
	if n := len(h.outbox()); n != 0 {
		t.Fatalf("a listing over the price bound queued %d emails, want 0", n)
	}
	if held, err := h.svc.HeldNowPassing(s.ID); err != nil || len(held) != 0 {
		t.Fatalf("before loosening the filter %d held listings pass (%v), want 0", len(held), err)
	}
	in := model.SearchInput{Name: s.Name, URL: s.URL, Interval: s.Interval, Filters: model.Filters{MaxPrice: 1000}}
	if _, err := h.svc.UpdateSearch(context.Background(), s.ID, in); err != nil {
		t.Fatal(err)
	}
	held, err := h.svc.HeldNowPassing(s.ID)
	if err != nil || len(held) != 1 || held[0].Title != "Flat 3" {
		t.Fatalf("after loosening the filter the held listings offered: %+v (%v), want Flat 3", held, err)
	}
	n, err := h.svc.ShowHeld(s.ID, held)
	if err != nil || n != 1 {
		t.Fatalf("ShowHeld = %d, %v; want 1", n, err)
	}
	if got := h.search(s.ID).Unseen; got != 1 {
		t.Fatalf("after showing it the window counts %d new, want 1", got)
	}
	ls, err := h.svc.Listings(s.ID)
	if err != nil || !hasTitle(ls, "Flat 3") {
		t.Fatalf("the search's listings after showing the held one: %+v (%v), want Flat 3 among them", ls, err)
	}
	if n := len(h.outbox()); n != 0 {
		t.Fatalf("showing held listings queued %d emails, want 0 (never by email)", n)
	}
	if err := h.svc.MarkViewed(s.ID); err != nil {
		t.Fatal(err)
	}
	if got := h.search(s.ID).Unseen; got != 0 {
		t.Fatalf("after the user looked the window counts %d new, want 0", got)
	}
}

func hasTitle(ls []model.Listing, title string) bool {
	for _, l := range ls {
		if l.Title == title {
			return true
		}
	}
	return false
}

func TestPauseAllStopsAndResumesEverySearch(t *testing.T) {
	h := newHarness(t, "")
	a := newSite(t, "127.0.0.1", "1")
	b := newSite(t, "127.0.0.2", "2")
	h.add("A", a.srv.URL+"/search", time.Minute)
	h.add("B", b.srv.URL+"/search", time.Minute)
	if err := h.svc.PauseAll(true); err != nil {
		t.Fatal(err)
	}
	h.runFor(3 * time.Minute)
	if a.count()+b.count() != 0 {
		t.Fatalf("paused searches made %d requests, want 0", a.count()+b.count())
	}
	for _, s := range h.svc.Snapshot().Searches {
		if s.State != model.StatePaused {
			t.Fatalf("%s is %s after pausing all, want paused", s.Name, s.State)
		}
	}
	if err := h.svc.PauseAll(false); err != nil {
		t.Fatal(err)
	}
	h.runFor(5 * time.Second)
	if a.count() != 1 || b.count() != 1 {
		t.Fatalf("after resuming all: %d and %d requests, want one each", a.count(), b.count())
	}
}

func TestCheckNowWaitsForABackingOffSite(t *testing.T) {
	h := newHarness(t, "")
	a := newSite(t, "127.0.0.1", "1")
	s := h.add("Kreuzberg", a.srv.URL+"/search", time.Hour)
	h.runFor(2 * time.Second) // baseline
	if err := h.svc.CheckNow(s.ID); err != nil {
		t.Fatalf("check now on a clear site: %v", err)
	}
	h.runFor(6 * time.Second) // the site gap
	if a.count() != 2 {
		t.Fatalf("check now on an hourly search made %d requests in all, want 2", a.count())
	}
	a.set("429", "600")
	if err := h.svc.CheckNow(s.ID); err != nil {
		t.Fatal(err)
	}
	h.runFor(6 * time.Second)
	err := h.svc.CheckNow(s.ID)
	var w *model.WaitError
	if !errors.As(err, &w) || !w.Until.After(h.clock.Now().Add(9*time.Minute)) {
		t.Fatalf("check now on a site asking for 10 minutes' rest returned %v, want a wait until then", err)
	}
	if err := h.svc.CheckNow("no-such-search"); err == nil {
		t.Fatal("check now of an unknown search returned nil, want an error")
	}
}

func TestProbeNowAsksTheSiteOnceAtOnce(t *testing.T) {
	h := newHarness(t, "")
	a := newSite(t, "127.0.0.1", "1")
	a.set("challenge", "")
	h.add("Kreuzberg", a.srv.URL+"/search", time.Minute)
	// Two captchas (the ladder's second step waits 3 min); stop at the second.
	for i := 0; i < 120 && a.count() < 2; i++ {
		h.runFor(time.Second)
	}
	if a.count() != 2 {
		t.Fatalf("%d requests before the user solved the captcha, want 2", a.count())
	}
	a.set("ok", "")
	site := h.svc.Snapshot().Sites[0].Site
	if _, err := h.svc.ProbeNow(site); err == nil {
		t.Fatal("probe now 2 s after the last request was let through, want at most one a minute")
	}
	h.runFor(time.Minute)
	if a.count() != 2 {
		t.Fatalf("%d requests during the captcha's wait, want 2", a.count())
	}
	if _, err := h.svc.ProbeNow(site); err != nil {
		t.Fatalf("probe now after the user solved it: %v", err)
	}
	h.runFor(2 * time.Second)
	if a.count() != 3 {
		t.Fatalf("probe now made %d requests in all, want 3 (one probe, at once)", a.count())
	}
	if sites := h.svc.Snapshot().Sites; sites[0].Waiting {
		t.Fatalf("after a good probe the site still waits: %+v", sites[0])
	}
}

func TestAPastedCookieGoesToItsSiteOnly(t *testing.T) {
	h := newHarness(t, "")
	var mu sync.Mutex
	got := map[string][]string{} // the Cookie header of each request, by site
	record := func(ip string) *httptest.Server {
		return serveOn(t, ip, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			got[ip] = append(got[ip], r.URL.Path+" "+r.Header.Get("Cookie"))
			mu.Unlock()
			fmt.Fprint(w, `<html><body><main><article><a href="/expose/1"><h2>Flat 1</h2></a><p>900 €</p></article></main></body></html>`)
		}))
	}
	a, b := record("127.0.0.1"), record("127.0.0.2")
	if _, err := h.svc.AddSearch(context.Background(), model.SearchInput{Name: "Mine", URL: a.URL + "/search",
		Interval: time.Minute, Cookie: "Cookie: session=abc"}); err != nil {
		t.Fatal(err)
	}
	// A second search of the same site shares the cookie without pasting it.
	h.add("Also mine", a.URL+"/other", time.Minute)
	h.add("Elsewhere", b.URL+"/search", time.Minute)
	h.runFor(10 * time.Second)
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(got["127.0.0.1"], []string{"/search session=abc", "/other session=abc"}) ||
		!slices.Equal(got["127.0.0.2"], []string{"/search "}) {
		t.Fatalf("cookies sent: %q; want session=abc to its own site and none elsewhere", got)
	}
	if _, err := h.svc.AddSearch(context.Background(), model.SearchInput{URL: a.URL + "/third", Cookie: "a=1\r\nb=2"}); err == nil {
		t.Fatal("a cookie of two lines was saved, want an error")
	}
}
