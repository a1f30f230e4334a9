package storage

import (
	"crypto/rand"
	"encoding/base32"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// Bucket names. Keys that must sort are big-endian integers.
var (
	// bucketMeta: keySchema → uint64 schema version; keyInstance → random hex.
	bucketMeta = []byte("meta")
	// bucketSearches: search ID → JSON Search. Its bucket sequence numbers searches.
	bucketSearches = []byte("searches")
	// bucketListings: search ID → sub-bucket holding that search's seen listings:
	// bucketListingIDs (listing ID → order key), bucketListingOrder (order key →
	// JSON Listing; its sequence is the order), keyViewed (order key the user
	// last saw) and keyViewedAt.
	bucketListings     = []byte("listings")
	bucketListingIDs   = []byte("ids")
	bucketListingOrder = []byte("order")
	// bucketOutbox: item ID → JSON OutboxItem. Its sequence numbers items.
	bucketOutbox = []byte("outbox")
	// bucketOutboxOpen: item ID → nothing, for every item not yet sent (pending or
	// needs attention), so the relay does not scan the sent history.
	bucketOutboxOpen = []byte("outbox_open")
	// bucketSettings: key → JSON value.
	bucketSettings = []byte("settings")
	// bucketBackoff: keyBackoffSnapshot → the poller's opaque hostbackoff snapshot.
	bucketBackoff = []byte("backoff")
	// bucketSites: site → JSON, per-site information the poller keeps.
	bucketSites = []byte("sites")
	// bucketChannels: channel name → JSON Channel (push channels).
	bucketChannels = []byte("channels")
	// bucketAlerts: search ID (or "delivery:" + channel) → JSON AlertState.
	bucketAlerts = []byte("alerts")
	// bucketSeenBy and bucketFlats index seen listings across searches and
	// sites (duplicates.go); bucketHeld, bucketPresent and bucketGone are
	// sub-buckets of a search's listings bucket (filters held back, on the last
	// page, gone since; prices.go).
	bucketSeenBy  = []byte("seen_by")
	bucketFlats   = []byte("flats")
	bucketHeld    = []byte("held")
	bucketPresent = []byte("present")
	bucketGone    = []byte("gone")

	keySchema          = []byte("schema")
	keyInstance        = []byte("instance")
	keyViewed          = []byte("viewed")
	keyViewedAt        = []byte("viewed_at")
	keyBackoffSnapshot = []byte("snapshot")
)

// allBuckets are the top-level buckets every current database has.
var allBuckets = [][]byte{
	bucketMeta, bucketSearches, bucketListings, bucketOutbox, bucketOutboxOpen,
	bucketSettings, bucketBackoff, bucketSites, bucketChannels, bucketAlerts, bucketSeenBy, bucketFlats,
}

// migration brings the database from schema version i to i+1, where i is its
// index in migrations. All pending migrations run in one transaction.
type migration struct {
	name string
	up   func(tx *bolt.Tx) error
}

// migrations is the ordered list; the schema version of a database is the number
// of migrations applied to it. Append only: never reorder or edit a released one.
var migrations = []migration{
	{name: "create buckets", up: func(tx *bolt.Tx) error {
		for _, name := range allBuckets {
			if _, err := tx.CreateBucketIfNotExists(name); err != nil {
				return fmt.Errorf("creating bucket %s: %w", name, err)
			}
		}
		id := make([]byte, 8)
		if _, err := rand.Read(id); err != nil {
			return err
		}
		return tx.Bucket(bucketMeta).Put(keyInstance, []byte(hex.EncodeToString(id)))
	}},
	// Outbox items carry a channel from here on: an older binary must not read
	// push items as emails, so it refuses this schema.
	{name: "push channels", up: func(tx *bolt.Tx) error {
		_, err := tx.CreateBucketIfNotExists(bucketChannels)
		return err
	}},
	// Health alerts remember what the user was told (issue 21).
	{name: "health alerts", up: func(tx *bolt.Tx) error {
		_, err := tx.CreateBucketIfNotExists(bucketAlerts)
		return err
	}},
	// Filters, duplicates and prices (issue 22): the cross-search and
	// cross-site indexes, filled from the listings seen so far so that a search
	// added later does not announce them again.
	{name: "duplicates and prices", up: indexSeenListings},
	// Listings carry their size and rooms as numbers (issue 33): the filters
	// no longer read the text, so the listings stored so far get theirs.
	{name: "size and rooms as numbers", up: fillAmounts},
}

// schemaVersion is the schema this binary writes.
func schemaVersion() uint64 { return uint64(len(migrations)) }

// readSchema returns the database's schema version (0 for a database without a
// meta bucket: a brand-new file).
func readSchema(tx *bolt.Tx) (uint64, error) {
	m := tx.Bucket(bucketMeta)
	if m == nil {
		return 0, nil
	}
	v := m.Get(keySchema)
	if v == nil {
		return 0, nil
	}
	if len(v) != 8 {
		return 0, fmt.Errorf("the schema version is %d bytes long, not 8", len(v))
	}
	return binary.BigEndian.Uint64(v), nil
}

// migrate applies the migrations after version from, in order, in tx, and
// records the new version.
func migrate(tx *bolt.Tx, from uint64, logf func(string, ...any)) error {
	for v := from; v < schemaVersion(); v++ {
		m := migrations[v]
		if err := m.up(tx); err != nil {
			return fmt.Errorf("migration %d (%s): %w", v+1, m.name, err)
		}
		logf("storage: applied migration %d (%s)", v+1, m.name)
	}
	meta := tx.Bucket(bucketMeta)
	if meta == nil {
		return errors.New("migrations did not create the meta bucket")
	}
	return meta.Put(keySchema, u64(schemaVersion()))
}

// verifyBuckets reports a bucket the current schema has but the file lacks.
func verifyBuckets(tx *bolt.Tx) error {
	for _, name := range allBuckets {
		if tx.Bucket(name) == nil {
			return fmt.Errorf("the %q bucket is missing", name)
		}
	}
	if len(tx.Bucket(bucketMeta).Get(keyInstance)) == 0 {
		return errors.New("the instance id is missing")
	}
	return nil
}

func u64(v uint64) []byte {
	b := make([]byte, 8)
	binary.BigEndian.PutUint64(b, v)
	return b
}

func fromU64(b []byte) uint64 {
	if len(b) != 8 {
		return 0
	}
	return binary.BigEndian.Uint64(b)
}

// searchIDEncoding is lower-case base32hex: its alphabet is in ASCII order, so
// IDs sort like the sequence numbers they encode.
var searchIDEncoding = base32.NewEncoding("0123456789abcdefghijklmnopqrstuv").WithPadding(base32.NoPadding)

// searchID encodes a search sequence number as 8 sortable characters (40 bits).
func searchID(seq uint64) string {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], seq)
	return searchIDEncoding.EncodeToString(b[3:])
}
