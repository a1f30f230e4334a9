package storage

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"notifio/internal/model"
)

// AddSearch stores a new search and returns it with its ID (8 sortable
// characters, never reused) and Created set. Baselined, BaselineCount, LastCount
// and LastPolled start at zero: the first poll saved is the baseline.
func (d *DB) AddSearch(s model.Search) (model.Search, error) {
	if s.URL == "" {
		return model.Search{}, errors.New("adding a search: the URL is empty")
	}
	s.Created = d.opts.Now()
	s.Baselined, s.BaselineCount, s.LastCount = false, 0, 0
	s.LastPolled = time.Time{}
	err := d.update("adding a search", func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketSearches)
		seq, err := b.NextSequence()
		if err != nil {
			return err
		}
		s.ID = searchID(seq)
		return putJSON(b, []byte(s.ID), s)
	})
	if err != nil {
		return model.Search{}, err
	}
	return s, nil
}

// UpdateSearch saves the user-editable fields of an existing search (name, URL,
// site, interval, paused, selectors, cookie reference). The fields storage keeps
// (ID, Created, Baselined, BaselineCount, LastCount, LastPolled) are left as
// stored, so an edit racing a poll commit cannot undo it. Changing the URL makes
// the next poll a new baseline: the new page's existing listings are recorded
// silently instead of arriving as one big "new" digest.
func (d *DB) UpdateSearch(s model.Search) error {
	return d.update("saving search "+s.ID, func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketSearches)
		old, err := getSearch(b, s.ID)
		if err != nil {
			return err
		}
		if s.URL == "" {
			return errors.New("the URL is empty")
		}
		s.Created, s.Baselined, s.BaselineCount = old.Created, old.Baselined, old.BaselineCount
		s.LastCount, s.LastPolled = old.LastCount, old.LastPolled
		if s.URL != old.URL {
			s.Baselined, s.BaselineCount = false, 0
		}
		return putJSON(b, []byte(s.ID), s)
	})
}

// GetSearch returns the search with that ID, or ErrNotFound.
func (d *DB) GetSearch(id string) (model.Search, error) {
	var s model.Search
	err := d.view("reading search "+id, func(tx *bolt.Tx) (err error) {
		s, err = getSearch(tx.Bucket(bucketSearches), id)
		return err
	})
	return s, err
}

// ListSearches returns every search in creation order.
func (d *DB) ListSearches() ([]model.Search, error) {
	var out []model.Search
	err := d.view("listing searches", func(tx *bolt.Tx) error {
		return tx.Bucket(bucketSearches).ForEach(func(k, v []byte) error {
			var s model.Search
			if err := json.Unmarshal(v, &s); err != nil {
				d.skipped("search "+string(k), err)
				return nil
			}
			out = append(out, s)
			return nil
		})
	})
	return out, err
}

// DeleteSearch removes a search and its seen listings. Its outbox items stay:
// nothing leaves the outbox unsent.
func (d *DB) DeleteSearch(id string) error {
	return d.update("deleting search "+id, func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketSearches)
		if b.Get([]byte(id)) == nil {
			return fmt.Errorf("search %s: %w", id, model.ErrNotFound)
		}
		if err := b.Delete([]byte(id)); err != nil {
			return err
		}
		lb := tx.Bucket(bucketListings)
		if lb.Bucket([]byte(id)) != nil {
			return lb.DeleteBucket([]byte(id))
		}
		return nil
	})
}

// SetPaused pauses or resumes a search.
func (d *DB) SetPaused(id string, paused bool) error {
	return d.update("pausing search "+id, func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketSearches)
		s, err := getSearch(b, id)
		if err != nil {
			return err
		}
		s.Paused = paused
		return putJSON(b, []byte(id), s)
	})
}

func getSearch(b *bolt.Bucket, id string) (model.Search, error) {
	var s model.Search
	if id == "" {
		return s, fmt.Errorf("search with an empty id: %w", model.ErrNotFound)
	}
	v := b.Get([]byte(id))
	if v == nil {
		return s, fmt.Errorf("search %s: %w", id, model.ErrNotFound)
	}
	if err := json.Unmarshal(v, &s); err != nil {
		return s, fmt.Errorf("search %s: %w", id, err)
	}
	return s, nil
}

func putJSON(b *bolt.Bucket, key []byte, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return b.Put(key, data)
}
