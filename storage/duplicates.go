package storage

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"

	bolt "go.etcd.io/bbolt"

	"notifio/internal/model"
)

// This file keeps what poll/decide needs for one flat one alert: which
// searches saw a listing, the listings at one price, and the alerts that
// announced them.
//
// bucketSeenBy: listing ID → JSON seenBy, for every listing a search has
// recorded as seen (not the held ones). bucketFlats: price value (8 bytes) +
// listing ID → JSON flatRef: a flat on two portals has the same price, so only
// the listings at that price are compared.

type seenBy struct {
	Searches []string `json:"searches"`
	// Outbox are the items that announced the listing (the newest few), so a
	// second search or site can be added to them while they are unsent.
	Outbox []uint64 `json:"outbox,omitempty"`
}

type flatRef struct {
	Search  string        `json:"search"`
	Listing model.Listing `json:"-"` // read from the search's own listings, not stored twice
}

// Bounds: how many listings at one price are compared with a new one, and
// how many alerts of one listing are remembered (the newest).
const (
	maxFlatRefs   = 200
	maxSeenOutbox = 16
)

// SeenBy is which searches recorded the listing and the outbox items that
// announced it (the newest few).
func (p *PollTx) SeenBy(id string) ([]string, []uint64) {
	e, _ := getSeenBy(p.tx.Bucket(bucketSeenBy), id)
	return e.Searches, e.Outbox
}

// FlatsAt returns the listings stored at exactly this price, at most
// maxFlatRefs, and the search that stored each.
func (p *PollTx) FlatsAt(price float64) ([]string, []model.Listing) {
	refs := flatsAt(p.tx, price)
	searches, ls := make([]string, len(refs)), make([]model.Listing, len(refs))
	for i, r := range refs {
		searches[i], ls[i] = r.Search, r.Listing
	}
	return searches, ls
}

// index records l as seen by this search, for the next search or site that finds it.
func (p *PollTx) index(l model.Listing) error {
	sb := p.tx.Bucket(bucketSeenBy)
	e, _ := getSeenBy(sb, l.ID)
	if !slices.Contains(e.Searches, p.s.ID) {
		e.Searches = append(e.Searches, p.s.ID)
		if err := putJSON(sb, []byte(l.ID), e); err != nil {
			return err
		}
	}
	return addFlat(p.tx, p.s.ID, l)
}

// addFlat adds l to the price index: one key per listing (price, then ID),
// so adding never rewrites what is there.
func addFlat(tx *bolt.Tx, searchID string, l model.Listing) error {
	if l.PriceValue <= 0 {
		return nil
	}
	key := append(u64(math.Float64bits(l.PriceValue)), l.ID...)
	return putJSON(tx.Bucket(bucketFlats), key, flatRef{Search: searchID})
}

// flatsAt returns the listings seen at exactly this price, at most
// maxFlatRefs (a price everybody asks, 1.000 €, must not make a poll slow).
func flatsAt(tx *bolt.Tx, price float64) []flatRef {
	prefix := u64(math.Float64bits(price))
	var out []flatRef
	c := tx.Bucket(bucketFlats).Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix) && len(out) < maxFlatRefs; k, v = c.Next() {
		var r flatRef
		if json.Unmarshal(v, &r) != nil {
			continue
		}
		var ok bool
		// A removed search's listings are gone with it: they merge nothing.
		if r.Listing, ok = readStored(tx, r.Search, string(k[len(prefix):])); ok {
			out = append(out, r)
		}
	}
	return out
}

// readStored reads a listing as a search stored it; false when it is not
// there (the search was removed) or unreadable.
func readStored(tx *bolt.Tx, searchID, id string) (model.Listing, bool) {
	var l model.Listing
	lb := tx.Bucket(bucketListings).Bucket([]byte(searchID))
	if lb == nil || lb.Bucket(bucketListingIDs) == nil || lb.Bucket(bucketListingOrder) == nil {
		return l, false
	}
	key := lb.Bucket(bucketListingIDs).Get([]byte(id))
	v := lb.Bucket(bucketListingOrder).Get(key)
	if key == nil || v == nil || json.Unmarshal(v, &l) != nil {
		return l, false
	}
	return l, true
}

