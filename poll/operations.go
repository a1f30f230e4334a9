package poll

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"notifio/poll/extract"
	"notifio/poll/filter"

	"notifio/internal/model"

	"notifio/poll/words"
)

// The search operations the window and the CLI call.

// AddSearch validates and saves a new search; it is checked as soon as its site
// admits it, and its first successful poll is a silent baseline.
func (s *Service) AddSearch(_ context.Context, in model.SearchInput) (model.Search, error) {
	site, u, iv, err := s.checkInput(in, "")
	if err != nil {
		return model.Search{}, err
	}
	name := strings.TrimSpace(in.Name)
	if name == "" {
		s.mu.Lock()
		name = s.uniqueName(words.DefaultName(u, site))
		s.mu.Unlock()
	}
	sr := model.Search{
		Name: name, URL: u.String(), Site: site, Interval: iv,
		Selectors: model.Selectors(in.Selectors), Browser: in.Browser, Filters: in.Filters,
	}
	if in.Cookie != "" {
		sr.CookieRef, err = s.saveCookie(site, in.Cookie)
		if err != nil {
			return model.Search{}, err
		}
	} else {
		sr.CookieRef = s.existingCookieRef(site)
	}
	saved, err := s.db.AddSearch(sr)
	if err != nil {
		return model.Search{}, fmt.Errorf("poll: save search: %w", err)
	}
	s.rememberBrowser(site, in.Browser)
	now := s.clock.Now()
	s.mu.Lock()
	s.searches[saved.ID] = &searchRun{s: saved, due: now}
	s.bySite = nil
	s.site(site)
	s.mu.Unlock()
	if in.Cookie != "" { // a fresh cookie for the site: its searches try it
		if err := s.forgetLogin(site); err != nil {
			s.log.Warn("could not forget the site's expired login", "site", site, "err", err)
		}
	}
	s.Wake()
	s.publish()
	return saved, nil
}

// UpdateSearch changes a search's name, URL, interval, selectors or cookie.
func (s *Service) UpdateSearch(_ context.Context, id string, in model.SearchInput) (model.Search, error) {
	cur, err := s.db.GetSearch(id)
	if err != nil {
		return model.Search{}, fmt.Errorf("poll: find search %s: %w", id, err)
	}
	site, u, iv, err := s.checkInput(in, id)
	if err != nil {
		return model.Search{}, err
	}
	urlChanged := u.String() != cur.URL
	readChanged := cur.Browser != in.Browser || cur.Selectors != model.Selectors(in.Selectors)
	cur.URL, cur.Site, cur.Interval = u.String(), site, iv
	if n := strings.TrimSpace(in.Name); n != "" {
		cur.Name = n
	}
	cur.Selectors, cur.Browser, cur.Filters = model.Selectors(in.Selectors), in.Browser, in.Filters
	if in.Cookie != "" {
		if cur.CookieRef, err = s.saveCookie(site, in.Cookie); err != nil {
			return model.Search{}, err
		}
	}
	if urlChanged {
		// A different page: its first poll is a new baseline.
		cur.Baselined = false
	}
	if err := s.db.UpdateSearch(cur); err != nil {
		return model.Search{}, fmt.Errorf("poll: save search: %w", err)
	}
	s.rememberBrowser(site, cur.Browser)
	s.mu.Lock()
	if r, ok := s.searches[id]; ok {
		r.s = cur
		r.due = s.clock.Now()
	} else {
		s.searches[id] = &searchRun{s: cur, due: s.clock.Now()}
	}
	s.bySite = nil // the site may have changed
	// A page that did not look like results put the site on the error ladder;
	// read another way now (with a browser, other selectors), it is checked at
	// once instead of after that wait (issue 37).
	if e, ok := s.reg.Lookup(site); ok && readChanged && e.Kind == model.RefusalError &&
		s.site(site).savedOutcome == string(model.OutcomeUnexpectedPage) {
		s.reg.Forget(site)
	}
	s.mu.Unlock()
	// The user acted on the search (a new cookie, a new address): its site
	// is asked again, now and after a restart.
	if err := s.forgetLogin(site); err != nil {
		return cur, err
	}
	s.Wake()
	s.publish()
	return cur, nil
}

