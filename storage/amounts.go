package storage

import (
	"encoding/json"

	bolt "go.etcd.io/bbolt"

	"notifio/internal/model"
)

// fillAmounts is the migration that gives the listings stored before
// Listing.SizeValue and RoomsValue existed their numbers, read from their
// text as extraction reads them now (model.ShownAmount): the filters and the
// same-flat match compare only the numbers, so a stored listing without them
// would count as showing no size and no rooms. Both the delivered listings
// (bucketListingOrder) and the held-back ones (bucketHeld) are filled; a
// record that cannot be read is left as it is (its readers skip it too).
func fillAmounts(tx *bolt.Tx) error {
	lbs := tx.Bucket(bucketListings)
	if lbs == nil {
		return nil
	}
	var searches [][]byte // walked first: nothing is written inside a walk
	if err := lbs.ForEachBucket(func(id []byte) error {
		searches = append(searches, append([]byte(nil), id...))
		return nil
	}); err != nil {
		return err
	}
	for _, id := range searches {
		lb := lbs.Bucket(id)
		for _, name := range [][]byte{bucketListingOrder, bucketHeld} {
			if err := fillAmountsIn(lb.Bucket(name)); err != nil {
				return err
			}
		}
	}
	return nil
}

// fillAmountsIn fills the numbers the listings in b (nil: none) lack,
// writing back only the records that change; the writes wait until the walk
// is done, as bbolt asks of a bucket being walked.
func fillAmountsIn(b *bolt.Bucket) error {
	if b == nil {
		return nil
	}
	type rewrite struct {
		key []byte
		l   model.Listing
	}
	var changed []rewrite
	if err := b.ForEach(func(k, v []byte) error {
		var l model.Listing
		if json.Unmarshal(v, &l) != nil {
			return nil
		}
		before := l
		if l.SizeValue == 0 {
			l.SizeValue = model.ShownAmount(l.Size)
		}
		if l.RoomsValue == 0 {
			l.RoomsValue = model.ShownAmount(l.Rooms)
		}
		if l.SizeValue == before.SizeValue && l.RoomsValue == before.RoomsValue {
			return nil
		}
		changed = append(changed, rewrite{append([]byte(nil), k...), l})
		return nil
	}); err != nil {
		return err
	}
	for _, c := range changed {
		if err := putJSON(b, c.key, c.l); err != nil {
			return err
		}
	}
	return nil
}
