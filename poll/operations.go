package poll

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"

	"notifio/hostbackoff"
	"notifio/notify"
	"notifio/poll/classify"
	"notifio/poll/extract"
	"notifio/poll/filter"
	"notifio/storage"
)

// AddSearch validates and saves a new search; it is checked as soon as its site
// admits it, and its first successful poll is a silent baseline.
func (s *Service) AddSearch(_ context.Context, in SearchInput) (storage.Search, error) {
	site, u, iv, err := s.checkInput(in, "")
	if err != nil {
		return storage.Search{}, err
	}
	name := strings.TrimSpace(in.Name)
	if name == "" {
		name = defaultName(u.Host, u.Path)
	}
	sr := storage.Search{
		Name: name, URL: u.String(), Site: site, Interval: iv,
		Selectors: storage.Selectors(in.Selectors), Browser: in.Browser, Filters: in.Filters,
	}
	if in.Cookie != "" {
		sr.CookieRef, err = s.saveCookie(site, in.Cookie)
		if err != nil {
			return storage.Search{}, err
		}
	} else {
		sr.CookieRef = s.existingCookieRef(site)
	}
	saved, err := s.db.AddSearch(sr)
	if err != nil {
		return storage.Search{}, fmt.Errorf("poll: save search: %w", err)
	}
	s.rememberBrowser(site, in.Browser)
	now := s.clock.Now()
	s.mu.Lock()
	s.searches[saved.ID] = &searchRun{s: saved, due: now}
	s.bySite = nil
	s.site(site)
	s.mu.Unlock()
	s.Wake()
	s.publish()
	return saved, nil
}

// UpdateSearch changes a search's name, URL, interval, selectors or cookie.
func (s *Service) UpdateSearch(_ context.Context, id string, in SearchInput) (storage.Search, error) {
	cur, err := s.db.GetSearch(id)
	if err != nil {
		return storage.Search{}, fmt.Errorf("poll: find search %s: %w", id, err)
	}
	site, u, iv, err := s.checkInput(in, id)
	if err != nil {
		return storage.Search{}, err
	}
	urlChanged := u.String() != cur.URL
	cur.URL, cur.Site, cur.Interval = u.String(), site, iv
	if n := strings.TrimSpace(in.Name); n != "" {
		cur.Name = n
	}
	cur.Selectors, cur.Browser, cur.Filters = storage.Selectors(in.Selectors), in.Browser, in.Filters
	if in.Cookie != "" {
		if cur.CookieRef, err = s.saveCookie(site, in.Cookie); err != nil {
			return storage.Search{}, err
		}
	}
	if urlChanged {
		// A different page: its first poll is a new baseline.
		cur.Baselined = false
	}
	if err := s.db.UpdateSearch(cur); err != nil {
		return storage.Search{}, fmt.Errorf("poll: save search: %w", err)
	}
	s.rememberBrowser(site, cur.Browser)
	s.mu.Lock()
	if r, ok := s.searches[id]; ok {
		r.s = cur
		r.attention = ""
		r.due = s.clock.Now()
	} else {
		s.searches[id] = &searchRun{s: cur, due: s.clock.Now()}
	}
	s.bySite = nil // the site may have changed
	s.site(site).needsLogin = ""
	s.mu.Unlock()
	s.Wake()
	s.publish()
	return cur, nil
}

