package storage

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"notifio/internal/model"
)

var t0 = time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)

// clock is a settable fake clock for Options.Now.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Set(t time.Time)     { c.mu.Lock(); c.t = t; c.mu.Unlock() }
func (c *clock) Add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

func newClock() *clock { return &clock{t: t0} }

func openT(t testing.TB, dir string, opts Options) *DB {
	t.Helper()
	db, err := Open(dir, opts)
	if err != nil {
		t.Fatalf("Open(%s): %v", dir, err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// listings makes n listings with IDs example.org:<prefix>-<i>.
func listings(prefix string, n int) []model.Listing {
	out := make([]model.Listing, n)
	for i := range out {
		out[i] = model.Listing{
			ID:         fmt.Sprintf("example.org:%s-%d", prefix, i),
			URL:        fmt.Sprintf("https://example.org/ad/%s-%d", prefix, i),
			Title:      fmt.Sprintf("Flat %s %d, 2 rooms, balcony", prefix, i),
			Price:      "850 €",
			PriceValue: 850,
			Currency:   "EUR",
			Location:   "Berlin Neukölln",
			Size:       "54 m²",
			SizeValue:  54,
			Rooms:      "2",
			RoomsValue: 2,
		}
	}
	return out
}

func ids(ls []model.Listing) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = l.ID
	}
	return out
}

func addSearch(t testing.TB, db *DB, name string) model.Search {
	t.Helper()
	s, err := db.AddSearch(model.Search{Name: name, URL: "https://example.org/s?q=" + name, Site: "example.org"})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSearchCRUD(t *testing.T) {
	c := newClock()
	db := openT(t, t.TempDir(), Options{Now: c.Now})

	var added []model.Search
	for i := 0; i < 40; i++ {
		added = append(added, addSearch(t, db, fmt.Sprintf("s%d", i)))
	}
	for i := 1; i < len(added); i++ {
		if added[i].ID <= added[i-1].ID {
			t.Fatalf("IDs do not sort in creation order: %q after %q", added[i].ID, added[i-1].ID)
		}
	}
	if len(added[0].ID) != 8 || !added[0].Created.Equal(t0) {
		t.Fatalf("first search: %+v", added[0])
	}
	list, err := db.ListSearches()
	if err != nil || len(list) != 40 {
		t.Fatalf("ListSearches: %d, %v", len(list), err)
	}
	for i := range list {
		if list[i].ID != added[i].ID {
			t.Fatalf("ListSearches[%d] = %s, want %s", i, list[i].ID, added[i].ID)
		}
	}

	s := added[3]
	if _, err := db.CommitPoll(s.ID, listings("a", 3), t0); err != nil {
		t.Fatal(err)
	}
	// An edit carries stale storage-kept fields; they must not win.
	edit := s
	edit.Name, edit.Interval, edit.Selectors.Item = "renamed", 5*time.Minute, "article.ad"
	edit.Baselined, edit.LastCount = false, 99
	if err := db.UpdateSearch(edit); err != nil {
		t.Fatal(err)
	}
	got, err := db.GetSearch(s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != "renamed" || got.Interval != 5*time.Minute || got.Selectors.Item != "article.ad" ||
		!got.Baselined || got.BaselineCount != 3 || got.LastCount != 3 || !got.LastPolled.Equal(t0) || !got.Created.Equal(t0) {
		t.Fatalf("after UpdateSearch: %+v", got)
	}
	// A new URL is a new baseline.
	got.URL += "&page=2"
	if err := db.UpdateSearch(got); err != nil {
		t.Fatal(err)
	}
	if got, _ = db.GetSearch(s.ID); got.Baselined {
		t.Fatal("changing the URL kept the baseline")
	}

	if err := db.SetPaused(s.ID, true); err != nil {
		t.Fatal(err)
	}
	if got, _ = db.GetSearch(s.ID); !got.Paused {
		t.Fatal("SetPaused did not pause")
	}

	if err := db.DeleteSearch(s.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := db.GetSearch(s.ID); !errors.Is(err, model.ErrNotFound) {
		t.Fatalf("GetSearch after delete: %v", err)
	}
	if _, err := db.ListListings(s.ID); !errors.Is(err, model.ErrNotFound) {
		t.Fatalf("ListListings after delete: %v", err)
	}
	for _, err := range []error{
		db.DeleteSearch(s.ID), db.SetPaused(s.ID, false), db.UpdateSearch(s),
		func() error { _, err := db.CommitPoll(s.ID, listings("b", 1), t0); return err }(),
	} {
		if !errors.Is(err, model.ErrNotFound) {
			t.Fatalf("on a deleted search: %v, want ErrNotFound", err)
		}
	}
	// IDs are never reused.
	if again := addSearch(t, db, "again"); again.ID <= added[39].ID {
		t.Fatalf("new ID %s not after %s", again.ID, added[39].ID)
	}
}

func TestCommitPollBaselineThenNew(t *testing.T) {
	db := openT(t, t.TempDir(), Options{})
	s := addSearch(t, db, "berlin")
	other := addSearch(t, db, "hamburg")

	page := listings("p1", 25)
	res, err := db.CommitPoll(s.ID, page, t0)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Baseline || res.BaselineCount != 25 || len(res.New) != 0 || res.OutboxID != 0 {
		t.Fatalf("baseline result: %+v", res)
	}
	if out, _ := db.ListOutbox(); len(out) != 0 {
		t.Fatalf("baseline queued %d outbox items", len(out))
	}
	if n, _ := db.Unseen(s.ID); n != 0 {
		t.Fatalf("Unseen after baseline = %d", n)
	}

	// Next poll: three new at the top, the rest known; a repeat and an ID-less one.
	t1 := t0.Add(10 * time.Minute)
	fresh := listings("p2", 3)
	fresh[1].PriceValue = math.NaN() // must not break the commit
	page2 := append(append(append([]model.Listing{}, fresh...), page[:22]...), fresh[0], model.Listing{Title: "no id"})
	res, err = db.CommitPoll(s.ID, page2, t1)
	if err != nil {
		t.Fatal(err)
	}
	if res.Baseline || res.OutboxID == 0 || !reflect.DeepEqual(ids(res.New), ids(fresh)) {
		t.Fatalf("second result: %+v", res)
	}
	out, err := db.ListOutbox()
	if err != nil || len(out) != 1 {
		t.Fatalf("outbox: %d items, %v", len(out), err)
	}
	it := out[0]
	if it.ID != res.OutboxID || it.SearchID != s.ID || it.SearchName != "berlin" || it.SearchURL != s.URL ||
		it.State != model.OutboxPending || !it.NextAttempt.Equal(t1) || !it.Created.Equal(t1) || it.Attempts != 0 {
		t.Fatalf("outbox item: %+v", it)
	}
	if !reflect.DeepEqual(ids(it.Listings), ids(fresh)) {
		t.Fatalf("outbox listings %v, want %v", ids(it.Listings), ids(fresh))
	}
	for _, l := range it.Listings {
		if !l.FirstSeen.Equal(t1) || l.Title == "" {
			t.Fatalf("outbox listing %+v", l)
		}
	}
	wantPrefix := fmt.Sprintf("<outbox-%d.%s.", it.ID, s.ID)
	if !strings.HasPrefix(it.MessageID, wantPrefix) || !strings.HasSuffix(it.MessageID, "@notifio.local>") || len(it.MessageID) < len(wantPrefix)+20 {
		t.Fatalf("MessageID %q", it.MessageID)
	}
	got, _ := db.GetSearch(s.ID)
	if !got.Baselined || got.BaselineCount != 25 || got.LastCount != 25 || !got.LastPolled.Equal(t1) {
		t.Fatalf("search after polls: %+v", got)
	}

	// Same listings again: nothing new, nothing queued.
	res, err = db.CommitPoll(s.ID, page2, t1.Add(time.Minute))
	if err != nil || len(res.New) != 0 || res.OutboxID != 0 || res.Baseline {
		t.Fatalf("repeat: %+v, %v", res, err)
	}
	if out, _ := db.ListOutbox(); len(out) != 1 {
		t.Fatalf("repeat queued more: %d items", len(out))
	}

	// Newest first; the first Unseen ones are the new ones.
	all, err := db.ListListings(s.ID)
	if err != nil || len(all) != 28 {
		t.Fatalf("ListListings: %d, %v", len(all), err)
	}
	if !reflect.DeepEqual(ids(all[:3]), ids(fresh)) || all[3].ID != page[0].ID || all[27].ID != page[24].ID {
		t.Fatalf("ListListings order: %v", ids(all[:5]))
	}
	if recent, _ := db.RecentListings(s.ID, 2); !reflect.DeepEqual(ids(recent), ids(fresh[:2])) {
		t.Fatalf("RecentListings: %v", ids(recent))
	}
	if n, _ := db.Unseen(s.ID); n != 3 {
		t.Fatalf("Unseen = %d, want 3", n)
	}
	if err := db.MarkViewed(s.ID, t1); err != nil {
		t.Fatal(err)
	}
	if n, _ := db.Unseen(s.ID); n != 0 {
		t.Fatalf("Unseen after MarkViewed = %d", n)
	}

	// The same listing IDs on another search are that search's own business.
	res, err = db.CommitPoll(other.ID, page, t1)
	if err != nil || !res.Baseline || res.BaselineCount != 25 {
		t.Fatalf("other search baseline: %+v, %v", res, err)
	}
}

func TestCommitPollFailureLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	db, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := addSearch(t, db, "s")
	if _, err := db.CommitPoll(s.ID, listings("base", 5), t0); err != nil {
		t.Fatal(err)
	}
	before, _ := db.GetSearch(s.ID)

	// Fail inside the transaction, after the listings were marked seen.
	db.testHookInCommit = func() error { return errors.New("injected") }
	if _, err := db.CommitPoll(s.ID, listings("new", 4), t0.Add(time.Hour)); err == nil {
		t.Fatal("CommitPoll succeeded despite the injected failure")
	}
	db.testHookInCommit = nil
	assertUntouched := func(db *DB) {
		t.Helper()
		if all, _ := db.ListListings(s.ID); len(all) != 5 {
			t.Fatalf("%d listings seen after a failed commit, want 5", len(all))
		}
		if out, _ := db.ListOutbox(); len(out) != 0 {
			t.Fatalf("%d outbox items after a failed commit", len(out))
		}
		if after, _ := db.GetSearch(s.ID); !reflect.DeepEqual(after, before) {
			t.Fatalf("search changed by a failed commit: %+v", after)
		}
	}
	assertUntouched(db)

	// A closed database.
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := db.CommitPoll(s.ID, listings("new", 4), t0.Add(time.Hour)); !errors.Is(err, ErrClosed) {
		t.Fatalf("CommitPoll on a closed DB: %v, want ErrClosed", err)
	}
	db = openT(t, dir, Options{})
	assertUntouched(db)

	// The retry after the failure delivers everything.
	res, err := db.CommitPoll(s.ID, listings("new", 4), t0.Add(2*time.Hour))
	if err != nil || len(res.New) != 4 {
		t.Fatalf("retry: %+v, %v", res, err)
	}
}

// A full disk (simulated by bbolt's size cap) fails the commit with ErrDiskFull
// and stores nothing; once there is room the same poll commits in full.
func TestCommitPollDiskFull(t *testing.T) {
	dir := t.TempDir()
	db := openT(t, dir, Options{})
	s := addSearch(t, db, "s")
	if _, err := db.CommitPoll(s.ID, listings("base", 5), t0); err != nil {
		t.Fatal(err)
	}
	size, _ := db.Size()
	db.bdb.MaxSize = int(size)
	big := listings("big", 2000)
	_, err := db.CommitPoll(s.ID, big, t0.Add(time.Hour))
	if !errors.Is(err, model.ErrDiskFull) {
		t.Fatalf("commit on a full disk: %v, want ErrDiskFull", err)
	}
	if !strings.Contains(err.Error(), dir) {
		t.Fatalf("error does not name the data directory: %v", err)
	}
	t.Logf("full disk: %v", err)
	if all, _ := db.ListListings(s.ID); len(all) != 5 {
		t.Fatalf("%d listings seen after the failed commit, want 5", len(all))
	}
	if out, _ := db.ListOutbox(); len(out) != 0 {
		t.Fatalf("%d outbox items after the failed commit", len(out))
	}
	db.bdb.MaxSize = 0
	res, err := db.CommitPoll(s.ID, big, t0.Add(2*time.Hour))
	if err != nil || len(res.New) != 2000 {
		t.Fatalf("after freeing space: %d new, %v", len(res.New), err)
	}
}

func TestSecondInstanceAlreadyRunning(t *testing.T) {
	dir := t.TempDir()
	db := openT(t, dir, Options{})
	start := time.Now()
	done := make(chan error, 1)
	go func() {
		db2, err := Open(dir, Options{})
		if err == nil {
			_ = db2.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		took := time.Since(start)
		if !errors.Is(err, ErrAlreadyRunning) {
			t.Fatalf("second Open: %v, want ErrAlreadyRunning", err)
		}
		abs, _ := filepath.Abs(dir)
		if want := "Notifio is already running (data: " + abs + ")"; err.Error() != want {
			t.Fatalf("message %q, want %q", err, want)
		}
		if took > 2*time.Second {
			t.Fatalf("second Open took %v, want under 2 s", took)
		}
		t.Logf("second instance refused after %v", took.Round(time.Millisecond))
	case <-time.After(2 * time.Second):
		t.Fatal("second Open still blocked after 2 s")
	}
	// The first instance is unaffected.
	if _, err := db.AddSearch(model.Search{URL: "https://example.org/x"}); err != nil {
		t.Fatal(err)
	}
}

func setSchema(t *testing.T, dir string, v uint64) {
	t.Helper()
	bdb, err := bolt.Open(filepath.Join(dir, FileName), 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer bdb.Close()
	if err := bdb.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucketMeta).Put(keySchema, u64(v)) }); err != nil {
		t.Fatal(err)
	}
}

// schemaBefore makes the binary, for the rest of the test, one that knows only
// the migrations before the named one, and returns all of them (set
// migrations back to them to upgrade).
func schemaBefore(t *testing.T, name string) []migration {
	t.Helper()
	i := slices.IndexFunc(migrations, func(m migration) bool { return m.name == name })
	if i < 0 {
		t.Fatalf("the migration %q is missing", name)
	}
	saved := migrations
	t.Cleanup(func() { migrations = saved })
	migrations = saved[:i]
	return saved
}

func TestNewerSchemaRefused(t *testing.T) {
	dir := t.TempDir()
	db := openT(t, dir, Options{})
	addSearch(t, db, "keep")
	db.Close()
	setSchema(t, dir, schemaVersion()+7)

	_, err := Open(dir, Options{})
	if !errors.Is(err, ErrNewerSchema) {
		t.Fatalf("Open: %v, want ErrNewerSchema", err)
	}
	want := fmt.Sprintf("this database was written by a newer Notifio (schema %d); install that version or newer", schemaVersion()+7)
	if !strings.Contains(err.Error(), want) {
		t.Fatalf("message %q lacks %q", err, want)
	}
	// Refused, not "repaired": the file is where it was and nothing was moved aside.
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), damagedInfix) {
			t.Fatalf("a newer database was quarantined: %s", e.Name())
		}
	}
	setSchema(t, dir, schemaVersion())
	db = openT(t, dir, Options{})
	if list, _ := db.ListSearches(); len(list) != 1 {
		t.Fatalf("searches after the refusal: %d", len(list))
	}
}

