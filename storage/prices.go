package storage

import (
	"encoding/json"
	"fmt"
	"math"
	"time"

	bolt "go.etcd.io/bbolt"

	"notifio/internal/model"
)

// This file is what a poll learns about listings it has seen before: their
// price changes (kept as a history on the listing) and their return after
// being gone a while ("back on the market").
//
// Per search, bucketPresent holds the listings on the last page read (listing
// ID → the price value then, 8 bytes), so an unchanged page is recognised
// without reading a single listing; bucketGone holds when each listing left
// the page (listing ID → time), so its return can be dated.

// again handles a listing the search has seen before: delivered (in ids) or
// held back by a filter (in bucketHeld).
func (p *pollTx) again(l model.Listing, held bool) error {
	id := []byte(l.ID)
	last := p.present.Get(id)
	relisted := false
	if last == nil && !p.upgraded {
		if at, ok := goneAt(p.gone.Get(id)); ok && p.now.Sub(at) >= model.RelistAfter {
			relisted = true
		}
	}
	if len(last) == 8 && math.Float64frombits(fromU64(last)) == l.PriceValue {
		return nil // as last time: nothing to read or write (and not gone, so not relisted)
	}
	if err := p.setPresent(l); err != nil {
		return err
	}
	rec, where, err := p.record(l.ID, held)
	if err != nil {
		return err
	}
	change := priceChange(rec, l)
	if change != "" {
		newPrice(&rec, l, p.now)
	}
	rec.Held, rec.Marks = l.Held, l.Marks // as the filters see it now
	announce := l.Held == "" && (change == model.ChangePriceDrop && !p.s.Filters.NoPriceDrops ||
		change == model.ChangePriceRise && p.s.Filters.PriceRises)
	if err := p.putBack(rec, where, held, announce); err != nil {
		return err
	}
	if held && (!announce || !p.s.Baselined) {
		return nil // still held back: the window offers it when a filter is loosened
	}
	switch {
	case !p.s.Baselined:
	case announce:
		rec.Change = change
		p.changed = append(p.changed, rec)
	case relisted && l.Held == "" && !held: // a held one waits for the window
		rec.Change, rec.OldPrice = model.ChangeRelisted, ""
		p.fresh = append(p.fresh, rec)
	}
	return nil
}

// newPrice records the price l shows now in the listing's history.
func newPrice(rec *model.Listing, l model.Listing, now time.Time) {
	rec.OldPrice = rec.Price
	if len(rec.Prices) == 0 && rec.PriceValue > 0 {
		rec.Prices = []model.PricePoint{{At: rec.FirstSeen, Price: rec.Price, Value: rec.PriceValue}}
	}
	rec.Prices = append(rec.Prices, model.PricePoint{At: now, Price: l.Price, Value: l.PriceValue})
	rec.Price, rec.PriceValue, rec.Currency = l.Price, l.PriceValue, orKeep(l.Currency, rec.Currency)
}

// putBack writes the listing's record back where it is kept (where: its key
// there, as record returned it). A held-back listing whose price fell under
// the user's limit (announce, after the baseline) is delivered now, as a drop:
// it moves from the held ones to the search's listings.
func (p *pollTx) putBack(rec model.Listing, where []byte, held, announce bool) error {
	if !held {
		return putJSON(p.order, where, rec)
	}
	if !announce || !p.s.Baselined {
		return putJSON(p.held, where, rec)
	}
	if err := p.held.Delete(where); err != nil {
		return err
	}
	return p.putOrdered(rec)
}

// record reads the stored listing and, for a delivered one, its order key.
func (p *pollTx) record(id string, held bool) (model.Listing, []byte, error) {
	var rec model.Listing
	key := []byte(id)
	if !held {
		key = p.ids.Get([]byte(id))
	}
	var v []byte
	if held {
		v = p.held.Get(key)
	} else {
		v = p.order.Get(key)
	}
	if v == nil {
		return rec, nil, fmt.Errorf("listing %s: its record is missing", id)
	}
	if err := json.Unmarshal(v, &rec); err != nil {
		return rec, nil, fmt.Errorf("listing %s: %w", id, err)
	}
	return rec, append([]byte(nil), key...), nil
}

// priceChange compares the stored price with the one on the page. A price not
// shown (now or before) or in another currency is no change.
func priceChange(rec, now model.Listing) model.Change {
	if rec.PriceValue <= 0 || now.PriceValue <= 0 || rec.PriceValue == now.PriceValue {
		return ""
	}
	if rec.Currency != "" && now.Currency != "" && rec.Currency != now.Currency {
		return ""
	}
	if now.PriceValue < rec.PriceValue {
		return model.ChangePriceDrop
	}
	return model.ChangePriceRise
}

func orKeep(v, old string) string {
	if v == "" {
		return old
	}
	return v
}

// setPresent records l as on the page, with its price as shown now.
func (p *pollTx) setPresent(l model.Listing) error {
	if err := p.present.Put([]byte(l.ID), u64(math.Float64bits(l.PriceValue))); err != nil {
		return err
	}
	if p.gone.Get([]byte(l.ID)) != nil {
		return p.gone.Delete([]byte(l.ID))
	}
	return nil
}

// markGone dates the listings that were on the last page and are not on this one.
func (p *pollTx) markGone(page []model.Listing) error {
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
	at, err := p.now.MarshalBinary()
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
		p := &pollTx{ids: lb.Bucket(bucketListingIDs), order: lb.Bucket(bucketListingOrder), held: lb.Bucket(bucketHeld)}
		held := p.ids == nil || p.ids.Get([]byte(listingID)) == nil
		if held && p.held == nil || !held && p.order == nil {
			return fmt.Errorf("listing %s: %w", listingID, model.ErrNotFound)
		}
		rec, _, err := p.record(listingID, held)
		if err != nil {
			return fmt.Errorf("listing %s: %w", listingID, model.ErrNotFound)
		}
		out = rec.Prices
		return nil
	})
	return out, err
}