// checkInput validates what a search is saved with, before anything is saved:
// the URL (normalised; not one another search, except exceptID, watches
// already), the interval, the name and the CSS selectors.
func (s *Service) checkInput(in SearchInput, exceptID string) (string, *url.URL, time.Duration, error) {
	site, u, err := siteOf(in.URL)
	if err != nil {
		return "", nil, 0, err
	}
	iv, err := checkInterval(in.Interval)
	if err != nil {
		return "", nil, 0, err
	}
	if strings.ContainsFunc(in.Name, unicode.IsControl) {
		return "", nil, 0, errors.New("poll: the name must be on one line, without tabs or control characters")
	}
	if err := extract.ValidateSelectors(in.Selectors); err != nil {
		return "", nil, 0, fmt.Errorf("poll: %w", err)
	}
	if err := filter.Check(in.Filters); err != nil {
		return "", nil, 0, fmt.Errorf("poll: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, r := range s.searches {
		if id != exceptID && sameSearchURL(r.s.URL, u.String()) {
			return "", nil, 0, fmt.Errorf("%w: the search %s (%q) already watches this page; edit that one instead",
				ErrDuplicate, id, r.s.Name)
		}
	}
	return site, u, iv, nil
}

// ErrDuplicate is wrapped by the error about a search URL another search
// already watches.
var ErrDuplicate = errors.New("poll: already watched")

// checkInterval bounds a search's interval; zero means DefaultInterval.
func checkInterval(iv time.Duration) (time.Duration, error) {
	if iv == 0 {
		return DefaultInterval, nil
	}
	if iv < MinInterval {
		return 0, fmt.Errorf("poll: the interval %s is too short: check at most every %s, so the site does not block you", iv, MinInterval)
	}
	if iv > MaxInterval {
		return 0, fmt.Errorf("poll: the interval %s is too long: check at least once every %s (7 days), or pause the search instead", iv, MaxInterval)
	}
	return iv, nil
}

func defaultName(host, path string) string {
	host = strings.TrimPrefix(strings.ToLower(host), "www.")
	path = strings.Trim(path, "/")
	if i := strings.LastIndex(path, "/"); i >= 0 {
		path = path[i+1:]
	}
	if path == "" {
		return host
	}
	return host + " " + path
}

func (s *Service) saveCookie(site, cookie string) (string, error) {
	cookie = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(cookie), "Cookie:"))
	if strings.ContainsAny(cookie, "\r\n") {
		return "", errors.New("poll: the cookie must be on one line (copy the value of the Cookie header)")
	}
	ref := "cookie:" + site
	if err := s.db.PutSetting(ref, cookie); err != nil {
		return "", fmt.Errorf("poll: save the cookie for %s: %w", site, err)
	}
	return ref, nil
}

func (s *Service) existingCookieRef(site string) string {
	if s.db == nil { // a dry run without the database (another Notifio holds it)
		return ""
	}
	var c string
	if ok, err := s.db.GetSetting("cookie:"+site, &c); err == nil && ok && c != "" {
		return "cookie:" + site
	}
	return ""
}

// Search returns one saved search.
func (s *Service) Search(id string) (storage.Search, error) {
	sr, err := s.db.GetSearch(id)
	if err != nil {
		return storage.Search{}, fmt.Errorf("poll: find search %s: %w", id, err)
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
	if r, ok := s.searches[id]; ok {
		r.s.Paused = paused
		if !paused {
			r.attention = ""
			if sr := s.site(r.s.Site); sr.needsLogin != "" {
				sr.needsLogin = ""
				sr.savedOutcome = "" // the next answer is written, clearing the saved login state
			}
			if r.due.Before(s.clock.Now()) {
				r.due = s.clock.Now()
			}
		}
	}
	s.mu.Unlock()
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
		return fmt.Errorf("poll: no search with id %s", id)
	}
	site := r.s.Site
	s.mu.Unlock()
	if w := s.waitFor(site, now); w != nil {
		return w
	}
	s.mu.Lock()
	r.due = now
	r.attention = ""
	s.mu.Unlock()
	s.Wake()
	s.publish()
	return nil
}

// waitFor reports why a site cannot be asked now, or nil.
func (s *Service) waitFor(site string, now time.Time) *WaitError {
	e, ok := s.reg.Lookup(site)
	if !ok {
		return nil
	}
	if e.NextRetry.After(now) {
		return &WaitError{Site: site, Until: e.NextRetry, Reason: kindReason(site, e.Kind)}
	}
	return nil
}

