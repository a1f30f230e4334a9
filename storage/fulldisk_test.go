package storage

import (
	"errors"
	"os"
	"testing"
	"time"

	"notifio/internal/model"
)

// TestRealFullDisk runs against a real, tiny file system when one is given:
//
//	sudo mount -t tmpfs -o size=600k tmpfs /mnt/tiny
//	NOTIFIO_FULLDISK_DIR=/mnt/tiny go test -run TestRealFullDisk ./storage
//
// It commits polls until the disk is full, then checks that the failed commit
// reported ErrDiskFull, stored nothing, and that the database reopens intact.
func TestRealFullDisk(t *testing.T) {
	dir := os.Getenv("NOTIFIO_FULLDISK_DIR")
	if dir == "" {
		t.Skip("set NOTIFIO_FULLDISK_DIR to a small, empty file system")
	}
	db, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := addSearch(t, db, "full")
	var lastOK int
	var failed error
	for i := 0; i < 100000; i++ {
		if _, err := db.CommitPoll(s.ID, pageAt(i, 25), t0.Add(time.Duration(i)*time.Minute)); err != nil {
			failed = err
			break
		}
		lastOK = i
	}
	t.Logf("after %d commits: %v", lastOK+1, failed)
	if !errors.Is(failed, model.ErrDiskFull) {
		t.Fatalf("the failed commit: %v, want ErrDiskFull", failed)
	}
	check := func(db *DB) {
		t.Helper()
		all, _ := db.ListListings(s.ID)
		out, _ := db.ListOutbox()
		if len(all) != 25*(lastOK+1) || len(out) != lastOK {
			t.Fatalf("%d listings and %d outbox items, want %d and %d", len(all), len(out), 25*(lastOK+1), lastOK)
		}
	}
	check(db)
	if err := db.Close(); err != nil {
		t.Logf("close: %v", err)
	}
	db, err = Open(dir, Options{})
	if err != nil {
		t.Fatalf("reopening a full disk: %v", err)
	}
	defer db.Close()
	if db.Recovered() != nil {
		t.Fatalf("restored after a full disk: %s", db.Recovered())
	}
	t.Logf("backup on the full disk: %v", db.BackupErr())
	check(db)
}
