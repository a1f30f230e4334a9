package storage

import (
	"fmt"
	"math"
	"time"

	bolt "go.etcd.io/bbolt"

	"notifio/internal/model"
)

// This file keeps what a poll needs to tell listings seen before (poll/decide
// judges their price changes and their return after being gone a while).
//
// Per search, bucketPresent holds the listings on the last page read (listing
// ID → the price value then, 8 bytes), so an unchanged page is recognised
// without reading a single listing; bucketGone holds when each listing left
// the page (listing ID → time), so its return can be dated.

// SetPresent records l as on the page, with its price as shown now.
func (p *PollTx) SetPresent(l model.Listing) error {
	if err := p.present.Put([]byte(l.ID), u64(math.Float64bits(l.PriceValue))); err != nil {
		return err
	}
	if p.gone.Get([]byte(l.ID)) != nil {
		return p.gone.Delete([]byte(l.ID))
	}
	return nil
}

// MarkGone dates the listings that were on the last page and are not on this one.
func (p *PollTx) MarkGone(page []model.Listing, now time.Time) error {
	on := make(map[string]bool, len(page))
	for _, l := range page {
		on[l.ID] = true
	}
	var left [][]byte
	err := p.present.ForEach(func(k, _ []byte) error {
		if !on[string(k)] {
			left = append(left, append([]byte(nil), k...))
		}
		return nil
	})
	if err != nil {
		return err
	}
	at, err := now.MarshalBinary()
	if err != nil {
		return err
	}
	for _, k := range left {
		if err := p.present.Delete(k); err != nil {
			return err
		}
		if err := p.gone.Put(k, at); err != nil {
			return err
		}
	}
	return nil
}

func goneAt(v []byte) (time.Time, bool) {
	var t time.Time
	if v == nil || t.UnmarshalBinary(v) != nil {
		return t, false
	}
	return t, true
}

// presentUnchanged reports whether the page is exactly the last one read: the
// same listings, each at the price it had. False when presence is not tracked
// yet for the search.
func presentUnchanged(lb *bolt.Bucket, s model.Search, page []model.Listing) bool {
	present, ids, held := lb.Bucket(bucketPresent), lb.Bucket(bucketListingIDs), lb.Bucket(bucketHeld)
	if present == nil || ids == nil || s.LastCount != len(page) {
		return false
	}
	for _, l := range page {
		id := []byte(l.ID)
		if ids.Get(id) == nil && (held == nil || held.Get(id) == nil) {
			return false
		}
		v := present.Get(id)
		if len(v) != 8 || math.Float64frombits(fromU64(v)) != safeFloat(l.PriceValue) {
			return false
		}
	}
	return true
}

// PriceHistory returns the price history of one of the search's listings,
// oldest first ("" → nil): the window's Listings tab shows it.
func (d *DB) PriceHistory(searchID, listingID string) ([]model.PricePoint, error) {
	var out []model.PricePoint
	err := d.view("reading the price history of "+listingID, func(tx *bolt.Tx) error {
		lb := tx.Bucket(bucketListings).Bucket([]byte(searchID))
		if lb == nil {
			return fmt.Errorf("search %s: %w", searchID, model.ErrNotFound)
		}
		p := &PollTx{ids: lb.Bucket(bucketListingIDs), order: lb.Bucket(bucketListingOrder), held: lb.Bucket(bucketHeld)}
		held := p.ids == nil || p.ids.Get([]byte(listingID)) == nil
		if held && p.held == nil || !held && p.order == nil {
			return fmt.Errorf("listing %s: %w", listingID, model.ErrNotFound)
		}
		rec, err := p.Record(listingID, held)
		if err != nil {
			return fmt.Errorf("listing %s: %w", listingID, model.ErrNotFound)
		}
		out = rec.Prices
		return nil
	})
	return out, err
}
