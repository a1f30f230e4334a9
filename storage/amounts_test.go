package storage

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Listings stored by a Notifio before sizes and rooms were numbers get their
// numbers when the database is upgraded (after a backup), delivered and
// held-back ones alike, so the filters, which compare only the numbers, judge
// them as before.
func TestMigrationFillsSizeAndRoomsOfOlderListings(t *testing.T) {
	c := newClock()
	dir := t.TempDir()
	saved := schemaBefore(t, "size and rooms as numbers")

	db := openT(t, dir, Options{Now: c.Now})
	s := addSearch(t, db, "a")
	commit(t, db, s, nil, t0)
	page := listings("old", 3) // as an older Notifio stored them: text only
	page[0].Size, page[0].Rooms = "ca. 1.170 m²", "2,5 Zi."
	page[1].Held = "it has 2 rooms, fewer than your 3"
	page[2].Size, page[2].Rooms = "", "Zimmer auf Anfrage"
	for i := range page {
		page[i].SizeValue, page[i].RoomsValue = 0, 0
	}
	commit(t, db, s, page, t0.Add(time.Minute))
	if err := db.bdb.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketListings).Bucket([]byte(s.ID)).Bucket(bucketListingOrder).ForEach(func(_, v []byte) error {
			if bytes.Contains(v, []byte("size_value")) || bytes.Contains(v, []byte("rooms_value")) {
				t.Errorf("the old schema's record already has a size value: %s", v)
			}
			return nil
		})
	}); err != nil {
		t.Fatal(err)
	}
	db.Close()

	migrations = saved
	c.Add(time.Hour)
	db = openT(t, dir, Options{Now: c.Now})
	got := map[string][2]float64{}
	shown, _ := db.ListListings(s.ID)
	held, _ := db.HeldListings(s.ID)
	for _, l := range append(shown, held...) {
		got[l.ID] = [2]float64{l.SizeValue, l.RoomsValue}
	}
	want := map[string][2]float64{page[0].ID: {1170, 2.5}, page[1].ID: {54, 2}, page[2].ID: {0, 0}}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("%s: size and rooms %v after the upgrade, want %v", id, got[id], w)
		}
	}
	if len(held) != 1 || held[0].ID != page[1].ID {
		t.Errorf("held-back listings after the upgrade: %v", ids(held))
	}
	backups, err := os.ReadDir(filepath.Join(dir, BackupDirName))
	if err != nil || len(backups) == 0 {
		t.Errorf("no backup before the upgrade: %v", err)
	}
	if err := db.bdb.View(func(tx *bolt.Tx) error {
		if v, _ := readSchema(tx); v != schemaVersion() {
			t.Errorf("schema %d after the upgrade, want %d", v, schemaVersion())
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}
