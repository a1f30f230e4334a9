package storage

import (
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"notifio/internal/model"
)

// with a channel is never announced only through that channel.
type QueuedAlert struct {
	Alert    model.Alert
	SearchID string // the first search it names, for routing and the outbox list
	Skip     map[string]bool
}

// AlertChange is one key's new state for SaveAlerts; Delete drops it.
type AlertChange struct {
	Key    string
	State  model.AlertState
	Delete bool
}

// LoadAlertStates returns every stored alert state, by key.
func (d *DB) LoadAlertStates() (map[string]model.AlertState, error) {
	out := map[string]model.AlertState{}
	err := d.view("reading the alert states", func(tx *bolt.Tx) error {
		return tx.Bucket(bucketAlerts).ForEach(func(k, v []byte) error {
			var st model.AlertState
			if err := json.Unmarshal(v, &st); err != nil {
				d.skipped("alert state "+string(k), err)
				return nil
			}
			out[string(k)] = st
			return nil
		})
	})
	return out, err
}

// SaveAlerts writes alert states and queues alert items in one transaction:
// either the states say "told" and the items are queued, or neither, so a
// crash never loses an alert nor lets one be sent twice. It returns the IDs
// of the items queued.
func (d *DB) SaveAlerts(changes []AlertChange, alerts []QueuedAlert, now time.Time) ([]uint64, error) {
	var ids []uint64
	err := d.update("saving the health alerts", func(tx *bolt.Tx) error {
		ids = ids[:0]
		b := tx.Bucket(bucketAlerts)
		for _, c := range changes {
			if c.Delete {
				if err := b.Delete([]byte(c.Key)); err != nil {
					return err
				}
				continue
			}
			if err := putJSON(b, []byte(c.Key), c.State); err != nil {
				return fmt.Errorf("alert state %s: %w", c.Key, err)
			}
		}
		for _, a := range alerts {
			alert := a.Alert
			got, err := d.queueAlert(tx, model.OutboxItem{
				SearchID: a.SearchID, SearchName: firstOr(alert.Searches, ""), SearchURL: alert.Link,
				Alert: &alert, Created: now, State: model.OutboxPending, NextAttempt: now,
			}, a.Skip)
			if err != nil {
				return err
			}
			ids = append(ids, got...)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ids, nil
}

// queueAlert queues item for email (when it is set up) and every push channel
// that gets health alerts, leaving out skip. With nowhere to send it, nothing
// is queued: the desktop notification is then the alert.
func (d *DB) queueAlert(tx *bolt.Tx, item model.OutboxItem, skip map[string]bool) ([]uint64, error) {
	var targets []string
	if emailSetUp(tx) && !skip[""] {
		targets = append(targets, "")
	}
	for _, c := range readChannels(tx, d) {
		if !skip[c.Name] && c.Wants(model.EventHealth, item.SearchID) {
			targets = append(targets, c.Name)
		}
	}
	var ids []uint64
	for _, ch := range targets {
		id, err := d.putOutboxItem(tx, item, ch, model.EventHealth)
		if err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, nil
}

func firstOr(ss []string, def string) string {
	if len(ss) == 0 {
		return def
	}
	return ss[0]
}
