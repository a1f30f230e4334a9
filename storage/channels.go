package storage

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"notifio/internal/model"
)

// AddChannel stores a new channel; ErrExists if the name is taken.
func (d *DB) AddChannel(c model.Channel) error {
	if c.Name == "" {
		return errors.New("saving a channel: the name is empty")
	}
	return d.update("saving channel "+c.Name, func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketChannels)
		if b.Get([]byte(c.Name)) != nil {
			return fmt.Errorf("channel %q: %w", c.Name, model.ErrExists)
		}
		return putJSON(b, []byte(c.Name), c)
	})
}

// ListChannels returns every channel, by name.
func (d *DB) ListChannels() ([]model.Channel, error) {
	var out []model.Channel
	err := d.view("reading the channels", func(tx *bolt.Tx) error {
		out = readChannels(tx, d)
		return nil
	})
	return out, err
}

// RemoveChannel deletes a channel and, in the same transaction, its unsent
// outbox items: the only way an item leaves the outbox unsent is the user
// saying the channel is gone. ErrNotFound if there is no such channel.
func (d *DB) RemoveChannel(name string) error {
	return d.update("removing channel "+name, func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketChannels)
		if b.Get([]byte(name)) == nil {
			return fmt.Errorf("channel %q: %w", name, model.ErrNotFound)
		}
		var drop []uint64
		if err := d.forEachOpen(tx, func(it model.OutboxItem) bool {
			if it.Channel == name {
				drop = append(drop, it.ID)
			}
			return true
		}); err != nil {
			return err
		}
		for _, id := range drop {
			if err := tx.Bucket(bucketOutbox).Delete(u64(id)); err != nil {
				return err
			}
			if err := tx.Bucket(bucketOutboxOpen).Delete(u64(id)); err != nil {
				return err
			}
		}
		return b.Delete([]byte(name))
	})
}

// DueChannelOutbox is DueOutbox for the push channels' items (DueOutbox gives
// the email relay only email items).
func (d *DB) DueChannelOutbox(now time.Time, limit int) ([]model.OutboxItem, error) {
	return d.due(now, limit, true)
}

// NextChannelDue is NextOutboxDue for the push channels' items.
func (d *DB) NextChannelDue() (time.Time, bool) {
	return d.nextDue(true)
}

// HoldOutbox moves a pending item's next attempt to until without counting an
// attempt (quiet hours). It does nothing to an item that is not pending.
func (d *DB) HoldOutbox(id uint64, until time.Time) error {
	return d.changeOutbox(id, func(it *model.OutboxItem) bool {
		if it.State != model.OutboxPending {
			return false
		}
		it.NextAttempt = until
		return true
	})
}

func readChannels(tx *bolt.Tx, d *DB) []model.Channel {
	var out []model.Channel
	_ = tx.Bucket(bucketChannels).ForEach(func(k, v []byte) error {
		var c model.Channel
		if err := json.Unmarshal(v, &c); err != nil {
			d.skipped("channel "+string(k), err)
			return nil
		}
		out = append(out, c)
		return nil
	})
	return out
}

// queueDigests queues item once per channel that wants it (one item per
// channel, so each is retried and marked on its own) and for email, unless
// push channels took it and email is not set up: a user may run with push
// alone, and a listing is never seen without an alert queued somewhere. It
// returns the IDs queued, email's first.
func (d *DB) queueDigests(tx *bolt.Tx, item model.OutboxItem, event model.Event) ([]uint64, error) {
	var targets []string
	for _, c := range readChannels(tx, d) {
		if c.Wants(event, item.SearchID) {
			targets = append(targets, c.Name)
		}
	}
	if len(targets) == 0 || emailSetUp(tx) {
		targets = append([]string{""}, targets...)
	}
	var ids []uint64
	for _, ch := range targets {
		id, err := d.putOutboxItem(tx, item, ch, event)
		if err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// putOutboxItem stores a copy of item for one channel as a new open item and
// returns its ID.
func (d *DB) putOutboxItem(tx *bolt.Tx, item model.OutboxItem, channel string, event model.Event) (uint64, error) {
	ob := tx.Bucket(bucketOutbox)
	ob.FillPercent = appendFill
	open := tx.Bucket(bucketOutboxOpen)
	open.FillPercent = appendFill
	id, err := ob.NextSequence()
	if err != nil {
		return 0, err
	}
	it := item
	it.ID, it.Channel, it.Event = id, channel, event
	if event == model.EventNewListings {
		it.Event = "" // the zero value: what every item was before channels
	}
	it.MessageID = fmt.Sprintf("<outbox-%d.%s.%s@notifio.local>", id, item.SearchID, d.instance)
	if err := putJSON(ob, u64(id), it); err != nil {
		return 0, err
	}
	if err := open.Put(u64(id), nil); err != nil {
		return 0, err
	}
	return id, nil
}

// emailSettingKey is the settings key under which the SMTP settings are kept
// (notify writes them); only its host is read here, to know whether email is set up.
const emailSettingKey = model.SettingEmail

func emailSetUp(tx *bolt.Tx) bool {
	var cfg struct {
		Host string `json:"host"`
	}
	v := tx.Bucket(bucketSettings).Get([]byte(emailSettingKey))
	return v != nil && json.Unmarshal(v, &cfg) == nil && cfg.Host != ""
}
