package poll

import (
	"encoding/json"
	"os"
	"time"

	"notifio/poll/classify"
)

// What a site and a search last answered, kept across restarts.

// lastAnswer is what a site or a search last answered, kept across restarts so
// the window does not say "none yet" after a restart. It is written only when
// the kind of answer changes, so a steady site costs no extra commits.
type lastAnswer struct {
	Outcome    string        `json:"outcome"`
	Status     int           `json:"status,omitempty"`
	Signal     string        `json:"signal,omitempty"`
	RetryAfter time.Duration `json:"retry_after,omitempty"`
	Page       string        `json:"page,omitempty"` // saved copy of the last refusal page
	NeedsLogin string        `json:"needs_login,omitempty"`
	At         time.Time     `json:"at"`
}

// lastKey is the settings key of a search's last answer.
func lastKey(searchID string) string { return "last:" + searchID }

// rememberLast persists the site's and the search's last answer when its kind
// changed since it was last written.
func (s *Service) rememberLast(j job, out classify.Outcome, now time.Time) {
	s.mu.Lock()
	sr := s.site(j.site)
	site := lastAnswer{Outcome: string(out.Kind), Status: out.Status, Signal: out.Signal,
		RetryAfter: out.RetryAfter, Page: sr.lastRefusal, NeedsLogin: sr.needsLogin, At: now}
	writeSite := sr.savedOutcome != site.Outcome
	sr.savedOutcome = site.Outcome
	writeSearch := false
	var search lastAnswer
	if r := s.searches[j.searchID]; r != nil {
		search = lastAnswer{Outcome: r.lastOutcome, Signal: r.lastSignal, At: now}
		writeSearch = r.savedOutcome != search.Outcome
		r.savedOutcome = search.Outcome
	}
	s.mu.Unlock()
	if writeSite {
		if err := s.db.SaveSiteInfo(j.site, site); err != nil {
			s.log.Warn("could not save the site's last answer", "site", j.site, "err", err)
		}
	}
	if writeSearch {
		if err := s.db.PutSetting(lastKey(j.searchID), search); err != nil {
			s.log.Warn("could not save the search's last answer", "search_id", j.searchID, "err", err)
		}
	}
}

// restoreLast reads the last answers saved by rememberLast. Called with s.mu held.
func (s *Service) restoreLast() {
	infos, err := s.db.LoadSiteInfos()
	if err != nil {
		s.log.Warn("could not read the sites' last answers", "err", err)
	}
	for site, raw := range infos {
		var a lastAnswer
		if json.Unmarshal(raw, &a) != nil || a.Outcome == "" {
			continue
		}
		sr := s.site(site)
		sr.lastStatus, sr.lastSignal, sr.retryAfter = a.Status, a.Signal, a.RetryAfter
		sr.savedOutcome, sr.needsLogin = a.Outcome, a.NeedsLogin
		if a.Page != "" {
			if _, err := os.Stat(a.Page); err == nil {
				sr.lastRefusal = a.Page
			}
		}
	}
	for id, r := range s.searches {
		var a lastAnswer
		if ok, err := s.db.GetSetting(lastKey(id), &a); err != nil || !ok {
			continue
		}
		r.lastOutcome, r.lastSignal, r.lastChecked, r.savedOutcome = a.Outcome, a.Signal, a.At, a.Outcome
		if s.site(r.s.Site).needsLogin != "" {
			r.attention = s.site(r.s.Site).needsLogin
		}
	}
}
