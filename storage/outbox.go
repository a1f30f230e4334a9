package storage

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"notifio/internal/model"
)

// DueOutbox returns up to limit pending email items (Channel "") whose
// NextAttempt is not after now, oldest first (all of them when limit <= 0).
// The push channels' items are DueChannelOutbox's.
func (d *DB) DueOutbox(now time.Time, limit int) ([]model.OutboxItem, error) {
	return d.due(now, limit, false)
}

// NextOutboxDue is the earliest NextAttempt among pending email items; false
// when none is pending (or the outbox cannot be read).
func (d *DB) NextOutboxDue() (time.Time, bool) {
	return d.nextDue(false)
}

// due lists the due pending items of email (push false) or of the push channels.
func (d *DB) due(now time.Time, limit int, push bool) ([]model.OutboxItem, error) {
	var out []model.OutboxItem
	err := d.view("reading the outbox", func(tx *bolt.Tx) error {
		return d.forEachOpen(tx, func(it model.OutboxItem) bool {
			if it.State == model.OutboxPending && (it.Channel != "") == push && !it.NextAttempt.After(now) {
				out = append(out, it)
			}
			return limit <= 0 || len(out) < limit
		})
	})
	return out, err
}

func (d *DB) nextDue(push bool) (time.Time, bool) {
	var next time.Time
	found := false
	_ = d.view("reading the outbox", func(tx *bolt.Tx) error {
		return d.forEachOpen(tx, func(it model.OutboxItem) bool {
			if it.State == model.OutboxPending && (it.Channel != "") == push && (!found || it.NextAttempt.Before(next)) {
				next, found = it.NextAttempt, true
			}
			return true
		})
	})
	return next, found
}

// GetOutbox returns one item, or ErrNotFound.
func (d *DB) GetOutbox(id uint64) (model.OutboxItem, error) {
	var it model.OutboxItem
	err := d.view("reading the outbox", func(tx *bolt.Tx) (err error) {
		it, err = getOutbox(tx, id)
		return err
	})
	return it, err
}

// ListOutbox returns every item (pending, needing attention, and sent ones not
// yet pruned), oldest first.
func (d *DB) ListOutbox() ([]model.OutboxItem, error) {
	var out []model.OutboxItem
	err := d.view("reading the outbox", func(tx *bolt.Tx) error {
		return tx.Bucket(bucketOutbox).ForEach(func(k, v []byte) error {
			var it model.OutboxItem
			if err := json.Unmarshal(v, &it); err != nil {
				d.skipped(fmt.Sprintf("outbox item %d", fromU64(k)), err)
				return nil
			}
			out = append(out, it)
			return nil
		})
	})
	return out, err
}

// MarkSent records that the item was delivered. Marking a sent item again
// changes nothing.
func (d *DB) MarkSent(id uint64, at time.Time) error {
	return d.changeOutbox(id, func(it *model.OutboxItem) bool {
		if it.State == model.OutboxSent {
			return false
		}
		it.State, it.SentAt, it.LastError, it.Hint = model.OutboxSent, at, "", ""
		return true
	})
}

// MarkRetry records a temporary failure: the item stays pending, due at next.
// It does nothing to an item already sent.
func (d *DB) MarkRetry(id uint64, attempts int, next time.Time, lastErr string) error {
	return d.changeOutbox(id, func(it *model.OutboxItem) bool {
		if it.State == model.OutboxSent {
			return false
		}
		it.State, it.Attempts, it.NextAttempt, it.LastError = model.OutboxPending, attempts, next, lastErr
		return true
	})
}

// MarkNeedsAttention records a permanent failure: the item is kept, not retried,
// until the user fixes the cause and calls RetryOutbox. It does nothing to an
// item already sent.
func (d *DB) MarkNeedsAttention(id uint64, lastErr, hint string) error {
	return d.changeOutbox(id, func(it *model.OutboxItem) bool {
		if it.State == model.OutboxSent {
			return false
		}
		it.State, it.LastError, it.Hint = model.OutboxNeedsAttention, lastErr, hint
		return true
	})
}

