package poll

import (
	"fmt"
	"time"

	"notifio/poll/decide"
	"notifio/poll/filter"
	"notifio/storage"

	"notifio/internal/model"
)

// This file is the decide step of a poll (DESIGN.md, step 6): the search's
// filters judge every listing on the page before the one commit, which then
// records what they hold back instead of announcing it.

// decidePage is the poll's decision over a page it read (poll/decide with
// the filters' same-flat rule), run inside the poll's one transaction.
func decidePage(now time.Time) storage.Decide {
	return func(tx *storage.PollTx, page []model.Listing) (model.CommitResult, error) {
		return decide.Page(tx, page, filter.SameFlat, now)
	}
}

// judged returns the page's listings as stored, each with its filter verdict.
func judged(f model.Filters, site string, page []model.PageListing, now time.Time) []model.Listing {
	found := make([]model.Listing, 0, len(page))
	for _, l := range page {
		sl := toStored(site, l, now)
		r := filter.Match(f, sl)
		sl.Held, sl.Marks = r.Held, r.Marks
		found = append(found, sl)
	}
	return found
}

// announceChanges tells the relay and the desktop about price changes queued.
func (s *Service) announceChanges(search model.Search, cr model.CommitResult) {
	if cr.Held > 0 || cr.Merged > 0 {
		s.log.Info("listings held back or already announced", "search_id", search.ID, "held", cr.Held, "merged", cr.Merged)
	}
	if len(cr.Changed) == 0 {
		return
	}
	s.log.Info("price changes", "search_id", search.ID, "changed", len(cr.Changed))
	if s.opts.Delivery != nil {
		s.opts.Delivery.Wake()
	}
	if s.opts.Notify != nil { // the words are made only for a notifier
		l := cr.Changed[0]
		title := fmt.Sprintf("Price dropped on %s", search.Name)
		if l.Change == model.ChangePriceRise {
			title = fmt.Sprintf("Price went up on %s", search.Name)
		}
		s.notifyDesktop(title, fmt.Sprintf("%s: %s → %s", l.Title, l.OldPrice, l.Price))
	}
}

// judge is the dry run's verdicts, parallel to page.
func judge(f model.Filters, site string, page []model.PageListing) []model.FilterResult {
	out := make([]model.FilterResult, len(page))
	for i, l := range page {
		out[i] = filter.Match(f, toStored(site, l, time.Time{}))
	}
	return out
}

// HeldNowPassing returns the listings the search's filters held back that its
// filters as saved now let through: after loosening a filter, the window and
// the CLI offer to show them (never by email).
func (s *Service) HeldNowPassing(searchID string) ([]model.Listing, error) {
	sr, err := s.db.GetSearch(searchID)
	if err != nil {
		return nil, fmt.Errorf("poll: find search %s: %w", searchID, err)
	}
	held, err := s.db.HeldListings(searchID)
	if err != nil {
		return nil, fmt.Errorf("poll: read held-back listings: %w", err)
	}
	var out []model.Listing
	for _, l := range held {
		if r := filter.Match(sr.Filters, l); r.Pass() {
			l.Held, l.Marks = "", r.Marks
			out = append(out, l)
		}
	}
	return out, nil
}

// ShowHeld moves held-back listings into the search's listings, without an
// alert, and counts them as new in the window.
func (s *Service) ShowHeld(searchID string, ls []model.Listing) (int, error) {
	ids := make([]string, len(ls))
	for i, l := range ls {
		ids[i] = l.ID
	}
	n, err := s.db.ReleaseHeld(searchID, ids)
	if err != nil {
		return 0, fmt.Errorf("poll: show held-back listings: %w", err)
	}
	s.mu.Lock()
	if r := s.searches[searchID]; r != nil {
		r.unseen += n
	}
	s.mu.Unlock()
	s.publishSoon()
	return n, nil
}