// kindReason says in plain words why a site is being left alone.
func kindReason(site string, k hostbackoff.Kind) string {
	switch k {
	case hostbackoff.Challenge:
		return site + " asked for a captcha (challenge page)"
	case hostbackoff.RateLimited:
		return site + " is rate-limiting us"
	case hostbackoff.Denied:
		return site + " refused access"
	}
	return site + " had errors"
}

// TestSearch runs one dry-run poll of a URL: fetch, classify, extract, saving
// nothing. A site that is backing off is not fetched: the result says "waiting".
func (s *Service) TestSearch(ctx context.Context, in SearchInput) (DryRun, error) {
	site, u, err := siteOf(in.URL)
	if err != nil {
		return DryRun{}, err
	}
	if err := extract.ValidateSelectors(in.Selectors); err != nil {
		return DryRun{}, fmt.Errorf("poll: %w", err)
	}
	now := s.clock.Now()
	dr := DryRun{URL: u.String(), Site: site}
	if w := s.waitFor(site, now); w != nil {
		dr.Outcome = "waiting"
		dr.WaitUntil = w.Until
		dr.Message = fmt.Sprintf("Not fetched: %s — next try at %s.", w.Reason, w.Until.Local().Format("15:04:05"))
		return dr, nil
	}
	cookie := strings.TrimSpace(in.Cookie)
	if cookie == "" {
		if ref := s.existingCookieRef(site); ref != "" {
			_, _ = s.db.GetSetting(ref, &cookie)
		}
	}
	j := job{site: site, url: u.String(), cookie: cookie, browser: in.Browser, sel: in.Selectors, start: now}
	res := s.execute(ctx, j)
	defer res.resp.Release()
	dr = dryRunOf(dr, res)
	s.offerBrowser(ctx, j, &dr, res)
	if res.outcome.Kind != classify.OK || res.resp == nil || len(res.resp.Body) == 0 {
		return dr, nil
	}
	page := res.resp.FinalURL
	if page == nil {
		page = u
	}
	dr.Judged = judge(in.Filters, site, dr.Listings)
	root := extract.Parse(res.resp.Body)
	dr.Groups = extract.Groups(root, page, 6)
	if strings.TrimSpace(in.Example) != "" {
		sel, r, err := extract.Example(root, page, in.Example)
		if err != nil {
			dr.ExampleProblem = err.Error()
			return dr, nil
		}
		dr.Derived, dr.Listings, dr.Method, dr.Note = sel, r.Listings, r.Method, r.Note
		dr.Judged = judge(in.Filters, site, dr.Listings)
		dr.Message = OutcomeMessage(dr.Site, dr.Outcome, len(dr.Listings), dr.NoResults)
	}
	return dr, nil
}

// DryRunOnce is `notifio check`: one dry-run poll with a fresh fetcher, saving
// nothing, respecting the backoff state in db when db is not nil.
func DryRunOnce(ctx context.Context, db *storage.DB, in SearchInput, opts Options) (DryRun, error) {
	var s *Service
	var err error
	if db != nil {
		s, err = New(db, opts)
		if err != nil {
			return DryRun{}, err
		}
		defer s.Close()
	} else {
		s = &Service{opts: opts, clock: RealClock{}, reg: hostbackoff.NewRegistry(), fetcher: opts.Fetcher, log: opts.Logger}
		defer s.Close() // the fetcher and the browser it started, if its own
		if s.fetcher == nil {
			s.fetcher, s.ownFet = newDefaultFetcher(), true
		}
		if s.opts.RequestTimeout <= 0 {
			s.opts.RequestTimeout = 30 * time.Second
		}
	}
	return s.TestSearch(ctx, in)
}

