package storage

import (
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"notifio/internal/model"
)

// maxListingIDLen bounds a listing ID (a bbolt key); longer ones are not IDs.
const maxListingIDLen = 1024

// appendFill is the page fill for buckets whose keys only grow (bbolt's default,
// 0.5, suits random inserts).
const appendFill = 0.9

// pollChangesNothing reports whether SavePoll's page would only move LastPolled, in
// a read-only transaction. Any doubt (an error, a deleted search) says false:
// the write transaction then decides.
func (d *DB) pollChangesNothing(searchID string, found []model.Listing) bool {
	same := false
	_ = d.view("checking the poll of search "+searchID, func(tx *bolt.Tx) error {
		same = changesNothing(tx, searchID, found)
		return nil
	})
	return same
}

// changesNothing is pollChangesNothing inside a transaction.
func changesNothing(tx *bolt.Tx, searchID string, found []model.Listing) bool {
	s, err := getSearch(tx.Bucket(bucketSearches), searchID)
	if err != nil || !s.Baselined {
		return false
	}
	lb := tx.Bucket(bucketListings).Bucket([]byte(searchID))
	if lb == nil {
		return false
	}
	// Prices count: an unchanged list at a lower price is a change.
	return presentUnchanged(lb, s, onePerID(found))
}

// ListListings returns every listing seen for a search, newest first. The first
// Unseen(searchID) of them are the ones new since the user last looked.
func (d *DB) ListListings(searchID string) ([]model.Listing, error) {
	return d.RecentListings(searchID, 0)
}

// RecentListings is ListListings limited to the newest limit listings (all when
// limit <= 0).
func (d *DB) RecentListings(searchID string, limit int) ([]model.Listing, error) {
	var out []model.Listing
	err := d.view("reading the listings of search "+searchID, func(tx *bolt.Tx) error {
		order := listingOrder(tx, searchID)
		if order == nil {
			if tx.Bucket(bucketSearches).Get([]byte(searchID)) == nil {
				return fmt.Errorf("search %s: %w", searchID, model.ErrNotFound)
			}
			return nil
		}
		c := order.Cursor()
		for k, v := c.Last(); k != nil; k, v = c.Prev() {
			if limit > 0 && len(out) >= limit {
				break
			}
			var l model.Listing
			if err := json.Unmarshal(v, &l); err != nil {
				d.skipped(fmt.Sprintf("listing %d of search %s", fromU64(k), searchID), err)
				continue
			}
			out = append(out, l)
		}
		return nil
	})
	return out, err
}

// Unseen counts the search's listings first seen after the user last looked
// (MarkViewed). Baseline listings never count.
func (d *DB) Unseen(searchID string) (int, error) {
	n := 0
	err := d.view("counting new listings of search "+searchID, func(tx *bolt.Tx) error {
		order := listingOrder(tx, searchID)
		if order == nil {
			if tx.Bucket(bucketSearches).Get([]byte(searchID)) == nil {
				return fmt.Errorf("search %s: %w", searchID, model.ErrNotFound)
			}
			return nil
		}
		viewed := fromU64(tx.Bucket(bucketListings).Bucket([]byte(searchID)).Get(keyViewed))
		c := order.Cursor()
		for k, _ := c.Seek(u64(viewed + 1)); k != nil; k, _ = c.Next() {
			n++
		}
		return nil
	})
	return n, err
}

// MarkViewed records that the user has looked at the search's listings now:
// Unseen drops to 0 until the next new listing.
func (d *DB) MarkViewed(searchID string, now time.Time) error {
	return d.update("marking search "+searchID+" viewed", func(tx *bolt.Tx) error {
		if tx.Bucket(bucketSearches).Get([]byte(searchID)) == nil {
			return fmt.Errorf("search %s: %w", searchID, model.ErrNotFound)
		}
		lb, err := tx.Bucket(bucketListings).CreateBucketIfNotExists([]byte(searchID))
		if err != nil {
			return err
		}
		var top uint64
		if order := lb.Bucket(bucketListingOrder); order != nil {
			top = order.Sequence()
		}
		if err := lb.Put(keyViewed, u64(top)); err != nil {
			return err
		}
		at, err := now.MarshalBinary()
		if err != nil {
			return err
		}
		return lb.Put(keyViewedAt, at)
	})
}

func listingOrder(tx *bolt.Tx, searchID string) *bolt.Bucket {
	lb := tx.Bucket(bucketListings).Bucket([]byte(searchID))
	if lb == nil {
		return nil
	}
	return lb.Bucket(bucketListingOrder)
}
