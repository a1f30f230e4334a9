package storage

import (
	"encoding/json"
	"fmt"
	"math"
	"time"

	bolt "go.etcd.io/bbolt"

	"notifio/internal/model"
)

// PollTx is one poll's write transaction as plain reads and writes of one
// search's listings, the index of listings seen across searches and sites,
// and the outbox (poll/decide.Store): the poll decides, PollTx stores. It is
// valid only inside the SavePoll call that hands it out, on that goroutine.
type PollTx struct {
	d  *DB
	tx *bolt.Tx
	s  model.Search
	// the search's sub-buckets
	ids, order, held, present, gone *bolt.Bucket
	// upgraded is true on the first poll of a search since presence was
	// tracked: nothing can be "back on the market" yet.
	upgraded bool
}

// openPollTx reads the search and creates the buckets one poll writes.
func (d *DB) openPollTx(tx *bolt.Tx, searchID string) (*PollTx, error) {
	s, err := getSearch(tx.Bucket(bucketSearches), searchID)
	if err != nil {
		return nil, err
	}
	lb, err := tx.Bucket(bucketListings).CreateBucketIfNotExists([]byte(searchID))
	if err != nil {
		return nil, err
	}
	p := &PollTx{d: d, tx: tx, s: s}
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

// commitPoll runs the poll's decide function over the page inside tx, with
// the listings storage cannot keep (no ID, too long an ID, a repeat) left out.
func (d *DB) commitPoll(tx *bolt.Tx, searchID string, found []model.Listing, decide Decide) (model.CommitResult, error) {
	p, err := d.openPollTx(tx, searchID)
	if err != nil {
		return model.CommitResult{}, err
	}
	page := onePerID(found)
	for i := range page {
		page[i].PriceValue = safeFloat(page[i].PriceValue)
	}
	res, err := decide(p, page)
	if err != nil {
		return model.CommitResult{}, err
	}
	if d.testHookInCommit != nil {
		if err := d.testHookInCommit(); err != nil {
			return model.CommitResult{}, err
		}
	}
	return res, nil
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

// Search is the search polled, as stored when the transaction began.
func (p *PollTx) Search() model.Search { return p.s }

// Upgraded is true on the search's first poll since presence was tracked.
func (p *PollTx) Upgraded() bool { return p.upgraded }

// Seen reports whether the search has the listing delivered.
func (p *PollTx) Seen(id string) bool { return p.ids.Get([]byte(id)) != nil }

// Held reports whether the search's filters hold the listing back.
func (p *PollTx) Held(id string) bool { return p.held.Get([]byte(id)) != nil }

// PresentPrice is the price the listing had on the last page read.
func (p *PollTx) PresentPrice(id string) (float64, bool) {
	v := p.present.Get([]byte(id))
	if v == nil {
		return 0, false
	}
	if len(v) != 8 {
		return math.NaN(), true // unreadable: equal to no price
	}
	return math.Float64frombits(fromU64(v)), true
}

// GoneSince is when the listing left the page.
func (p *PollTx) GoneSince(id string) (time.Time, bool) {
	return goneAt(p.gone.Get([]byte(id)))
}

// MarkViewed counts every listing stored so far as looked at.
func (p *PollTx) MarkViewed() error {
	lb := p.tx.Bucket(bucketListings).Bucket([]byte(p.s.ID))
	return lb.Put(keyViewed, u64(p.order.Sequence()))
}

// PutSearch stores the search.
func (p *PollTx) PutSearch(s model.Search) error {
	return putJSON(p.tx.Bucket(bucketSearches), []byte(s.ID), s)
}

// Queue queues item for event once per channel that wants it.
func (p *PollTx) Queue(item model.OutboxItem, event model.Event) ([]uint64, error) {
	return p.d.queueDigests(p.tx, item, event)
}

// AddSeen stores l as delivered under a new order key (the newest) and
// indexes it.
func (p *PollTx) AddSeen(l model.Listing) error {
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

// PutHeld stores a held-back listing.
func (p *PollTx) PutHeld(l model.Listing) error { return putJSON(p.held, []byte(l.ID), l) }

// PutSeen rewrites a delivered listing where it is.
func (p *PollTx) PutSeen(l model.Listing) error {
	key := p.ids.Get([]byte(l.ID))
	if key == nil {
		return fmt.Errorf("listing %s: its record is missing", l.ID)
	}
	return putJSON(p.order, append([]byte(nil), key...), l)
}

// Release moves a held listing to the delivered ones, as the newest.
func (p *PollTx) Release(l model.Listing) error {
	if err := p.held.Delete([]byte(l.ID)); err != nil {
		return err
	}
	return p.AddSeen(l)
}

// Record reads a listing as stored, delivered or held.
func (p *PollTx) Record(id string, held bool) (model.Listing, error) {
	var rec model.Listing
	var v []byte
	if held {
		v = p.held.Get([]byte(id))
	} else if key := p.ids.Get([]byte(id)); key != nil {
		v = p.order.Get(key)
	}
	if v == nil {
		return rec, fmt.Errorf("listing %s: its record is missing", id)
	}
	if err := json.Unmarshal(v, &rec); err != nil {
		return rec, fmt.Errorf("listing %s: %w", id, err)
	}
	return rec, nil
}
