package storage

import (
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// AlertState is one health alert's memory: a search (or a delivery channel)
// that is unhealthy, since when, and what the user has been told. It is kept
// in the database so a restart never announces the same trouble twice.
type AlertState struct {
	// Kind is the health kind of this spell (poll's HealthKind words, e.g.
	// "blocked").
	Kind string `json:"kind"`
	// Site groups searches of one site into one alert.
	Site string `json:"site,omitempty"`
	// Since is when the spell began: the first check that found it.
	Since time.Time `json:"since"`
	// AlertedAt is when the alert was queued; zero until then.
	AlertedAt time.Time `json:"alerted_at,omitempty"`
	// RemindedAt is when the last reminder was queued; zero if none.
	RemindedAt time.Time `json:"reminded_at,omitempty"`
}

// Alert is what a health alert item says, in words composed by the watcher (so
// that email, push and the desktop share one wording).
type Alert struct {
	Kind string `json:"kind"`
	Site string `json:"site,omitempty"`
	// Searches are the names of the searches it is about.
	Searches []string `json:"searches,omitempty"`
	// Subject is the one-line headline (email subject, push title).
	Subject string `json:"subject"`
	// Lines are the body's paragraphs: what happened, since when, what Notifio
	// does, what the user can do.
	Lines []string `json:"lines"`
	// Link is the page to open (the search's results page), if any.
	Link string `json:"link,omitempty"`
	// Recovered is true for a "back to normal" message.
	Recovered bool `json:"recovered,omitempty"`
}

// QueuedAlert is one alert to queue with SaveAlerts: one item per channel
// that gets health alerts, except the channels in Skip ("" is email): trouble
// with a channel is never announced only through that channel.
type QueuedAlert struct {
	Alert    Alert
	SearchID string // the first search it names, for routing and the outbox list
	Skip     map[string]bool
}

// AlertChange is one key's new state for SaveAlerts; Delete drops it.
type AlertChange struct {
	Key    string
	State  AlertState
	Delete bool
}

// LoadAlertStates returns every stored alert state, by key.
func (d *DB) LoadAlertStates() (map[string]AlertState, error) {
	out := map[string]AlertState{}
	err := d.view("reading the alert states", func(tx *bolt.Tx) error {
		return tx.Bucket(bucketAlerts).ForEach(func(k, v []byte) error {
			var st AlertState
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
			got, err := d.queueAlert(tx, OutboxItem{
				SearchID: a.SearchID, SearchName: firstOr(alert.Searches, ""), SearchURL: alert.Link,
				Alert: &alert, Created: now, State: OutboxPending, NextAttempt: now,
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
func (d *DB) queueAlert(tx *bolt.Tx, item OutboxItem, skip map[string]bool) ([]uint64, error) {
	var targets []string
	if emailSetUp(tx) && !skip[""] {
		targets = append(targets, "")
	}
	for _, c := range readChannels(tx, d) {
		if !skip[c.Name] && c.Wants(EventHealth, item.SearchID) {
			targets = append(targets, c.Name)
		}
	}
	var ids []uint64
	for _, ch := range targets {
		id, err := d.putOutboxItem(tx, item, ch, EventHealth)
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
