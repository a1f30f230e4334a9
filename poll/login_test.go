package poll

import (
	"context"
	"strings"
	"testing"
	"time"

	"notifio/internal/model"
)

// expireLogin makes a's searches land on a login page of another site until
// the test sets the site back to ok, and runs until that was seen.
func (h *harness) expireLogin(a *site) {
	h.t.Helper()
	sso := newSite(h.t, "127.0.0.3")
	a.mu.Lock()
	a.mode, a.login = "login", sso.srv.URL+"/login"
	a.mu.Unlock()
	h.runFor(2 * time.Minute)
	if n := h.loginAlerts(); n != 1 {
		h.t.Fatalf("the expired login was told %d times, want once", n)
	}
}

func (h *harness) loginAlerts() int {
	n := 0
	for _, it := range h.alerts() {
		if strings.Contains(it.Alert.Subject, "Log in again") {
			n++
		}
	}
	return n
}

// once runs Once, moving the fake clock past each gap Once waits for between
// two searches of a site.
func (h *harness) once() []OnceResult {
	h.t.Helper()
	made := make(chan sleep)
	h.clock.mu.Lock()
	h.clock.made = made
	h.clock.mu.Unlock()
	defer func() {
		h.clock.mu.Lock()
		h.clock.made = nil
		h.clock.mu.Unlock()
	}()
	done := make(chan []OnceResult)
	go func() { done <- h.svc.Once(context.Background()) }()
	for {
		select {
		case res := <-done:
			return res
		case sl := <-made:
			h.clock.advance(sl.d)
		}
	}
}

// healthOfSearch is one search's health in a fresh snapshot.
func (h *harness) healthOfSearch(id string) model.Health {
	h.t.Helper()
	for _, s := range h.svc.Snapshot().Searches {
		if s.ID == id {
			return s.Health
		}
	}
	h.t.Fatalf("no search %s in the snapshot", id)
	return model.Health{}
}

// A good answer from the site clears its login state: a search added again
// with a fresh cookie is read, no second "Log in again" goes out, and the
// health (also after a restart) says it works.
func TestGoodAnswerClearsTheExpiredLogin(t *testing.T) {
	dir := t.TempDir()
	h := newHarness(t, dir)
	h.withEmail()
	a := newSite(t, "127.0.0.2", "1", "2")
	old := h.add("Mitte", a.srv.URL+"/s", time.Minute)
	h.runFor(70 * time.Second)
	h.expireLogin(a)
	a.set("ok", "")
	a.add("3")
	if err := h.svc.RemoveSearch(old.ID); err != nil {
		t.Fatal(err)
	}
	again, err := h.svc.AddSearch(context.Background(), model.SearchInput{Name: "Mitte", URL: a.srv.URL + "/s", Interval: time.Minute, Cookie: "sid=fresh"})
	if err != nil {
		t.Fatal(err)
	}
	h.runFor(5 * time.Minute)
	if got, _ := h.db.GetSearch(again.ID); !got.Baselined || got.BaselineCount != 3 {
		t.Fatalf("the search added again read nothing (baselined %v, %d listings)", got.Baselined, got.BaselineCount)
	}
	if n := h.loginAlerts(); n != 1 {
		t.Errorf("%d “Log in again” alerts, want still the one", n)
	}
	if hl := h.healthOfSearch(again.ID); hl.Kind != model.HealthOK {
		t.Errorf("health after a good answer: %s (%s), want ok", hl.Kind, hl.Problem)
	}
	h.svc.Close()
	h.svc = h.open()
	if hl := h.healthOfSearch(again.ID); hl.Kind != model.HealthOK {
		t.Errorf("health after a restart: %s (%s), want ok", hl.Kind, hl.Problem)
	}
}

// After a restart, once asks a site whose login expired (its first search):
// the site works again, so its searches are read.
func TestOnceAsksASiteWhoseLoginExpired(t *testing.T) {
	dir := t.TempDir()
	h := newHarness(t, dir)
	a := newSite(t, "127.0.0.2", "1", "2")
	s1 := h.add("A", a.srv.URL+"/s1", time.Minute)
	s2 := h.add("B", a.srv.URL+"/s2", time.Minute)
	h.runFor(3 * time.Minute)
	sso := newSite(t, "127.0.0.3")
	a.mu.Lock()
	a.mode, a.login = "login", sso.srv.URL+"/login"
	a.mu.Unlock()
	h.runFor(3 * time.Minute)
	// Still expired: once asks one search only and reports the other as waiting for the login.
	res := h.once()
	hitsBefore := a.count()
	if len(res) != 2 || res[0].Outcome != "session_expired" || res[1].Outcome != "session_expired" {
		t.Fatalf("once while the login is expired: %+v", res)
	}
	a.set("ok", "")
	h.svc.Close()
	h.svc = h.open()
	res = h.once()
	if len(res) != 2 || res[0].Outcome != "ok" || res[1].Outcome != "ok" {
		t.Fatalf("once after the site works again: %+v, want both read", res)
	}
	if a.count() == hitsBefore {
		t.Error("once asked the site nothing")
	}
	for _, id := range []string{s1.ID, s2.ID} {
		if hl := h.healthOfSearch(id); hl.Kind != model.HealthOK {
			t.Errorf("%s: health %s, want ok", id, hl.Kind)
		}
	}
}

// The user's new cookie (edit), like resuming, brings the site's searches
// back for good: a later process (the next command) checks them.
func TestEditWithACookieBringsTheSiteBackAfterARestart(t *testing.T) {
	for _, act := range []string{"edit", "resume"} {
		t.Run(act, func(t *testing.T) {
			dir := t.TempDir()
			h := newHarness(t, dir)
			a := newSite(t, "127.0.0.2", "1")
			s := h.add("A", a.srv.URL+"/s", time.Minute)
			h.runFor(70 * time.Second)
			sso := newSite(t, "127.0.0.3")
			a.mu.Lock()
			a.mode, a.login = "login", sso.srv.URL+"/login"
			a.mu.Unlock()
			h.runFor(2 * time.Minute)
			a.set("ok", "")
			h.svc.Close()
			h.svc = h.open() // `notifio search edit` / `resume`: a process of its own
			var err error
			if act == "edit" {
				_, err = h.svc.UpdateSearch(context.Background(), s.ID, model.SearchInput{Name: s.Name, URL: s.URL, Interval: s.Interval, Cookie: "sid=fresh"})
			} else {
				if err = h.svc.SetPaused(s.ID, true); err == nil {
					err = h.svc.SetPaused(s.ID, false)
				}
			}
			if err != nil {
				t.Fatal(err)
			}
			h.svc.Close()
			h.svc = h.open() // the next command
			hits := a.count()
			h.runFor(10 * time.Second)
			if a.count() == hits {
				t.Fatalf("after %s and a restart the site was not asked", act)
			}
			if hl := h.healthOfSearch(s.ID); hl.Kind != model.HealthOK {
				t.Errorf("health %s, want ok", hl.Kind)
			}
		})
	}
}
