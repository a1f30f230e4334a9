package storage

import (
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// GetSetting decodes the JSON setting key into v; false when it is not set.
func (d *DB) GetSetting(key string, v any) (bool, error) {
	return d.getJSON(bucketSettings, "setting", key, v)
}

// PutSetting stores v as JSON under key.
func (d *DB) PutSetting(key string, v any) error {
	return d.putJSON(bucketSettings, "setting", key, v)
}

// DeleteSetting removes a setting (no error when it is not set).
func (d *DB) DeleteSetting(key string) error {
	return d.update("deleting setting "+key, func(tx *bolt.Tx) error {
		return tx.Bucket(bucketSettings).Delete([]byte(key))
	})
}

// SaveBackoff stores the poller's per-site backoff snapshot (opaque bytes,
// hostbackoff's JSON).
func (d *DB) SaveBackoff(data []byte) error {
	return d.update("saving the site backoff state", func(tx *bolt.Tx) error {
		return tx.Bucket(bucketBackoff).Put(keyBackoffSnapshot, data)
	})
}

// LoadBackoff returns the last SaveBackoff's bytes, or nil when there are none.
func (d *DB) LoadBackoff() ([]byte, error) {
	var out []byte
	err := d.view("reading the site backoff state", func(tx *bolt.Tx) error {
		if v := tx.Bucket(bucketBackoff).Get(keyBackoffSnapshot); v != nil {
			out = append([]byte{}, v...)
		}
		return nil
	})
	return out, err
}

// LoadSiteInfo decodes one site's information into v; false when there is none.
func (d *DB) LoadSiteInfo(site string, v any) (bool, error) {
	return d.getJSON(bucketSites, "site info", site, v)
}

// LoadSiteInfos returns every site's stored JSON, by site.
func (d *DB) LoadSiteInfos() (map[string]json.RawMessage, error) {
	out := map[string]json.RawMessage{}
	err := d.view("reading site information", func(tx *bolt.Tx) error {
		return tx.Bucket(bucketSites).ForEach(func(k, v []byte) error {
			out[string(k)] = append(json.RawMessage{}, v...)
			return nil
		})
	})
	return out, err
}

func (d *DB) getJSON(bucket []byte, what, key string, v any) (bool, error) {
	found := false
	err := d.view("reading "+what+" "+key, func(tx *bolt.Tx) error {
		if key == "" {
			return nil
		}
		data := tx.Bucket(bucket).Get([]byte(key))
		if data == nil {
			return nil
		}
		found = true
		if err := json.Unmarshal(data, v); err != nil {
			return fmt.Errorf("%s %s: %w", what, key, err)
		}
		return nil
	})
	return found, err
}

func (d *DB) putJSON(bucket []byte, what, key string, v any) error {
	return d.update("saving "+what+" "+key, func(tx *bolt.Tx) error {
		return putValue(tx.Bucket(bucket), what, key, v)
	})
}
