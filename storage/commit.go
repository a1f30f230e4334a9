package storage

import (
	"time"

	bolt "go.etcd.io/bbolt"

	"notifio/internal/model"
)

// PollRules are the parts of a poll's decision that are not storage's to make.
// The zero value matches no flats across sites.
type PollRules struct {
	// SameFlat reports whether two listings of different sites with the same
	// price are one flat, and why in plain words; nil matches none.
	SameFlat func(a, b model.Listing) (why string, ok bool)
}

// pollTx is one CommitPoll's transaction and what it has decided so far.
type pollTx struct {
	d     *DB
	tx    *bolt.Tx
	s     model.Search
	rules PollRules
	now   time.Time
	// the search's sub-buckets
	ids, order, held, present, gone *bolt.Bucket
	// upgraded is true on the first poll of a search since presence was
	// tracked: nothing can be "back on the market" yet.
	upgraded bool

	fresh   []model.Listing // announced as new (or back on the market)
	changed []model.Listing // announced as a price change
	seen    []model.Listing // recorded as seen: fresh, merged and baseline, for the index
	res     CommitResult
}

// openPollTx reads the search and creates the buckets one poll writes.
func (d *DB) openPollTx(tx *bolt.Tx, searchID string, rules PollRules, now time.Time) (*pollTx, error) {
	s, err := getSearch(tx.Bucket(bucketSearches), searchID)
	if err != nil {
		return nil, err
	}
	lb, err := tx.Bucket(bucketListings).CreateBucketIfNotExists([]byte(searchID))
	if err != nil {
		return nil, err
	}
	p := &pollTx{d: d, tx: tx, s: s, rules: rules, now: now}
	p.upgraded = lb.Bucket(bucketPresent) == nil
	for _, b := range []struct {
		name []byte
		to   **bolt.Bucket
	}{{bucketListingIDs, &p.ids}, {bucketListingOrder, &p.order}, {bucketHeld, &p.held},
		{bucketPresent, &p.present}, {bucketGone, &p.gone}} {
		if *b.to, err = lb.CreateBucketIfNotExists(b.name); err != nil {
			return nil, err
		}
	}
	// Order keys and outbox IDs only ever grow: pack their pages full rather
	// than leaving half of each free for inserts that never come.
	p.order.FillPercent = appendFill
	return p, nil
}

// commitPoll is CommitPoll's transaction: every listing on the page is new,
// held back, already seen, or changed, and what must be announced is queued.
func (d *DB) commitPoll(tx *bolt.Tx, searchID string, found []model.Listing, rules PollRules, now time.Time) (CommitResult, error) {
	p, err := d.openPollTx(tx, searchID, rules, now)
	if err != nil {
		return CommitResult{}, err
	}
	page := onePerID(found)
	for _, l := range page {
		l.PriceValue = safeFloat(l.PriceValue)
		if err := p.decide(l); err != nil {
			return CommitResult{}, err
		}
	}
	if err := p.markGone(page); err != nil {
		return CommitResult{}, err
	}
	if err := p.storeSeen(); err != nil {
		return CommitResult{}, err
	}
	if d.testHookInCommit != nil {
		if err := d.testHookInCommit(); err != nil {
			return CommitResult{}, err
		}
	}
	if err := p.queue(); err != nil {
		return CommitResult{}, err
	}
	p.s.LastCount, p.s.LastPolled = len(page), now
	return p.res, putJSON(tx.Bucket(bucketSearches), []byte(p.s.ID), p.s)
}

// onePerID drops listings without a usable ID and repeats, keeping page order.
func onePerID(found []model.Listing) []model.Listing {
	out := make([]model.Listing, 0, len(found))
	onPage := make(map[string]bool, len(found))
	for _, l := range found {
		if l.ID == "" || len(l.ID) > maxListingIDLen || onPage[l.ID] {
			continue
		}
		onPage[l.ID] = true
		out = append(out, l)
	}
	return out
}

// decide sorts one listing of the page.
func (p *pollTx) decide(l model.Listing) error {
	if p.ids.Get([]byte(l.ID)) != nil {
		return p.again(l, false)
	}
	if p.held.Get([]byte(l.ID)) != nil {
		return p.again(l, true)
	}
	// Prices stays empty until the price first changes (prices.go adds the
	// first one then): most listings never change, and each byte is kept.
	l.FirstSeen = p.now
	if err := p.setPresent(l); err != nil {
		return err
	}
	if l.Held != "" {
		p.res.Held++
		return putJSON(p.held, []byte(l.ID), l)
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

// storeSeen gives the listings first seen in this poll their order keys,
// bottom-up, so the page's first listing is the newest, and indexes them.
func (p *pollTx) storeSeen() error {
	for i := len(p.seen) - 1; i >= 0; i-- {
		if err := p.putOrdered(p.seen[i]); err != nil {
			return err
		}
	}
	return nil
}

// putOrdered stores l under a new order key (the newest) and marks it seen.
func (p *pollTx) putOrdered(l model.Listing) error {
	seq, err := p.order.NextSequence()
	if err != nil {
		return err
	}
	key := u64(seq)
	if err := putJSON(p.order, key, l); err != nil {
		return err
	}
	if err := p.ids.Put([]byte(l.ID), key); err != nil {
		return err
	}
	return p.index(l)
}

// queue records the baseline, or queues the alerts: one new-listings digest
// and one price-change digest per channel, each only when it has listings.
func (p *pollTx) queue() error {
	lb := p.tx.Bucket(bucketListings).Bucket([]byte(p.s.ID))
	if !p.s.Baselined {
		p.s.Baselined, p.s.BaselineCount = true, len(p.seen)
		p.res.Baseline, p.res.BaselineCount = true, len(p.seen)
		// The baseline is not "new since the user last looked".
		return lb.Put(keyViewed, u64(p.order.Sequence()))
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
		ids, err := p.d.queueDigests(p.tx, item, q.event)
		if err != nil {
			return err
		}
		if err := p.noteAlerted(q.ls, ids); err != nil {
			return err
		}
		*q.into = q.ls
		if p.res.OutboxID == 0 {
			p.res.OutboxID = ids[0]
		}
		p.res.OutboxIDs = append(p.res.OutboxIDs, ids...)
	}
	return nil
}