func TestMigrationsAppliedInOrder(t *testing.T) {
	c := newClock()
	dir := t.TempDir()
	db := openT(t, dir, Options{Now: c.Now})
	s := addSearch(t, db, "old")
	db.Close()

	saved := migrations
	t.Cleanup(func() { migrations = saved })
	record := func(name string) func(tx *bolt.Tx) error {
		return func(tx *bolt.Tx) error {
			m := tx.Bucket(bucketMeta)
			return m.Put([]byte("test-order"), append(append([]byte{}, m.Get([]byte("test-order"))...), name+";"...))
		}
	}
	migrations = append(append([]migration{}, saved...),
		migration{name: "m2", up: record("m2")},
		migration{name: "m3", up: func(tx *bolt.Tx) error {
			if err := record("m3")(tx); err != nil {
				return err
			}
			_, err := tx.CreateBucket([]byte("added-by-m3"))
			return err
		}},
		migration{name: "m4-fails", up: func(tx *bolt.Tx) error {
			if err := record("m4")(tx); err != nil {
				return err
			}
			return errors.New("m4 cannot run")
		}},
	)

	// A failing migration rolls back the whole upgrade.
	c.Add(24 * time.Hour)
	if _, err := Open(dir, Options{Now: c.Now}); err == nil || !strings.Contains(err.Error(), "m4 cannot run") {
		t.Fatalf("Open with a failing migration: %v", err)
	}
	bdb, err := bolt.Open(filepath.Join(dir, FileName), 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	_ = bdb.View(func(tx *bolt.Tx) error {
		v, _ := readSchema(tx)
		if v != uint64(len(saved)) || tx.Bucket(bucketMeta).Get([]byte("test-order")) != nil || tx.Bucket([]byte("added-by-m3")) != nil {
			t.Errorf("failed upgrade left schema %d, order %q", v, tx.Bucket(bucketMeta).Get([]byte("test-order")))
		}
		return nil
	})
	bdb.Close()

	migrations = migrations[:len(saved)+2]
	c.Add(time.Minute)
	db = openT(t, dir, Options{Now: c.Now})
	if err := db.bdb.View(func(tx *bolt.Tx) error {
		v, _ := readSchema(tx)
		order := string(tx.Bucket(bucketMeta).Get([]byte("test-order")))
		if v != uint64(len(saved)+2) || order != "m2;m3;" || tx.Bucket([]byte("added-by-m3")) == nil {
			return fmt.Errorf("after upgrade: schema %d, order %q", v, order)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.GetSearch(s.ID); err != nil {
		t.Fatalf("search lost in the upgrade: %v", err)
	}
	// Each upgrade attempt backed up first; the newest backup is still the old schema.
	backups, _ := db.listBackups()
	if len(backups) != 3 {
		t.Fatalf("want the first day's backup and two pre-upgrade ones, got %d", len(backups))
	}
	if got := backupSchema(t, backups[0].path); got != uint64(len(saved)) {
		t.Fatalf("pre-upgrade backup has schema %d, want %d", got, len(saved))
	}
}

func backupSchema(t *testing.T, path string) uint64 {
	t.Helper()
	bdb, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer bdb.Close()
	var v uint64
	_ = bdb.View(func(tx *bolt.Tx) (err error) { v, err = readSchema(tx); return err })
	return v
}