func dryRunOf(dr DryRun, res result) DryRun {
	dr.Outcome = string(res.outcome.Kind)
	dr.Status = res.outcome.Status
	dr.RetryAfter = res.outcome.RetryAfter
	dr.Signal = res.outcome.Signal
	dr.Title = res.title
	dr.Method = res.ext.Method
	dr.Note = res.ext.Note
	dr.NoResults = res.ext.NoResults
	if res.outcome.Kind == classify.OK {
		dr.Listings = res.ext.Listings
	}
	if res.offline {
		dr.Outcome = "offline"
	}
	dr.Message = OutcomeMessage(dr.Site, dr.Outcome, len(dr.Listings), dr.NoResults)
	if res.outcome.Detail != "" && dr.Outcome != string(classify.OK) {
		dr.Message += " (" + res.outcome.Detail + ")"
	}
	return dr
}

// OutcomeMessage says what an outcome means for the user.
func OutcomeMessage(site, outcome string, n int, noResults bool) string {
	switch outcome {
	case string(classify.OK):
		if n == 0 && noResults {
			return "The page says there are no results right now; Notifio will tell you when one appears."
		}
		return fmt.Sprintf("Found %d listings on the page.", n)
	case string(classify.Challenge):
		return site + " showed a captcha/challenge page instead of results. Notifio will wait and try again; if it keeps happening, open the page in your browser and solve it."
	case string(classify.RateLimited):
		return site + " says we are asking too often (rate limit). Notifio will wait before asking again."
	case string(classify.Denied):
		return site + " refused access. Notifio will wait before asking again."
	case string(classify.SessionExpired):
		return site + " sent us to a login page: the session expired. Log in again in your browser and paste a fresh cookie."
	case string(classify.UnexpectedPage):
		return "The page did not look like results (a layout change or a soft block). Check the URL in your browser, or set CSS selectors."
	case "offline":
		return "No connection: " + site + " could not be reached. Check your internet connection."
	case string(classify.Error):
		return site + " could not be read (network error or server error). Notifio will try again shortly."
	}
	return outcome
}

