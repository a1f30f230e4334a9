package poll

import (
	"fmt"

	"notifio/storage"
)

// A site's expired login: set when the site sends a search to its login page
// (gather), kept across restarts in the site's last answer, and cleared by a
// good answer from the site or by the user acting on it (a new cookie, an
// edit, resuming a search). The cookie is one per site: every search of the
// site sends it, so one new cookie brings them all back.

// clearLoginLocked forgets that site's login expired, in memory: its searches
// are checked again. It reports whether there was anything to forget. Called
// with s.mu held; a poll's save writes the site's answer without it.
func (s *Service) clearLoginLocked(site string) bool {
	sr := s.site(site)
	had := sr.needsLogin != ""
	sr.needsLogin = ""
	for _, r := range s.searches {
		if r.s.Site == site && r.attention != "" {
			r.attention, had = "", true
		}
	}
	return had
}

// forgetLogin is the user acting on a site whose login expired: its searches
// are checked again, and the site's saved answer no longer says the login
// expired, so that a restart (or the next command) does not bring it back.
func (s *Service) forgetLogin(site string) error {
	s.mu.Lock()
	had := s.clearLoginLocked(site)
	sr := s.site(site)
	a := lastAnswer{Outcome: sr.savedOutcome, Status: sr.lastStatus, Signal: sr.lastSignal,
		RetryAfter: sr.retryAfter, Page: sr.lastRefusal, At: s.clock.Now()}
	s.mu.Unlock()
	if !had || s.db == nil {
		return nil
	}
	if _, err := s.db.SavePoll(storage.PollWrite{Site: site, SiteInfo: a}); err != nil {
		return fmt.Errorf("poll: forget the expired login of %s: %w", site, err)
	}
	return nil
}
