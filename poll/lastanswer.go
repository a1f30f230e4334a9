package poll

import (
	"encoding/json"
	"os"
	"time"

	"notifio/poll/classify"
	"notifio/storage"
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

// answers are the last answers one poll writes: each only when its kind
// changed since it was last written (nil otherwise).
type answers struct {
	site, search *lastAnswer
}

// lastAnswers returns the site's and the search's answers this poll changes;
// outcome is out's kind as the site records it (result.outcomeName).
func (s *Service) lastAnswers(j job, out classify.Outcome, outcome string, now time.Time) answers {
	s.mu.Lock()
	defer s.mu.Unlock()
	sr := s.site(j.site)
	var a answers
	if sr.savedOutcome != outcome {
		a.site = &lastAnswer{Outcome: outcome, Status: out.Status, Signal: out.Signal,
			RetryAfter: out.RetryAfter, Page: sr.lastRefusal, NeedsLogin: sr.needsLogin, At: now}
	}
	if r := s.searches[j.searchID]; r != nil && r.savedOutcome != r.lastOutcome {
		a.search = &lastAnswer{Outcome: r.lastOutcome, Signal: r.lastSignal, At: now}
	}
	return a
}

// into adds the answers to the poll's write.
func (a answers) into(w *storage.PollWrite, site string) {
	if a.site != nil {
		w.Site, w.SiteInfo = site, *a.site
	}
	if a.search != nil {
		w.SettingKey, w.Setting = lastKey(w.SearchID), *a.search
	}
}

// answered notes the answers as written, once they are.
func (s *Service) answered(j job, a answers) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if a.site != nil {
		s.site(j.site).savedOutcome = a.site.Outcome
	}
	if r := s.searches[j.searchID]; r != nil && a.search != nil {
		r.savedOutcome = a.search.Outcome
	}
}

// restoreLast reads the last answers saved by save (pipeline.go). Called with s.mu held.
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
