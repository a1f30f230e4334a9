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

	"notifio/poll/classify"
	"notifio/poll/extract"
	"notifio/poll/fetch"
	"notifio/storage"

	"notifio/internal/model"

	"notifio/poll/words"
)

// The pipeline of one poll: fetch, classify and extract (execute), then decide
// and record (finish, commit).

// result is what one fetch produced.
type result struct {
	resp    *fetch.Response
	err     error
	ext     model.PageResult
	extErr  error
	outcome classify.Outcome
	title   string
	elapsed time.Duration
	offline bool
	// hostNotFound: the host does not resolve while other sites answer — the
	// site's own problem (OutcomeHostNotFound), not offline.
	hostNotFound bool
	canceled     bool
	bodyHash     uint64 // extract.Fingerprint of a 200 page (0 otherwise)
	unchanged    bool   // the page is byte-identical to the last committed one: not parsed
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
	elapsed := s.clock.Now().Sub(start)
	canceled := err != nil && ctx.Err() != nil && errors.Is(ctx.Err(), context.Canceled)
	res := analyze(j, resp, err, start)
	res.canceled = canceled
	if res.offline && fetch.IsHostNotFound(err) && s.otherSiteAnswers(j.site, start) {
		res.offline, res.hostNotFound = false, true
	}
	if res.elapsed == 0 {
		res.elapsed = elapsed
	}
	return res
}

// answerFresh is how recent another site's answer must be for a host not
// found to be that host's own problem.
const answerFresh = 30 * time.Minute

// otherSiteAnswers reports whether a site other than site answered at its
// latest check, within answerFresh of now: the network works, so a host that
// is not found is mistyped or gone. With no such site a host not found is
// read as offline (a resolver answering "not found" for everything).
func (s *Service) otherSiteAnswers(site string, now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for name, sr := range s.sites {
		if name != site && !sr.answeredAt.IsZero() && now.Sub(sr.answeredAt) < answerFresh {
			return true
		}
	}
	return false
}

// outcomeName is the poll's outcome as a search and its site record it: the
// classifier's kind, or OutcomeHostNotFound.
func (r result) outcomeName() string {
	if r.hostNotFound {
		return model.OutcomeHostNotFound
	}
	return string(r.outcome.Kind)
}