// RetryOutbox puts an unsent item back to pending, due now, with its attempts
// reset. id 0 does so for every item that needs attention. Retrying a sent item
// is an error.
func (d *DB) RetryOutbox(id uint64, now time.Time) error {
	reset := func(it *model.OutboxItem) {
		it.State, it.NextAttempt, it.Attempts, it.Hint = model.OutboxPending, now, 0, ""
	}
	if id != 0 {
		return d.update(fmt.Sprintf("retrying outbox item %d", id), func(tx *bolt.Tx) error {
			it, err := getOutbox(tx, id)
			if err != nil {
				return err
			}
			if it.State == model.OutboxSent {
				return fmt.Errorf("outbox item %d was already sent", id)
			}
			reset(&it)
			return putJSON(tx.Bucket(bucketOutbox), u64(id), it)
		})
	}
	return d.update("retrying the outbox", func(tx *bolt.Tx) error {
		var todo []model.OutboxItem
		if err := d.forEachOpen(tx, func(it model.OutboxItem) bool {
			if it.State == model.OutboxNeedsAttention {
				todo = append(todo, it)
			}
			return true
		}); err != nil {
			return err
		}
		for _, it := range todo {
			reset(&it)
			if err := putJSON(tx.Bucket(bucketOutbox), u64(it.ID), it); err != nil {
				return err
			}
		}
		return nil
	})
}

// PruneOutbox deletes items sent more than SentRetention before now and returns
// how many. Unsent items are never deleted. Open calls it.
func (d *DB) PruneOutbox(now time.Time) (int, error) {
	cutoff := now.Add(-SentRetention)
	n := 0
	err := d.update("pruning the outbox", func(tx *bolt.Tx) error {
		n = 0
		b := tx.Bucket(bucketOutbox)
		open := tx.Bucket(bucketOutboxOpen)
		var old [][]byte
		err := b.ForEach(func(k, v []byte) error {
			if open.Get(k) != nil {
				return nil
			}
			var it model.OutboxItem
			if err := json.Unmarshal(v, &it); err != nil {
				return nil // keep what cannot be read rather than guess
			}
			if it.State == model.OutboxSent && !it.SentAt.IsZero() && it.SentAt.Before(cutoff) {
				old = append(old, append([]byte(nil), k...))
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, k := range old {
			if err := b.Delete(k); err != nil {
				return err
			}
		}
		n = len(old)
		return nil
	})
	return n, err
}

// changeOutbox loads an item, lets change edit it, and stores it (and its place in
// the open index) when change returns true.
func (d *DB) changeOutbox(id uint64, change func(*model.OutboxItem) bool) error {
	return d.update(fmt.Sprintf("updating outbox item %d", id), func(tx *bolt.Tx) error {
		it, err := getOutbox(tx, id)
		if err != nil {
			return err
		}
		if !change(&it) {
			return nil
		}
		key := u64(id)
		if err := putJSON(tx.Bucket(bucketOutbox), key, it); err != nil {
			return err
		}
		if it.State == model.OutboxSent {
			return tx.Bucket(bucketOutboxOpen).Delete(key)
		}
		return tx.Bucket(bucketOutboxOpen).Put(key, nil)
	})
}

func getOutbox(tx *bolt.Tx, id uint64) (model.OutboxItem, error) {
	var it model.OutboxItem
	v := tx.Bucket(bucketOutbox).Get(u64(id))
	if v == nil {
		return it, fmt.Errorf("outbox item %d: %w", id, model.ErrNotFound)
	}
	if err := json.Unmarshal(v, &it); err != nil {
		return it, fmt.Errorf("outbox item %d: %w", id, err)
	}
	return it, nil
}

// forEachOpen calls fn with every unsent item, oldest first, until fn returns
// false. An item that cannot be read is skipped (and logged): it must not hold up
// the others.
func (d *DB) forEachOpen(tx *bolt.Tx, fn func(model.OutboxItem) bool) error {
	c := tx.Bucket(bucketOutboxOpen).Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		it, err := getOutbox(tx, fromU64(k))
		if errors.Is(err, model.ErrNotFound) {
			continue // a stale index entry: nothing to send
		} else if err != nil {
			d.skipped(fmt.Sprintf("outbox item %d", fromU64(k)), err)
			continue
		}
		if !fn(it) {
			return nil
		}
	}
	return nil
}
