package poll

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"notifio/hostbackoff"
	"notifio/poll/classify"
	"notifio/poll/extract"
	"notifio/poll/fetch"
	"notifio/storage"
)

// The pipeline of one poll: fetch, classify and extract (execute), then decide
// and record (finish, commit).

// result is what one fetch produced.
type result struct {
	resp      *fetch.Response
	err       error
	ext       extract.Result
	extErr    error
	outcome   classify.Outcome
	title     string
	elapsed   time.Duration
	offline   bool
	canceled  bool
	bodyHash  uint64 // extract.Fingerprint of a 200 page (0 otherwise)
	unchanged bool   // the page is byte-identical to the last committed one: not parsed
}

// execute fetches, extracts and classifies one page. It saves nothing.
func (s *Service) execute(ctx context.Context, j job) result {
	select { // bounds bodies being read at once (a hundred sites fall due together)
	case fetching <- struct{}{}:
		defer func() { <-fetching }()
	case <-ctx.Done():
	}
	ctx, cancel := context.WithTimeout(ctx, s.opts.RequestTimeout)
	defer cancel()
	start := s.clock.Now()
	resp, err := s.get(ctx, j)
	res := result{resp: resp, err: err}
	res.elapsed = s.clock.Now().Sub(start)
	if resp != nil && resp.Elapsed > 0 {
		res.elapsed = resp.Elapsed
	}
	if err != nil {
		if ctx.Err() != nil && errors.Is(ctx.Err(), context.Canceled) {
			res.canceled = true
		}
		if fetch.IsNetworkUnreachable(err) {
			res.offline = true
		}
	}
	in := classify.Input{Err: err, Now: start}
	if resp != nil {
		in.Status = resp.Status
		in.Header = resp.Header
		in.Body = resp.Body
		in.RequestURL = resp.RequestURL
		in.FinalURL = resp.FinalURL
		in.Redirect = resp.Redirect
		if err == nil && resp.Status == 200 && len(resp.Body) > 0 {
			res.bodyHash = extract.Fingerprint(resp.Body, j.url, j.sel)
			if res.bodyHash == j.prevHash {
				resp.Release()
				res.unchanged = true
				res.outcome = classify.Outcome{Kind: classify.OK, Status: resp.Status, Signal: SignalUnchanged}
				return res
			}
		}
		// From here the body is kept until the poll is finished: give it memory
		// of its own size and the pooled buffer back.
		resp.Detach()
		in.Body = resp.Body
		if err == nil && len(resp.Body) > 0 {
			analyzing <- struct{}{} // bounds parse trees in memory at once
			defer func() { <-analyzing }()
			page := resp.FinalURL
			if page == nil {
				page = resp.RequestURL
			}
			// One parse, shared by extraction and the classifier.
			in.Doc = extract.Parse(resp.Body)
			res.ext, res.extErr = extract.ExtractTree(in.Doc, page, j.sel, extract.Options{Structure: j.structure})
			in.Listings = len(res.ext.Listings)
			in.NoResultsMarker = res.ext.NoResults
			in.ResultsContainer = res.ext.Container
			res.title = extract.PageTitle(in.Doc)
		}
	}
	res.outcome = classify.Classify(in)
	if res.extErr != nil && res.outcome.Kind == classify.UnexpectedPage {
		res.outcome.Detail = res.extErr.Error()
	}
	return res
}

// analyzing bounds how many pages are parsed at once: a parse tree is about ten
// times its page, and a hundred sites fall due together at start.
var analyzing = make(chan struct{}, max(2, runtime.GOMAXPROCS(0)))

// fetching bounds the polls in flight across all sites; the rest wait their
// turn (a fetch of a slow site holds one slot for at most RequestTimeout).
var fetching = make(chan struct{}, 16)