// analyze is the pipeline after the fetch, a function of the job and what the
// fetch returned: the page is classified and its listings extracted, from one
// parse — or, when it is byte-identical to the last committed page, not
// parsed at all.
func analyze(j job, resp *fetch.Response, err error, start time.Time) result {
	res := result{resp: resp, err: err, offline: err != nil && fetch.IsNetworkUnreachable(err)}
	in := classify.FromFetch(resp, err)
	in.Now = start
	if resp != nil {
		res.elapsed = resp.Elapsed
		if err == nil && resp.Status == 200 && len(resp.Body) > 0 {
			res.bodyHash = extract.Fingerprint(resp.Body, j.url, j.sel)
			if res.bodyHash == j.prevHash {
				resp.Release()
				res.unchanged = true
				res.outcome = classify.Outcome{Kind: model.OutcomeOK, Status: resp.Status, Signal: model.SignalUnchanged}
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
			extractPage(j, resp, &in, &res)
		}
	}
	res.outcome = classify.Classify(in)
	if res.extErr != nil && res.outcome.Kind == model.OutcomeUnexpectedPage {
		res.outcome.Detail = res.extErr.Error()
	}
	if res.outcome.Kind == model.OutcomeUnexpectedPage && !j.browser && in.Doc != nil && scriptShell(in.Doc) {
		res.outcome.Signal = words.SignalNeedsBrowser // needsbrowser.go
	}
	return res
}

// extractPage parses the page once, for extraction and the classifier.
func extractPage(j job, resp *fetch.Response, in *classify.Input, res *result) {
	page := resp.FinalURL
	if page == nil {
		page = resp.RequestURL
	}
	in.Doc = extract.Parse(resp.Body)
	res.ext, res.extErr = extract.ExtractTree(in.Doc, page, j.sel, extract.Options{Structure: j.structure})
	in.Listings = len(res.ext.Listings)
	in.NoResultsMarker = res.ext.NoResults
	in.ResultsContainer = res.ext.Container
	res.title = extract.PageTitle(in.Doc)
}

// analyzing bounds how many pages are parsed at once: a parse tree is about ten
// times its page, and a hundred sites fall due together at start.
var analyzing = make(chan struct{}, max(2, runtime.GOMAXPROCS(0)))

// fetching bounds the polls in flight across all sites; the rest wait their
// turn (a fetch of a slow site holds one slot for at most RequestTimeout).
var fetching = make(chan struct{}, 16)

// finish records one fetch's outcome: the registry, the search's schedule, the
// new listings and the last answers, all of it written by one save.
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
	sr.answeredAt = time.Time{}
	if res.resp != nil {
		sr.answeredAt = now
	}
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
		r.lastOutcome = res.outcomeName()
		r.lastSignal = out.Signal
		r.due = now.Add(s.jittered(intervalOf(r.s)))
		if !res.unchanged {
			r.stale = out.Kind == model.OutcomeOK && res.ext.Fallback == model.MethodSelectors
			r.bodyHash = 0 // set again by commit once this page's listings are saved
		} else {
			r.lastNew, r.lastDrops = 0, 0
			r.s.LastPolled = now
		}
	}
	var search model.Search
	if r != nil {
		search = r.s
	}
	s.mu.Unlock()

	w := s.gather(j, res, sr, search, r != nil, now)
	s.save(j, w, search, res, now)
	res.resp.Release() // nothing refers to the body any more (keepPage wrote it)
	s.publishSoon()
}

// gather applies a fetch's outcome to its site and the backoff registry, and
// returns what the poll writes: the registry's state when it changed, the page's
// listings when the search (known) read a new page.
func (s *Service) gather(j job, res result, sr *siteRun, search model.Search, known bool, now time.Time) storage.PollWrite {
	out := res.outcome
	w := storage.PollWrite{SearchID: j.searchID}
	switch {
	case out.Kind == model.OutcomeOK:
		s.mu.Lock()
		sr.ok++
		s.clearLoginLocked(j.site) // a good answer: the site's login works (again)
		s.mu.Unlock()
		_, had := s.reg.Lookup(j.site)
		s.reg.Success(j.site, now)
		if had { // no entry, nothing changed: no write (one fsync less per poll)
			w.Backoff = s.backoffState
		}
		if known && !res.unchanged {
			w.Page = &storage.PollPage{Found: judged(search.Filters, j.site, res.ext.Listings, now), Decide: decidePage(now)}
		}
	case out.Kind == model.OutcomeSessionExpired:
		s.mu.Lock()
		sr.fail++
		sr.needsLogin = words.WordsLogin
		for _, o := range s.searches {
			if o.s.Site == j.site {
				o.attention = words.WordsLogin
			}
		}
		s.mu.Unlock()
		s.keepPage(j.site, res)
		s.log.Warn("session expired: searches on this site need the user", "site", j.site, "signal", out.Signal)
	case out.Kind.IsRefusal():
		s.mu.Lock()
		sr.fail++
		s.mu.Unlock()
		kind, _ := out.Kind.Refusal()
		until := s.reg.Record(j.site, kind, out.RetryAfter, now)
		w.Backoff = s.backoffState
		s.keepPage(j.site, res)
		s.log.Info("site refused", "site", j.site, "search_id", j.searchID, "kind", kind.String(),
			"status", out.Status, "signal", out.Signal, "next_check_at", until.Format(time.RFC3339))
	default:
		s.mu.Lock()
		sr.fail++
		s.mu.Unlock()
	}
	return w
}

