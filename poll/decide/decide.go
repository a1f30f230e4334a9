package decide

import (
	"time"

	"notifio/internal/model"
)

// SameFlat reports whether two listings of different sites with the same
// price are one flat, and why in plain words; nil matches none.
type SameFlat func(a, b model.Listing) (why string, ok bool)

// poll is one page being decided and what was decided so far.
type poll struct {
	st       Store
	s        model.Search
	sameFlat SameFlat
	now      time.Time
	upgraded bool

	fresh   []model.Listing // announced as new (or back on the market)
	changed []model.Listing // announced as a price change
	seen    []model.Listing // recorded as seen: fresh, merged and baseline, for the index
	res     model.CommitResult
}

// Page decides a page of listings (page order, one per ID) inside the
// poll's transaction: every listing is new, held back, already seen, or
// changed, and what must be announced is queued — or, on the search's first
// poll, all of it is recorded silently as the baseline.
func Page(st Store, page []model.Listing, sameFlat SameFlat, now time.Time) (model.CommitResult, error) {
	p := &poll{st: st, s: st.Search(), sameFlat: sameFlat, now: now, upgraded: st.Upgraded()}
	for _, l := range page {
		if err := p.decide(l); err != nil {
			return model.CommitResult{}, err
		}
	}
	if err := st.MarkGone(page, now); err != nil {
		return model.CommitResult{}, err
	}
	// Bottom-up, so the page's first listing is the newest.
	for i := len(p.seen) - 1; i >= 0; i-- {
		if err := st.AddSeen(p.seen[i]); err != nil {
			return model.CommitResult{}, err
		}
	}
	if err := p.queue(); err != nil {
		return model.CommitResult{}, err
	}
	p.s.LastCount, p.s.LastPolled = len(page), now
	return p.res, st.PutSearch(p.s)
}

// decide sorts one listing of the page.
func (p *poll) decide(l model.Listing) error {
	if p.st.Seen(l.ID) {
		return p.again(l, false)
	}
	if p.st.Held(l.ID) {
		return p.again(l, true)
	}
	// Prices stays empty until the price first changes (prices.go adds the
	// first one then): most listings never change, and each byte is kept.
	l.FirstSeen = p.now
	if err := p.st.SetPresent(l); err != nil {
		return err
	}
	if l.Held != "" {
		p.res.Held++
		return p.st.PutHeld(l)
	}
	if !p.s.Baselined {
		p.seen = append(p.seen, l)
		return nil
	}
	merged, err := p.mergeDuplicate(&l)
	if err != nil {
		return err
	}
	if merged {
		p.res.Merged++
	} else {
		p.fresh = append(p.fresh, l)
	}
	p.seen = append(p.seen, l)
	return nil
}

// queue records the baseline, or queues the alerts: one new-listings digest
// and one price-change digest per channel, each only when it has listings.
func (p *poll) queue() error {
	if !p.s.Baselined {
		p.s.Baselined, p.s.BaselineCount = true, len(p.seen)
		p.res.Baseline, p.res.BaselineCount = true, len(p.seen)
		// The baseline is not "new since the user last looked".
		return p.st.MarkViewed()
	}
	item := model.OutboxItem{SearchID: p.s.ID, SearchName: p.s.Name, SearchURL: p.s.URL,
		Created: p.now, State: model.OutboxPending, NextAttempt: p.now}
	for _, q := range []struct {
		ls    []model.Listing
		event model.Event
		into  *[]model.Listing
	}{{p.fresh, model.EventNewListings, &p.res.New}, {p.changed, model.EventPriceDrop, &p.res.Changed}} {
		if len(q.ls) == 0 {
			continue
		}
		item.Listings = q.ls
		ids, err := p.st.Queue(item, q.event)
		if err != nil {
			return err
		}
		if err := p.st.NoteAlerted(q.ls, ids); err != nil {
			return err
		}
		*q.into = q.ls
		if p.res.OutboxID == 0 && len(ids) > 0 {
			p.res.OutboxID = ids[0]
		}
		p.res.OutboxIDs = append(p.res.OutboxIDs, ids...)
	}
	return nil
}