// finish records one fetch's outcome: the registry (persisted at once), the
// search's schedule, the storage commit for new listings, and the site's health.
func (s *Service) finish(j job, res result, now time.Time) {
	s.mu.Lock()
	r := s.searches[j.searchID]
	sr := s.site(j.site)
	sr.inFlight = false
	if r != nil {
		r.checking = false
		r.probing = false
	}
	if res.canceled {
		s.mu.Unlock()
		return
	}
	s.day.count(now, 0)
	if res.offline {
		// Offline is not a refusal: no ladder climbs; the loop waits for
		// connectivity with its own short backoff.
		s.offline.step++
		wait := 10 * time.Second << min(s.offline.step-1, 4)
		if wait > 2*time.Minute {
			wait = 2 * time.Minute
		}
		s.offline.until = now.Add(wait)
		if r != nil {
			r.due = s.offline.until
			r.lastOutcome = "offline"
			r.lastSignal = res.err.Error()
			r.lastChecked = now
		}
		s.mu.Unlock()
		s.log.Warn("offline: no site reachable", "site", j.site, "retry_in", wait.String(), "err", res.err)
		s.publishSoon()
		return
	}
	s.offline = offlineState{}
	out := res.outcome
	sr.lastStatus = out.Status
	sr.lastSignal = out.Signal
	sr.retryAfter = out.RetryAfter
	if res.elapsed > 0 {
		if sr.avgResp == 0 {
			sr.avgResp = res.elapsed
		} else {
			sr.avgResp = time.Duration(0.7*float64(sr.avgResp) + 0.3*float64(res.elapsed))
		}
	}
	if r != nil {
		r.lastChecked = now
		r.lastOutcome = string(out.Kind)
		r.lastSignal = out.Signal
		r.due = now.Add(s.jittered(intervalOf(r.s)))
		if !res.unchanged {
			r.stale = out.Kind == classify.OK && res.ext.Fallback == extract.MethodSelectors
			r.bodyHash = 0 // set again by commit once this page's listings are saved
		} else {
			r.lastNew = 0
			r.s.LastPolled = now
		}
	}
	var search storage.Search
	if r != nil {
		search = r.s
	}
	s.mu.Unlock()

	switch {
	case out.Kind == classify.OK:
		s.mu.Lock()
		sr.ok++
		s.mu.Unlock()
		_, had := s.reg.Lookup(j.site)
		s.reg.Success(j.site, now)
		if had { // no entry, nothing changed: no write (one fsync less per poll)
			s.persistBackoff()
		}
		if r != nil && !res.unchanged {
			s.commit(j, search, res, now)
			s.invalidateOutbox()
		}
	case out.Kind == classify.SessionExpired:
		s.mu.Lock()
		sr.fail++
		sr.needsLogin = "session expired — log in again"
		for _, o := range s.searches {
			if o.s.Site == j.site {
				o.attention = "session expired — log in again"
			}
		}
		s.mu.Unlock()
		s.keepPage(j.site, res)
		s.log.Warn("session expired: searches on this site need the user", "site", j.site, "signal", out.Signal)
	case out.Kind.IsRefusal():
		s.mu.Lock()
		sr.fail++
		s.mu.Unlock()
		kind := refusalKind(out.Kind)
		until := s.reg.Record(j.site, kind, out.RetryAfter, now)
		s.persistBackoff()
		s.keepPage(j.site, res)
		s.log.Info("site refused", "site", j.site, "search_id", j.searchID, "kind", kind.String(),
			"status", out.Status, "signal", out.Signal, "next_check_at", until.Format(time.RFC3339))
	default:
		s.mu.Lock()
		sr.fail++
		s.mu.Unlock()
	}
	s.rememberLast(j, out, now)
	res.resp.Release() // nothing refers to the body any more (keepPage wrote it)
	s.publishSoon()
}

// refusalKind maps an outcome to its ladder; an unexpected page climbs the error
// ladder.
func refusalKind(k classify.Kind) hostbackoff.Kind {
	switch k {
	case classify.Challenge:
		return hostbackoff.Challenge
	case classify.RateLimited:
		return hostbackoff.RateLimited
	case classify.Denied:
		return hostbackoff.Denied
	}
	return hostbackoff.Error
}

