package storage

import (
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"notifio/internal/model"
)

// HeldListings returns the listings a search's filters held back (recorded as
// seen, never announced), newest first, each with Held saying why.
func (d *DB) HeldListings(searchID string) ([]model.Listing, error) {
	var out []model.Listing
	err := d.view("reading the held-back listings of search "+searchID, func(tx *bolt.Tx) error {
		if tx.Bucket(bucketSearches).Get([]byte(searchID)) == nil {
			return fmt.Errorf("search %s: %w", searchID, model.ErrNotFound)
		}
		lb := tx.Bucket(bucketListings).Bucket([]byte(searchID))
		if lb == nil || lb.Bucket(bucketHeld) == nil {
			return nil
		}
		return lb.Bucket(bucketHeld).ForEach(func(k, v []byte) error {
			var l model.Listing
			if err := json.Unmarshal(v, &l); err != nil {
				d.skipped("held listing "+string(k), err)
				return nil
			}
			out = append(out, l)
			return nil
		})
	})
	// Newest first, like the listings; equal times keep key order.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].FirstSeen.After(out[j-1].FirstSeen); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out, err
}

// ReleaseHeld moves held-back listings into the search's listings, as the
// newest, without any alert: the user asked to see them in the window after
// loosening a filter. IDs that are not held are skipped; it returns how many
// were moved. One transaction.
func (d *DB) ReleaseHeld(searchID string, ids []string) (int, error) {
	n := 0
	err := d.update("showing held-back listings of search "+searchID, func(tx *bolt.Tx) error {
		n = 0
		p, err := d.openPollTx(tx, searchID)
		if err != nil {
			return err
		}
		for _, id := range ids {
			v := p.held.Get([]byte(id))
			if v == nil {
				continue
			}
			var l model.Listing
			if err := json.Unmarshal(v, &l); err != nil {
				return fmt.Errorf("held listing %s: %w", id, err)
			}
			l.Held = ""
			if err := p.held.Delete([]byte(id)); err != nil {
				return err
			}
			if err := p.AddSeen(l); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	return n, err
}
