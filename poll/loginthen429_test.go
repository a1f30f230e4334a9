package poll

import (
	"context"
	"strings"
	"testing"
	"time"

	"notifio/internal/model"
	"notifio/poll/words"
)

// A site that sent its searches to its login page and, once the user acted,
// answers 429 with Retry-After 600: every search and the site say it is
// rate-limited, with the wait, never that the login expired; once the site
// answers normally, every search of it is healthy at once (issue 37). Both
// ways the user acts: "I logged in again — try now" (Check now on each
// stopped search) and a new cookie in Edit.
func TestRateLimitAfterAnExpiredLoginIsWordedAsARateLimit(t *testing.T) {
	for _, act := range []string{"try now", "new cookie"} {
		t.Run(act, func(t *testing.T) {
			h := newHarness(t, "")
			h.withEmail()
			a := newSite(t, "127.0.0.2", "1", "2")
			ids := []string{
				h.add("Mitte", a.srv.URL+"/s1", time.Minute).ID,
				h.add("Wedding", a.srv.URL+"/s2", time.Minute).ID,
				h.add("Pankow", a.srv.URL+"/s3", time.Minute).ID,
			}
			h.runFor(3 * time.Minute)
			h.expireLogin(a)
			for _, id := range ids {
				if hl := h.healthOfSearch(id); hl.Kind != model.HealthSessionExpired {
					t.Fatalf("%s after the login page: %s, want session expired", id, hl.Kind)
				}
			}
			a.set("429", "600")
			h.userActs(act, ids)
			h.runFor(20 * time.Second)
			asked := h.clock.Now()
			snap := h.svc.Snapshot()
			site := siteSnapOf(t, snap, a)
			for _, s := range snap.Searches {
				hl := s.Health
				if hl.Kind != model.HealthBlocked || hl.Refusal != model.RefusalRateLimited {
					t.Errorf("%s: health %s/%s (%q), want blocked/rate_limited", s.Name, hl.Kind, hl.Refusal, hl.Problem)
				}
				if words := hl.Problem + " " + hl.Hint + " " + words.StatusWords(s, &site, asked); strings.Contains(strings.ToLower(words), "login") ||
					strings.Contains(words, "log in") || strings.Contains(words, "session") {
					t.Errorf("%s speaks of the login while the site rate-limits: %q", s.Name, words)
				}
				if wait := hl.NextTry.Sub(asked); wait < 9*time.Minute || wait > 11*time.Minute {
					t.Errorf("%s: next try in %v, want the site's 10 minutes", s.Name, wait)
				}
			}
			if site.NeedsLogin || !strings.Contains(words.SiteWords(site, asked), "rate") {
				t.Errorf("site: needs login %v, words %q; want rate-limited words and no login", site.NeedsLogin, words.SiteWords(site, asked))
			}
			if n := h.loginAlerts(); n != 1 {
				t.Errorf("%d “Log in again” alerts, want the one", n)
			}

			a.set("ok", "")
			hits := a.count()
			for i := 0; i < 15*60 && a.count() == hits; i++ {
				h.runFor(time.Second)
			}
			if a.count() == hits {
				t.Fatal("the site was not asked again after its wait")
			}
			for _, s := range h.svc.Snapshot().Searches {
				if s.Health.Kind != model.HealthOK {
					t.Errorf("%s after the site's first good answer: %s (%q), want ok", s.Name, s.Health.Kind, s.Health.Problem)
				}
			}
			if site := siteSnapOf(t, h.svc.Snapshot(), a); site.NeedsLogin || site.Kind != 0 {
				t.Errorf("site after a good answer: needs login %v, kind %q", site.NeedsLogin, site.Kind)
			}
		})
	}
}

// userActs is the user after logging in again: "try now" checks each stopped
// search, "new cookie" saves one search with a fresh cookie.
func (h *harness) userActs(act string, ids []string) {
	h.t.Helper()
	for _, id := range ids {
		var err error
		if act == "try now" {
			err = h.svc.CheckNow(id)
		} else {
			s, gerr := h.db.GetSearch(id)
			if gerr != nil {
				h.t.Fatal(gerr)
			}
			_, err = h.svc.UpdateSearch(context.Background(), id, model.SearchInput{Name: s.Name, URL: s.URL, Interval: s.Interval, Cookie: "sid=fresh"})
			ids = nil // one cookie serves the site
		}
		if err != nil {
			h.t.Fatal(err)
		}
		if ids == nil {
			return
		}
	}
}

func siteSnapOf(t *testing.T, snap model.Snapshot, a *site) model.SiteSnapshot {
	t.Helper()
	for _, st := range snap.Sites {
		if strings.Contains(a.srv.URL, st.Site) {
			return st
		}
	}
	t.Fatalf("no site for %s in the snapshot", a.srv.URL)
	return model.SiteSnapshot{}
}