// commit writes the listings of a successful poll in one transaction and wakes
// the outbox relay when a digest was queued.
func (s *Service) commit(j job, search storage.Search, res result, now time.Time) {
	found := judged(search.Filters, j.site, res.ext.Listings, now)
	cr, err := s.db.CommitPollRules(j.searchID, found, now, pollRules)
	if err != nil {
		s.log.Error("could not save the listings of a poll; they will be seen again next time",
			"search_id", j.searchID, "err", err)
		s.mu.Lock()
		if r := s.searches[j.searchID]; r != nil {
			r.lastOutcome = "error"
			r.lastSignal = "could not save: " + err.Error()
			r.saveErr = err
		}
		s.mu.Unlock()
		return
	}
	s.mu.Lock()
	if r := s.searches[j.searchID]; r != nil {
		r.saveErr = nil
		r.lastNew = len(cr.New)
		if cr.Baseline {
			r.s.Baselined = true
			r.s.BaselineCount = cr.BaselineCount
			r.lastNew = 0
		} else {
			r.unseen += len(cr.New)
			s.day.found += len(cr.New)
		}
		r.s.LastCount = len(found)
		r.s.LastPolled = now
		r.bodyHash = res.bodyHash
		r.structure = res.ext.Structure
	}
	s.mu.Unlock()
	if cr.Baseline {
		s.log.Info("baseline recorded", "search_id", j.searchID, "listings", cr.BaselineCount)
		return
	}
	s.announceChanges(search, cr)
	if len(cr.New) > 0 {
		s.log.Info("new listings", "search_id", j.searchID, "new", len(cr.New), "outbox_id", cr.OutboxID)
		if s.opts.Relay != nil {
			s.opts.Relay.Wake()
		}
		if s.opts.Notify != nil {
			s.opts.Notify(fmt.Sprintf("%d new on %s", len(cr.New), search.Name), firstTitles(cr.New))
		}
	}
}

func firstTitles(ls []storage.Listing) string {
	var b strings.Builder
	for i, l := range ls {
		if i == 3 {
			fmt.Fprintf(&b, "… and %d more", len(ls)-3)
			break
		}
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(l.Title)
		if l.Price != "" {
			b.WriteString(" — " + l.Price)
		}
	}
	return b.String()
}

func toStored(site string, l extract.Listing, now time.Time) storage.Listing {
	return storage.Listing{
		ID: site + ":" + l.ID, URL: l.URL, Title: l.Title, Price: l.Price,
		PriceValue: l.PriceValue, Currency: l.Currency, Location: l.Location,
		Size: l.Size, Rooms: l.Rooms, Image: l.Image, Promoted: l.Promoted, FirstSeen: now,
	}
}

// persistBackoff writes the registry's state at once, so a restart never forgets
// a wait.
func (s *Service) persistBackoff() {
	raw, err := json.Marshal(s.reg.Snapshot())
	if err == nil {
		err = s.db.SaveBackoff(raw)
	}
	if err != nil {
		s.log.Error("could not save the sites' backoff state", "err", err)
	}
}

// keepPage keeps a copy of a refusal or unexpected page for the user to open.
func (s *Service) keepPage(site string, res result) {
	if s.opts.DataDir == "" || res.resp == nil || len(res.resp.Body) == 0 {
		return
	}
	dir := filepath.Join(s.opts.DataDir, "pages")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		s.log.Warn("could not keep a copy of the page", "site", site, "err", err)
		return
	}
	name := filepath.Join(dir, safeName(site)+"-last.html")
	if err := os.WriteFile(name, res.resp.Body, 0o600); err != nil {
		s.log.Warn("could not keep a copy of the page", "site", site, "err", err)
		return
	}
	s.mu.Lock()
	s.site(site).lastRefusal = name
	s.mu.Unlock()
}

func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' || r == '-' {
			return r
		}
		return '_'
	}, strings.ToLower(s))
}