// save writes one poll in one transaction (storage.SavePoll): its listings and
// their alerts, the backoff state, the site's and the search's last answers. What
// the watcher remembers of them changes only once they are written; when the
// write fails none of it is, the listings are seen again next time and the
// site's wait stays in memory.
func (s *Service) save(j job, w storage.PollWrite, search model.Search, res result, now time.Time) {
	ans := s.lastAnswers(j, res.outcome, res.outcomeName(), now)
	ans.into(&w, j.site)
	cr, err := s.db.SavePoll(w)
	if err != nil {
		s.saveFailed(j, w, err)
		return
	}
	s.answered(j, ans)
	if w.Page == nil {
		return
	}
	if cr.SearchGone {
		s.log.Info("search deleted during its poll; its listings were not saved", "search_id", j.searchID)
		return
	}
	s.committed(j, search, res, len(w.Page.Found), cr, now)
	s.invalidateOutbox()
}

// saveFailed logs a poll that could not be written and, when it had listings,
// shows the search's problem.
func (s *Service) saveFailed(j job, w storage.PollWrite, err error) {
	s.log.Error("could not save a poll; its listings will be seen again next time",
		"search_id", j.searchID, "site", j.site, "err", err)
	if w.Page == nil {
		return
	}
	s.mu.Lock()
	if r := s.searches[j.searchID]; r != nil {
		r.lastOutcome = "error"
		r.lastSignal = "could not save: " + err.Error()
		r.saveErr = err
	}
	s.mu.Unlock()
	if merr := s.notSaved.mark(j.searchID, err, s.clock.Now()); merr != nil {
		s.log.Error("could not keep the mark of a poll not saved either; a later \"notifio status\" will not know",
			"search_id", j.searchID, "err", merr)
	}
}

// committed updates the search after its listings were saved, and tells of the
// new ones: the outbox relay is woken when a digest was queued.
func (s *Service) committed(j job, search model.Search, res result, count int, cr model.CommitResult, now time.Time) {
	s.mu.Lock()
	if r := s.searches[j.searchID]; r != nil {
		if r.saveErr != nil {
			defer s.clearNotSaved(j.searchID) // after s.mu is let go
		}
		r.saveErr = nil
		r.lastNew, r.lastDrops = len(cr.New), drops(cr.Changed)
		if cr.Baseline {
			r.s.Baselined = true
			r.s.BaselineCount = cr.BaselineCount
			r.lastNew, r.lastDrops = 0, 0
		} else {
			r.unseen += len(cr.New)
			s.day.found += len(cr.New)
		}
		r.s.LastCount = count
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
		if s.opts.Delivery != nil {
			s.opts.Delivery.Wake()
		}
		s.notifyDesktop(fmt.Sprintf("%d new on %s", len(cr.New), search.Name), firstTitles(cr.New))
	}
}

func firstTitles(ls []model.Listing) string {
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

func toStored(site string, l model.PageListing, now time.Time) model.Listing {
	return model.Listing{
		ID: site + ":" + l.ID, URL: l.URL, Title: l.Title, Price: l.Price,
		PriceValue: l.PriceValue, Currency: l.Currency, Location: l.Location,
		Size: l.Size, SizeValue: l.SizeValue, Rooms: l.Rooms, RoomsValue: l.RoomsValue,
		Image: l.Image, Promoted: l.Promoted, FirstSeen: now,
	}
}

// persistBackoff writes the registry's state at once outside a poll (the
// user's "probe now"), so a restart never forgets a wait.
func (s *Service) persistBackoff() {
	raw, err := s.backoffState()
	if err == nil {
		err = s.db.SaveBackoff(raw)
	}
	if err != nil {
		s.log.Error("could not save the sites' backoff state", "err", err)
	}
}

// backoffState is the registry's state as storage keeps it.
func (s *Service) backoffState() ([]byte, error) {
	return json.Marshal(s.reg.Snapshot())
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

// drops counts the price drops among the changed listings.
func drops(changed []model.Listing) int {
	n := 0
	for _, l := range changed {
		if l.Change == model.ChangePriceDrop {
			n++
		}
	}
	return n
}