// checkInput validates what a search is saved with, before anything is saved:
// the URL (normalised; not one another search, except exceptID, watches
// already), the interval, the name and the CSS selectors.
func (s *Service) checkInput(in model.SearchInput, exceptID string) (string, *url.URL, time.Duration, error) {
	site, u, err := words.SearchSite(in.URL)
	if err != nil {
		return "", nil, 0, err
	}
	iv, err := checkInterval(in.Interval)
	if err != nil {
		return "", nil, 0, err
	}
	if strings.ContainsFunc(in.Name, unicode.IsControl) {
		return "", nil, 0, model.NewUserError(nil, "The name must be on one line, without tabs or control characters.", "")
	}
	if err := extract.ValidateSelectors(in.Selectors); err != nil {
		return "", nil, 0, badSelectors(err)
	}
	if err := filter.Check(in.Filters); err != nil {
		return "", nil, 0, model.NewUserError(err, sentence(err.Error()), "")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, r := range s.searches {
		if id != exceptID && words.SameSearchURL(r.s.URL, u.String()) {
			return "", nil, 0, model.NewUserError(model.ErrDuplicate, fmt.Sprintf("The search %s (%q) already watches this page.", id, r.s.Name),
				"Edit that one instead.")
		}
	}
	return site, u, iv, nil
}

// checkInterval bounds a search's interval; zero means DefaultInterval.
func checkInterval(iv time.Duration) (time.Duration, error) {
	if iv == 0 {
		return model.DefaultInterval, nil
	}
	if iv < model.MinInterval {
		return 0, model.NewUserError(nil, fmt.Sprintf("The interval %s is too short: Notifio checks a search at most every %s, so the site does not block you.", iv, model.MinInterval),
			"Choose 30 seconds or more.")
	}
	if iv > model.MaxInterval {
		return 0, model.NewUserError(nil, fmt.Sprintf("The interval %s is too long: Notifio checks a search at least once every %s (7 days).", iv, model.MaxInterval),
			"Choose 7 days or less, or pause the search instead.")
	}
	return iv, nil
}

// Search returns one saved search.
func (s *Service) Search(id string) (model.Search, error) {
	sr, err := s.db.GetSearch(id)
	if err != nil {
		return model.Search{}, fmt.Errorf("poll: find search %s: %w", id, err)
	}
	return sr, nil
}

// RemoveSearch deletes a search and the listings it has seen.
func (s *Service) RemoveSearch(id string) error {
	if err := s.db.DeleteSearch(id); err != nil {
		return fmt.Errorf("poll: remove search %s: %w", id, err)
	}
	s.mu.Lock()
	delete(s.searches, id)
	s.bySite = nil
	s.mu.Unlock()
	if err := s.db.DeleteSetting(lastKey(id)); err != nil {
		s.log.Warn("could not forget the search's last answer", "search_id", id, "err", err)
	}
	s.publish()
	return nil
}

// SetPaused pauses or resumes one search. Resuming also clears a "needs
// attention" state, so the user can retry after logging in again.
func (s *Service) SetPaused(id string, paused bool) error {
	if err := s.db.SetPaused(id, paused); err != nil {
		return fmt.Errorf("poll: pause search %s: %w", id, err)
	}
	s.mu.Lock()
	site := ""
	if r, ok := s.searches[id]; ok {
		r.s.Paused = paused
		if !paused {
			site = r.s.Site
			if r.due.Before(s.clock.Now()) {
				r.due = s.clock.Now()
			}
		}
	}
	s.mu.Unlock()
	if site != "" { // resuming is the user retrying after logging in again
		if err := s.forgetLogin(site); err != nil {
			return err
		}
	}
	s.Wake()
	s.publish()
	return nil
}

// PauseAll pauses or resumes every search.
func (s *Service) PauseAll(paused bool) error {
	list, err := s.db.ListSearches()
	if err != nil {
		return fmt.Errorf("poll: list searches: %w", err)
	}
	for _, sr := range list {
		if err := s.SetPaused(sr.ID, paused); err != nil {
			return err
		}
	}
	return nil
}

// CheckNow makes a search due now. A site that is backing off is not asked: the
// returned *WaitError says why and until when.
func (s *Service) CheckNow(id string) error {
	now := s.clock.Now()
	s.mu.Lock()
	r, ok := s.searches[id]
	if !ok {
		s.mu.Unlock()
		return model.NewUserError(nil, fmt.Sprintf("There is no search with ID %s.", id), "It may have been removed a moment ago.")
	}
	site := r.s.Site
	s.mu.Unlock()
	if w := s.waitFor(site, now); w != nil {
		return w
	}
	s.mu.Lock()
	r.due = now
	s.mu.Unlock()
	// Checking a search of a site whose login expired is the user retrying
	// after logging in again ("I logged in again — try now"): as resuming does,
	// the site's searches are asked again and the site no longer says the
	// login expired, whatever it answers next (issue 37: a 429 after it was
	// worded as the expired login).
	if err := s.forgetLogin(site); err != nil {
		return err
	}
	s.Wake()
	s.publish()
	return nil
}

// waitFor reports why a site cannot be asked now, or nil.
func (s *Service) waitFor(site string, now time.Time) *model.WaitError {
	e, ok := s.reg.Lookup(site)
	if !ok {
		return nil
	}
	if e.NextRetry.After(now) {
		return &model.WaitError{Site: site, Until: e.NextRetry, Wait: model.WaitSite, Reason: words.KindReason(site, e.Kind)}
	}
	return nil
}

// SiteRate is the request rate of a site's searches (per minute) if a search
// with this URL and interval were added, excluding exceptID, with a warning when
// it adds up to more than one request every 15 seconds.
func (s *Service) SiteRate(rawURL string, interval time.Duration, exceptID string) (float64, string) {
	site, _, err := words.SearchSite(rawURL)
	if err != nil {
		return 0, ""
	}
	if interval <= 0 {
		interval = model.DefaultInterval
	}
	if interval < model.MinInterval {
		interval = model.MinInterval
	}
	perMin := float64(time.Minute) / float64(interval)
	s.mu.Lock()
	for id, r := range s.searches {
		if id == exceptID || r.s.Site != site || r.s.Paused {
			continue
		}
		perMin += float64(time.Minute) / float64(intervalOf(r.s))
	}
	s.mu.Unlock()
	return perMin, RateWarning(site, perMin)
}

// RateWarning returns a warning when a site's searches add up to more than one
// request every 15 seconds, "" otherwise.
func RateWarning(site string, perMinute float64) string {
	if perMinute <= float64(time.Minute)/float64(model.BusySiteRate)+1e-9 {
		return ""
	}
	return fmt.Sprintf("Your searches on %s add up to %.1f requests a minute (more than one every 15 s); sites may block you. Use longer intervals or fewer searches.", site, perMinute)
}

// Listings returns a search's seen listings, newest first.
func (s *Service) Listings(searchID string) ([]model.Listing, error) {
	ls, err := s.db.ListListings(searchID)
	if err != nil {
		return nil, fmt.Errorf("poll: list listings: %w", err)
	}
	return ls, nil
}

// MarkViewed records that the user looked at a search's listings.
func (s *Service) MarkViewed(searchID string) error {
	if err := s.db.MarkViewed(searchID, s.clock.Now()); err != nil {
		return fmt.Errorf("poll: mark listings viewed: %w", err)
	}
	s.mu.Lock()
	if r, ok := s.searches[searchID]; ok {
		r.unseen = 0
	}
	s.mu.Unlock()
	s.publish()
	return nil
}

// ProbeNow lets one probe go to a site now, after the user solved its challenge
// in a browser. It is refused until the current rung's minimum wait has passed.
func (s *Service) ProbeNow(site string) (time.Time, error) {
	t, err := s.reg.ProbeNow(site, s.clock.Now())
	if err != nil {
		return t, err
	}
	s.persistBackoff()
	s.Wake()
	s.publish()
	return t, nil
}

// RefusalPage returns the saved copy of a site's last refusal page.
func (s *Service) RefusalPage(site string) (string, bool) {
	s.mu.Lock()
	sr, ok := s.sites[site]
	path := ""
	if ok {
		path = sr.lastRefusal
	}
	s.mu.Unlock()
	if path != "" {
		return path, true
	}
	// After a restart the copy kept by keepPage is still on disk; the wait it
	// explains was restored too, so offer it.
	if s.opts.DataDir == "" || site == "" {
		return "", false
	}
	name := filepath.Join(s.opts.DataDir, "pages", safeName(site)+"-last.html")
	if st, err := os.Stat(name); err != nil || !st.Mode().IsRegular() {
		return "", false
	}
	return name, true
}