// NoteAlerted records the outbox items that announce ls.
func (p *PollTx) NoteAlerted(ls []model.Listing, ids []uint64) error {
	sb := p.tx.Bucket(bucketSeenBy)
	for _, l := range ls {
		e, _ := getSeenBy(sb, l.ID)
		if !slices.Contains(e.Searches, p.s.ID) {
			e.Searches = append(e.Searches, p.s.ID)
		}
		e.Outbox = append(e.Outbox, ids...)
		if len(e.Outbox) > maxSeenOutbox {
			e.Outbox = e.Outbox[len(e.Outbox)-maxSeenOutbox:]
		}
		if err := putJSON(sb, []byte(l.ID), e); err != nil {
			return err
		}
	}
	return nil
}

// AmendOutbox changes the listing id in those of the items that are not sent yet.
func (p *PollTx) AmendOutbox(items []uint64, id string, change func(*model.Listing)) error {
	ob := p.tx.Bucket(bucketOutbox)
	for _, oid := range items {
		it, err := getOutbox(p.tx, oid)
		if err != nil || it.State == model.OutboxSent {
			continue // pruned or sent: the window still shows the match
		}
		i := slices.IndexFunc(it.Listings, func(l model.Listing) bool { return l.ID == id })
		if i < 0 {
			continue
		}
		change(&it.Listings[i])
		if err := putJSON(ob, u64(oid), it); err != nil {
			return err
		}
	}
	return nil
}

// UpdateStored changes a listing as another search stored it.
func (p *PollTx) UpdateStored(searchID, id string, change func(*model.Listing)) error {
	lb := p.tx.Bucket(bucketListings).Bucket([]byte(searchID))
	if lb == nil || lb.Bucket(bucketListingIDs) == nil || lb.Bucket(bucketListingOrder) == nil {
		return nil // that search was removed
	}
	order := lb.Bucket(bucketListingOrder)
	key := lb.Bucket(bucketListingIDs).Get([]byte(id))
	v := order.Get(key)
	if key == nil || v == nil {
		return nil
	}
	var rec model.Listing
	if json.Unmarshal(v, &rec) != nil {
		return nil
	}
	change(&rec)
	return putJSON(order, append([]byte(nil), key...), rec)
}

// SearchNames are the names of those of ids still stored.
func (p *PollTx) SearchNames(ids []string) []string {
	var out []string
	for _, id := range ids {
		if s, err := getSearch(p.tx.Bucket(bucketSearches), id); err == nil {
			out = append(out, s.Name)
		}
	}
	return out
}

func getSeenBy(b *bolt.Bucket, id string) (seenBy, bool) {
	var e seenBy
	v := b.Get([]byte(id))
	if v == nil || json.Unmarshal(v, &e) != nil {
		return seenBy{}, false
	}
	return e, true
}

func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// indexSeenListings is the migration that creates bucketSeenBy and bucketFlats
// and fills them from every listing seen so far.
func indexSeenListings(tx *bolt.Tx) error {
	sb, err := tx.CreateBucketIfNotExists(bucketSeenBy)
	if err != nil {
		return err
	}
	if _, err := tx.CreateBucketIfNotExists(bucketFlats); err != nil {
		return err
	}
	lbs := tx.Bucket(bucketListings)
	if lbs == nil {
		return nil
	}
	return lbs.ForEachBucket(func(searchID []byte) error {
		order := lbs.Bucket(searchID).Bucket(bucketListingOrder)
		if order == nil {
			return nil
		}
		return order.ForEach(func(_, v []byte) error {
			var l model.Listing
			if json.Unmarshal(v, &l) != nil || l.ID == "" {
				return nil // unreadable: the reader skips it too
			}
			e, _ := getSeenBy(sb, l.ID)
			e.Searches = appendNew(e.Searches, string(searchID))
			if err := putJSON(sb, []byte(l.ID), e); err != nil {
				return err
			}
			return addFlat(tx, string(searchID), l)
		})
	})
}