// SiteRate is the request rate of a site's searches (per minute) if a search
// with this URL and interval were added, excluding exceptID, with a warning when
// it adds up to more than one request every 15 seconds.
func (s *Service) SiteRate(rawURL string, interval time.Duration, exceptID string) (float64, string) {
	site, _, err := siteOf(rawURL)
	if err != nil {
		return 0, ""
	}
	if interval <= 0 {
		interval = DefaultInterval
	}
	if interval < MinInterval {
		interval = MinInterval
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
	if perMinute <= float64(time.Minute)/float64(BusySiteRate)+1e-9 {
		return ""
	}
	return fmt.Sprintf("Your searches on %s add up to %.1f requests a minute (more than one every 15 s); sites may block you. Use longer intervals or fewer searches.", site, perMinute)
}

// Listings returns a search's seen listings, newest first.
func (s *Service) Listings(searchID string) ([]storage.Listing, error) {
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

// emailKey is the settings key of the SMTP configuration.
const emailKey = "email"

// EmailConfig returns the saved SMTP settings (zero Config when none).
func (s *Service) EmailConfig() (notify.Config, error) {
	return LoadEmailConfig(s.db)
}

// LoadEmailConfig reads the SMTP settings from storage.
func LoadEmailConfig(db *storage.DB) (notify.Config, error) {
	var c notify.Config
	if _, err := db.GetSetting(emailKey, &c); err != nil {
		return notify.Config{}, fmt.Errorf("poll: read email settings: %w", err)
	}
	return c, nil
}

// EmailSource gives the outbox relay the saved SMTP settings and password.
func EmailSource(db *storage.DB, secrets *notify.Secrets) func() (notify.Config, string, error) {
	return func() (notify.Config, string, error) {
		cfg, err := LoadEmailConfig(db)
		if err != nil {
			return cfg, "", err
		}
		if cfg.Host == "" {
			return cfg, "", notify.ErrNotConfigured
		}
		pw := ""
		if cfg.Username != "" {
			if pw, err = secrets.Get(cfg.Username, cfg.Host); err != nil {
				return cfg, "", err
			}
		}
		return cfg, pw, nil
	}
}

// SetEmailConfig validates and saves the SMTP settings; the password goes to the
// OS keyring (or its fallback, with the warning returned). Emails that needed
// attention go back in the queue: the new settings may be the fix.
func (s *Service) SetEmailConfig(cfg notify.Config, password string) (string, error) {
	warn, err := SaveEmailConfig(s.db, s.opts.Secrets, cfg, password)
	if err != nil {
		return "", err
	}
	return warn, s.RetryOutbox()
}

// SaveEmailConfig validates the SMTP settings and the password, then saves both
// or neither. Callers then queue the emails that needed attention again
// (RequeueEmails): new settings may be the fix.
func SaveEmailConfig(db *storage.DB, secrets *notify.Secrets, cfg notify.Config, password string) (string, error) {
	if err := cfg.Validate(); err != nil {
		return "", err
	}
	if password != "" && strings.TrimSpace(cfg.Username) == "" {
		return "", &notify.FieldError{Field: "username", Problem: "Enter the username (--user) that goes with the password, usually your email address."}
	}
	var prev notify.Config
	had, err := db.GetSetting(emailKey, &prev)
	if err != nil {
		return "", fmt.Errorf("poll: read email settings: %w", err)
	}
	if err := db.PutSetting(emailKey, cfg); err != nil {
		return "", fmt.Errorf("poll: save email settings: %w", err)
	}
	warn := ""
	if password != "" && secrets != nil {
		if warn, err = secrets.Set(cfg.Username, cfg.Host, password); err != nil {
			// All or nothing: put the previous settings back.
			if had {
				_ = db.PutSetting(emailKey, prev)
			} else {
				_ = db.DeleteSetting(emailKey)
			}
			return "", fmt.Errorf("poll: save the password: %w", err)
		}
	}
	return warn, nil
}

// RequeueEmails puts every email that needs attention back in the queue, due
// now, and returns how many.
func RequeueEmails(db *storage.DB, now time.Time) (int, error) {
	items, err := db.ListOutbox()
	if err != nil {
		return 0, fmt.Errorf("poll: read the outbox: %w", err)
	}
	n := 0
	for _, it := range items {
		if it.State == storage.OutboxNeedsAttention {
			n++
		}
	}
	if n == 0 {
		return 0, nil
	}
	if err := db.RetryOutbox(0, now); err != nil {
		return 0, fmt.Errorf("poll: retry emails: %w", err)
	}
	return n, nil
}

// outboxRequeued wakes the relay and the observers after emails went back in
// the queue.
func (s *Service) outboxRequeued() {
	if s.opts.Relay != nil {
		s.opts.Relay.Wake()
	}
	s.invalidateOutbox()
	s.publish()
}

// SendTestEmail sends a test email with the given settings and password ("" means
// the saved password) and returns an error the user can act on. When it gets
// through with the saved settings, the emails that needed attention go back in
// the queue.
func (s *Service) SendTestEmail(ctx context.Context, cfg notify.Config, password string) error {
	if password == "" && s.opts.Secrets != nil && cfg.Username != "" {
		p, err := s.opts.Secrets.Get(cfg.Username, cfg.Host)
		if err == nil {
			password = p
		}
	}
	if err := notify.SendTestEmail(ctx, cfg, password); err != nil {
		return err
	}
	if saved, err := LoadEmailConfig(s.db); err == nil && reflect.DeepEqual(saved, cfg) {
		return s.RetryOutbox()
	}
	return nil
}

// RetryOutbox puts every email that needs attention back in the queue.
func (s *Service) RetryOutbox() error {
	if _, err := RequeueEmails(s.db, s.clock.Now()); err != nil {
		return err
	}
	s.outboxRequeued()
	return nil
}

// Subscribe calls fn with a fresh snapshot after every change, from any
// goroutine, until the returned cancel is called.
func (s *Service) Subscribe(fn func(Snapshot)) func() {
	s.mu.Lock()
	id := s.nextSub
	s.nextSub++
	s.subs[id] = fn
	s.mu.Unlock()
	return func() {
		s.mu.Lock()
		delete(s.subs, id)
		s.mu.Unlock()
	}
}

// publishEvery bounds how often the watcher's own progress (a poll started or
// finished) is published: at 1,000 searches a snapshot after every poll was a
// tenth of the watcher's CPU (docs/PERFORMANCE.md). What the user does is
// published at once.
const publishEvery = 500 * time.Millisecond

// publishSoon publishes now, or once publishEvery after the last publish when
// that was sooner, coalescing the changes in between. Real time, not the
// service's clock: it paces work, it decides nothing.
func (s *Service) publishSoon() {
	s.mu.Lock()
	if len(s.subs) == 0 || s.pubTimer != nil || s.closed {
		s.mu.Unlock()
		return
	}
	wait := publishEvery - time.Since(s.lastPub)
	if wait <= 0 {
		s.mu.Unlock()
		s.publish()
		return
	}
	s.pubTimer = time.AfterFunc(wait, func() {
		s.mu.Lock()
		s.pubTimer = nil
		s.mu.Unlock()
		s.publish()
	})
	s.mu.Unlock()
}

// publish sends a fresh snapshot to every subscriber now.
func (s *Service) publish() {
	s.mu.Lock()
	s.lastPub = time.Now()
	none := len(s.subs) == 0
	s.mu.Unlock()
	if none {
		return
	}
	snap := s.Snapshot()
	s.mu.Lock()
	fns := make([]func(Snapshot), 0, len(s.subs))
	for _, fn := range s.subs {
		fns = append(fns, fn)
	}
	s.mu.Unlock()
	for _, fn := range fns {
		fn(snap)
	}
}

// Snapshot returns a copy of the whole state, as the window and `notifio sites`
// show it.
func (s *Service) Snapshot() Snapshot {
	now := s.clock.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	snap := Snapshot{At: now, Offline: now.Before(s.offline.until)}
	snap.Outbox = s.outboxSummary(now) // first: a search's health reads its failing channels
	siteCount := map[string]int{}
	probeOf := map[string]string{}
	// Sorted as pointers, not as snapshots: sorting 1,000 large structs took half
	// of each Snapshot, which runs after every poll (docs/PERFORMANCE.md).
	runs := make([]*searchRun, 0, len(s.searches))
	for _, r := range s.searches {
		siteCount[r.s.Site]++
		if r.probing {
			probeOf[r.s.Site] = r.s.ID
		}
		runs = append(runs, r)
	}
	slices.SortFunc(runs, func(a, b *searchRun) int { return strings.Compare(a.s.ID, b.s.ID) })
	if len(runs) > 0 {
		snap.Searches = make([]SearchSnapshot, 0, len(runs))
	}
	for _, r := range runs {
		ss := SearchSnapshot{
			ID: r.s.ID, Name: r.s.Name, URL: r.s.URL, Site: r.s.Site, Interval: intervalOf(r.s),
			State: StateScheduled, NextCheck: r.due, LastChecked: r.lastChecked,
			LastOutcome: r.lastOutcome, LastSignal: r.lastSignal, LastCount: r.s.LastCount,
			LastNew: r.lastNew, Unseen: r.unseen, Baselined: r.s.Baselined, BaselineCount: r.s.BaselineCount, Filters: r.s.Filters,
			Health: s.searchHealthLocked(r, now),
		}
		e, waiting := s.reg.Lookup(r.s.Site)
		switch {
		case r.s.Paused:
			ss.State = StatePaused
			ss.NextCheck = time.Time{}
		case r.attention != "":
			ss.State = StateAttention
			ss.Reason = r.attention
			ss.NextCheck = time.Time{}
		case r.probing:
			ss.State = StateProbing
			ss.Reason = "probing " + r.s.Site
		case r.checking:
			ss.State = StateChecking
		case waiting && e.NextRetry.After(now):
			ss.State = StateWaiting
			ss.Reason = kindReason(r.s.Site, e.Kind)
			if e.NextRetry.After(ss.NextCheck) {
				ss.NextCheck = e.NextRetry
			}
		case probeOf[r.s.Site] != "":
			ss.State = StateWaiting
			ss.Reason = "waiting for the probe on " + r.s.Site
		case r.lastOutcome == string(classify.UnexpectedPage):
			ss.Reason = "the page did not look like results"
		}
		snap.Searches = append(snap.Searches, ss)
	}
	names := map[string]bool{}
	for n := range s.sites {
		names[n] = true
	}
	for _, e := range s.reg.Snapshot() {
		names[e.Site] = true
	}
	for n := range names {
		sr := s.site(n)
		ok, fail := sr.ok, sr.fail
		st := SiteSnapshot{
			Site: n, LastStatus: sr.lastStatus, LastSignal: sr.lastSignal, RetryAfter: sr.retryAfter,
			LastRefusal: sr.lastRefusal, AvgResponse: sr.avgResp,
			SuccessRate: float64(ok+1) / float64(ok+fail+1), Searches: siteCount[n],
			ProbeInFlight: probeOf[n] != "",
			Attention:     sr.needsLogin,
		}
		if e, ok := s.reg.Lookup(n); ok {
			st.Kind = e.Kind.String()
			st.Rung = e.Failures
			st.NextProbe = e.NextRetry
			st.Waiting = e.NextRetry.After(now)
			if e.RetryAfter > 0 {
				st.RetryAfter = e.RetryAfter
			}
		}
		snap.Sites = append(snap.Sites, st)
	}
	sort.Slice(snap.Sites, func(i, j int) bool { return snap.Sites[i].Site < snap.Sites[j].Site })
	return snap
}

// outboxSummary counts the outbox, at most once every two seconds: the snapshot
// is built after every poll, and the outbox keeps sent items for a while.
// Called with s.mu held.
func (s *Service) outboxSummary(now time.Time) OutboxSnapshot {
	if !s.outboxAt.IsZero() && now.Sub(s.outboxAt) < 2*time.Second && now.After(s.outboxAt) {
		return s.outboxSnap
	}
	var sum OutboxSnapshot
	items, err := s.db.ListOutbox()
	if err != nil {
		return s.outboxSnap
	}
	chans := map[string]storage.Channel{}
	if list, err := s.db.ListChannels(); err == nil {
		for _, c := range list {
			chans[c.Name] = c
		}
	}
	var newest, retrying time.Time
	sum.Failing, s.failingBySearch = failingChannels(items)
	for _, it := range items {
		switch it.State {
		case storage.OutboxPending:
			if it.Channel != "" && notify.HeldForQuiet(it, chans[it.Channel], now) {
				sum.Held++
				continue
			}
			sum.Pending++
			// An email that keeps failing with a temporary error (server down,
			// wrong port) is still pending; say why, so the window's banner can
			// tell the user instead of only the log. One failed try is a blip.
			if sum.NeedsAttention == 0 && it.Attempts >= 2 && it.LastError != "" && !it.Created.Before(retrying) {
				retrying = it.Created
				sum.LastError, sum.Hint = it.LastError, it.Hint
			}
		case storage.OutboxNeedsAttention:
			if sum.NeedsAttention == 0 {
				sum.LastError, sum.Hint = "", "" // a permanent problem outranks a retrying one
			}
			sum.NeedsAttention++
			if !it.Created.Before(newest) {
				newest = it.Created
				sum.LastError, sum.Hint = it.LastError, it.Hint
			}
		}
	}
	s.outboxSnap, s.outboxAt = sum, now
	return sum
}

// OutboxChanged tells the watcher that the relay sent or failed an email, so
// observers see the outbox as it is now. Safe from any goroutine.
func (s *Service) OutboxChanged() {
	s.invalidateOutbox()
	s.checkHealth(s.clock.Now()) // an email that now needs attention is told at once
	s.publish()
}

// invalidateOutbox makes the next snapshot count the outbox again.
func (s *Service) invalidateOutbox() {
	s.mu.Lock()
	s.outboxAt = time.Time{}
	s.mu.Unlock()
}
