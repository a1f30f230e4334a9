package poll

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"notifio/hostbackoff"
	"notifio/poll/extract"
	"notifio/storage"

	"notifio/internal/model"
	"notifio/poll/words"
)

// "Test this search": one poll that saves nothing.

// TestSearch runs one dry-run poll of a URL: fetch, classify, extract, saving
// nothing. A site that is backing off is not fetched: the result says "waiting".
func (s *Service) TestSearch(ctx context.Context, in model.SearchInput) (model.DryRun, error) {
	site, u, err := words.SearchSite(in.URL)
	if err != nil {
		return model.DryRun{}, err
	}
	if err := extract.ValidateSelectors(in.Selectors); err != nil {
		return model.DryRun{}, badSelectors(err)
	}
	if err := CheckExample(in.Example); err != nil {
		return model.DryRun{}, err
	}
	now := s.clock.Now()
	dr := model.DryRun{URL: u.String(), Site: site}
	if w := s.waitFor(site, now); w != nil {
		dr.Outcome = "waiting"
		dr.WaitUntil = w.Until
		dr.Message = fmt.Sprintf("Not fetched: %s — next try at %s.", w.Reason, w.Until.Local().Format("15:04:05"))
		return dr, nil
	}
	cookie := strings.TrimSpace(in.Cookie)
	if cookie == "" {
		cookie = s.siteCookie(site)
	}
	j := job{site: site, url: u.String(), cookie: cookie, browser: in.Browser, sel: in.Selectors, start: now}
	res := s.execute(ctx, j)
	defer res.resp.Release()
	dr = dryRunOf(dr, res)
	s.offerBrowser(ctx, j, &dr, res)
	if res.outcome.Kind != model.OutcomeOK || res.resp == nil || len(res.resp.Body) == 0 {
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
		dr.Message = words.OutcomeMessage(dr.Site, dr.Outcome, len(dr.Listings), dr.NoResults)
	}
	return dr, nil
}

// MaxExample is the longest example listing Notifio reads, in characters: a
// title, price or link is far shorter, and a longer text is a paste gone wrong.
const MaxExample = 300

// CheckExample refuses an example that cannot be one listing's title, price
// or link, without repeating it (a 120 KB paste is not echoed back).
func CheckExample(example string) error {
	if n := utf8.RuneCountInString(strings.TrimSpace(example)); n > MaxExample {
		return model.NewUserError(nil, fmt.Sprintf("The example is %d characters long: that is more than one listing's title, price or link.", n),
			fmt.Sprintf("Paste the title, price or link of one listing as the page shows it (at most %d characters).", MaxExample))
	}
	return nil
}

// DryRunOnce is `notifio check`: one dry-run poll with a fresh fetcher, saving
// nothing, respecting the backoff state in db when db is not nil.
func DryRunOnce(ctx context.Context, db *storage.DB, in model.SearchInput, opts Options) (model.DryRun, error) {
	var s *Service
	var err error
	if db != nil {
		s, err = New(db, opts)
		if err != nil {
			return model.DryRun{}, err
		}
		defer s.Close()
	} else {
		s = &Service{opts: opts, clock: RealClock{}, schedule: schedule{reg: hostbackoff.NewRegistry(hostbackoff.Options{Ladders: model.DefaultLadders()})}, fetcher: opts.Fetcher, log: opts.Logger}
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

func dryRunOf(dr model.DryRun, res result) model.DryRun {
	dr.Outcome = model.Outcome(res.outcomeName())
	dr.Status = res.outcome.Status
	dr.RetryAfter = res.outcome.RetryAfter
	dr.Signal = res.outcome.Signal
	dr.Title = res.title
	dr.Method = res.ext.Method
	dr.Note = res.ext.Note
	dr.NoResults = res.ext.NoResults
	if res.outcome.Kind == model.OutcomeOK {
		dr.Listings = res.ext.Listings
	}
	if res.offline {
		dr.Outcome = "offline"
	}
	dr.Message = words.OutcomeMessage(dr.Site, dr.Outcome, len(dr.Listings), dr.NoResults)
	switch {
	case words.NeedsBrowser(dr.Outcome, dr.Signal):
		dr.Message = words.MessageNeedsBrowser // the words of the rows and `status`, not "did not look like results"
	case res.outcome.Detail != "" && dr.Outcome != model.OutcomeOK:
		dr.Message += " (" + res.outcome.Detail + ")"
	}
	return dr
}
