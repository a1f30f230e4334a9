package storage

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"notifio/internal/model"
)

// damages are the ways a database file is found broken.
var damages = []struct {
	name   string
	damage func(t *testing.T, path string)
}{
	{"zero-length", func(t *testing.T, path string) { must(t, os.Truncate(path, 0)) }},
	{"random-bytes", func(t *testing.T, path string) { must(t, os.WriteFile(path, randomBytes(64<<10), 0o600)) }},
	{"few-random-bytes", func(t *testing.T, path string) { must(t, os.WriteFile(path, randomBytes(100), 0o600)) }},
	{"truncated", func(t *testing.T, path string) {
		st, err := os.Stat(path)
		must(t, err)
		must(t, os.Truncate(path, st.Size()/2))
	}},
	{"meta-pages-zeroed", func(t *testing.T, path string) { overwrite(t, path, 0, make([]byte, 2*4096)) }},
	{"data-pages-random", func(t *testing.T, path string) {
		// The meta pages stay valid; everything they point to is garbage.
		st, err := os.Stat(path)
		must(t, err)
		overwrite(t, path, 2*4096, randomBytes(int(st.Size())-2*4096))
	}},
	{"one-leaf-page-random", func(t *testing.T, path string) {
		leaves := pagesOfType(t, path, "leaf")
		overwrite(t, path, int64(leaves[len(leaves)/2])*4096, randomBytes(4096))
	}},
	{"one-branch-page-random", func(t *testing.T, path string) {
		branches := pagesOfType(t, path, "branch")
		overwrite(t, path, int64(branches[0])*4096, randomBytes(4096))
	}},
	{"branch-page-loop", func(t *testing.T, path string) {
		// A well-formed branch page whose first child is itself: bbolt's cursors
		// and Check would descend forever.
		branches := pagesOfType(t, path, "branch")
		id := make([]byte, 8)
		binary.LittleEndian.PutUint64(id, uint64(branches[0]))
		overwrite(t, path, int64(branches[0])*4096+16+8, id)
	}},
	{"leaf-elements-random", func(t *testing.T, path string) {
		// The page header is intact; its elements point anywhere.
		leaves := pagesOfType(t, path, "leaf")
		overwrite(t, path, int64(leaves[len(leaves)/2])*4096+16, randomBytes(4096-16))
	}},
	{"one-leaf-page-zeroed", func(t *testing.T, path string) {
		leaves := pagesOfType(t, path, "leaf")
		overwrite(t, path, int64(leaves[0])*4096, make([]byte, 4096))
	}},
	{"freelist-page-random", func(t *testing.T, path string) {
		free := pagesOfType(t, path, "freelist")
		overwrite(t, path, int64(free[0])*4096, randomBytes(4096))
	}},
	{"freelist-count-huge", func(t *testing.T, path string) {
		// A freelist header that still says "freelist" but claims 2^40 entries.
		free := pagesOfType(t, path, "freelist")
		hdr := []byte{0x10, 0, 0xFF, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0}
		overwrite(t, path, int64(free[0])*4096+8, hdr)
	}},
}

// pagesOfType lists the database's pages of one type (leaf, branch, freelist).
func pagesOfType(t *testing.T, path, typ string) []int {
	t.Helper()
	bdb, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second, ReadOnly: true, PreLoadFreelist: true})
	must(t, err)
	defer bdb.Close()
	if bdb.Info().PageSize != 4096 {
		t.Skipf("page size %d", bdb.Info().PageSize)
	}
	var out []int
	must(t, bdb.View(func(tx *bolt.Tx) error {
		for id := 2; ; id++ {
			p, err := tx.Page(id)
			if err != nil || p == nil {
				return err
			}
			if p.Type == typ {
				out = append(out, id)
			}
		}
	}))
	if len(out) == 0 {
		t.Fatalf("no %s page", typ)
	}
	return out
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func randomBytes(n int) []byte {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return b
}

func overwrite(t *testing.T, path string, off int64, data []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	must(t, err)
	_, err = f.WriteAt(data, off)
	must(t, err)
	must(t, f.Close())
}

// fill makes a database big enough to have many pages: searches with listings.
func fill(t *testing.T, db *DB, name string) model.Search {
	t.Helper()
	s := addSearch(t, db, name)
	for i := 0; i < 8; i++ {
		if _, err := db.CommitPoll(s.ID, listings(name+string(rune('a'+i)), 25), t0.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func TestDamagedRestoredFromBackup(t *testing.T) {
	for _, dm := range damages {
		t.Run(dm.name, func(t *testing.T) {
			c := newClock()
			dir := t.TempDir()
			db := openT(t, dir, Options{Now: c.Now}) // day 1: backup (empty) taken at open
			kept := fill(t, db, "kept")
			must(t, db.Close())

			c.Add(24 * time.Hour)
			db = openT(t, dir, Options{Now: c.Now}) // day 2: backup with "kept"
			lost := fill(t, db, "lost")             // after the last backup
			must(t, db.Close())
			backups, _ := (&DB{dir: dir}).listBackups()
			if len(backups) != 2 {
				t.Fatalf("%d backups, want 2", len(backups))
			}

			path := filepath.Join(dir, FileName)
			dm.damage(t, path)
			damaged, _ := os.ReadFile(path)

			c.Add(time.Hour)
			db = openT(t, dir, Options{Now: c.Now})
			rec := db.Recovered()
			if rec == nil {
				t.Fatal("Open restored nothing from a damaged file")
			}
			t.Logf("%s", rec)
			if rec.BackupPath != backups[0].path || !rec.BackupTime.Equal(t0.Add(24*time.Hour)) || rec.Reason == "" {
				t.Fatalf("recovery: %+v", rec)
			}
			wantAside := path + damagedInfix + c.Now().UTC().Format(stampLayout)
			if rec.DamagedPath != wantAside {
				t.Fatalf("moved to %s, want %s", rec.DamagedPath, wantAside)
			}
			if got, err := os.ReadFile(rec.DamagedPath); err != nil || !bytes.Equal(got, damaged) {
				t.Fatalf("the damaged file was not kept as it was: %v", err)
			}
			if _, err := db.GetSearch(kept.ID); err != nil {
				t.Fatalf("search from the backup: %v", err)
			}
			if all, _ := db.ListListings(kept.ID); len(all) != 200 {
				t.Fatalf("%d listings from the backup, want 200", len(all))
			}
			if _, err := db.GetSearch(lost.ID); !errors.Is(err, model.ErrNotFound) {
				t.Fatalf("search added after the backup: %v", err)
			}
			// The restored database works.
			if _, err := db.CommitPoll(kept.ID, listings("after-restore", 2), c.Now()); err != nil {
				t.Fatal(err)
			}
			must(t, db.Close())
			db = openT(t, dir, Options{Now: c.Now})
			if db.Recovered() != nil {
				t.Fatal("a second restore on the next start")
			}
		})
	}
}

func TestDamagedBackupSkipped(t *testing.T) {
	c := newClock()
	dir := t.TempDir()
	db := openT(t, dir, Options{Now: c.Now})
	s := fill(t, db, "one")
	must(t, db.Close())
	for day := 0; day < 2; day++ {
		c.Add(24 * time.Hour)
		db = openT(t, dir, Options{Now: c.Now})
		must(t, db.Close())
	}
	backups, _ := (&DB{dir: dir}).listBackups()
	if len(backups) != 3 {
		t.Fatalf("%d backups", len(backups))
	}
	must(t, os.WriteFile(backups[0].path, randomBytes(8192), 0o600))
	must(t, os.WriteFile(filepath.Join(dir, FileName), randomBytes(8192), 0o600))

	db = openT(t, dir, Options{Now: c.Now})
	rec := db.Recovered()
	if rec == nil || rec.BackupPath != backups[1].path || len(rec.Rejected) != 1 || rec.Rejected[0] != backups[0].path {
		t.Fatalf("recovery: %+v", rec)
	}
	if _, err := db.GetSearch(s.ID); err != nil {
		t.Fatal(err)
	}
}

func TestDamagedWithoutBackup(t *testing.T) {
	for _, dm := range damages {
		t.Run(dm.name, func(t *testing.T) {
			dir := t.TempDir()
			db := openT(t, dir, Options{})
			fill(t, db, "only")
			must(t, db.Close())
			must(t, os.RemoveAll(filepath.Join(dir, BackupDirName)))
			path := filepath.Join(dir, FileName)
			dm.damage(t, path)
			damaged, _ := os.ReadFile(path)

			// Refused the same way on every start: no crash, no loop, no empty start.
			for i := 0; i < 2; i++ {
				_, err := Open(dir, Options{})
				var de *DamagedError
				if !errors.As(err, &de) || !errors.Is(err, ErrDamaged) {
					t.Fatalf("Open #%d: %v, want a *DamagedError", i+1, err)
				}
				if de.Path != path || de.Reason == "" || !strings.Contains(err.Error(), "no backup") {
					t.Fatalf("error: %v", err)
				}
				if i == 0 {
					t.Logf("%v", err)
				}
				if got, _ := os.ReadFile(path); !bytes.Equal(got, damaged) {
					t.Fatal("the damaged file was changed")
				}
			}
			// The user chooses to start fresh.
			aside, err := StartFresh(dir, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := os.ReadFile(aside); !bytes.Equal(got, damaged) {
				t.Fatal("StartFresh did not keep the damaged file")
			}
			db = openT(t, dir, Options{})
			if list, _ := db.ListSearches(); len(list) != 0 || db.Recovered() != nil {
				t.Fatalf("fresh start: %d searches, recovered %v", len(list), db.Recovered())
			}
		})
	}
}

// A missing database with a backup beside it is restored, not started empty (an
// interrupted restore ends this way).
func TestMissingDatabaseRestored(t *testing.T) {
	c := newClock()
	dir := t.TempDir()
	db := openT(t, dir, Options{Now: c.Now})
	s := addSearch(t, db, "x")
	must(t, db.Close())
	must(t, os.Rename(filepath.Join(dir, FileName), filepath.Join(dir, "elsewhere")))
	db = openT(t, dir, Options{Now: c.Now})
	rec := db.Recovered()
	if rec == nil || rec.DamagedPath != "" || rec.BackupPath == "" {
		t.Fatalf("recovery: %+v", rec)
	}
	// The backup was taken at the first open, before the search was added.
	if _, err := db.GetSearch(s.ID); !errors.Is(err, model.ErrNotFound) {
		t.Fatalf("GetSearch: %v", err)
	}
	// StartFresh refuses while a good backup exists.
	must(t, db.Close())
	if _, err := StartFresh(dir, Options{Now: c.Now}); err == nil || !strings.Contains(err.Error(), "is good") {
		t.Fatalf("StartFresh with a good backup: %v", err)
	}
}

func TestBackupsRotateDaily(t *testing.T) {
	c := newClock()
	dir := t.TempDir()
	for day := 0; day < 6; day++ {
		for i := 0; i < 3; i++ { // three starts a day: one backup a day
			db := openT(t, dir, Options{Now: c.Now})
			if err := db.BackupErr(); err != nil {
				t.Fatal(err)
			}
			addSearch(t, db, "s")
			must(t, db.Close())
			c.Add(time.Hour)
		}
		c.Add(21 * time.Hour)
	}
	backups, err := (&DB{dir: dir}).listBackups()
	must(t, err)
	if len(backups) != DefaultKeepBackups {
		t.Fatalf("%d backups, want %d", len(backups), DefaultKeepBackups)
	}
	for i, b := range backups {
		want := t0.AddDate(0, 0, 5-i)
		if !b.time.Equal(want) {
			t.Fatalf("backup %d is from %v, want %v", i, b.time, want)
		}
		if why := checkFile(b.path, time.Second); why != "" {
			t.Fatalf("backup %s: %s", b.path, why)
		}
	}
	// A backup holds the state at the start of its day: 3 searches per day before.
	copyDir := t.TempDir()
	must(t, copyFile(backups[0].path, filepath.Join(copyDir, FileName)))
	db := openT(t, copyDir, Options{Now: c.Now})
	if list, _ := db.ListSearches(); len(list) != 15 {
		t.Fatalf("day 6's backup holds %d searches, want 15", len(list))
	}
	// MaybeBackup is a no-op the same day.
	if p, err := db.MaybeBackup(); p != "" || err != nil {
		t.Fatalf("second backup the same day: %q, %v", p, err)
	}
}

func TestNotWritable(t *testing.T) {
	t.Run("file-in-place-of-dir", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "data")
		must(t, os.WriteFile(dir, []byte("x"), 0o600))
		_, err := Open(dir, Options{})
		if err == nil || !strings.Contains(err.Error(), dir) {
			t.Fatalf("Open on a file: %v", err)
		}
		t.Logf("%v", err)
		_, err = Open(filepath.Join(dir, "sub"), Options{})
		if err == nil || !strings.Contains(err.Error(), "sub") {
			t.Fatalf("Open under a file: %v", err)
		}
		t.Logf("%v", err)
	})
	t.Run("dir-in-place-of-db", func(t *testing.T) {
		dir := t.TempDir()
		must(t, os.Mkdir(filepath.Join(dir, FileName), 0o700))
		_, err := Open(dir, Options{})
		if err == nil || !strings.Contains(err.Error(), "is a directory") {
			t.Fatalf("Open: %v", err)
		}
	})
	t.Run("read-only-dir", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "ro")
		must(t, os.Mkdir(dir, 0o500))
		t.Cleanup(func() { _ = os.Chmod(dir, 0o700) })
		if writable(dir) {
			t.Skip("running as a user who can write to a read-only directory (root)")
		}
		_, err := Open(dir, Options{})
		if !errors.Is(err, ErrNotWritable) || !strings.Contains(err.Error(), dir) {
			t.Fatalf("Open on a read-only dir: %v, want ErrNotWritable", err)
		}
		t.Logf("%v", err)
	})
	t.Run("read-only-db-file", func(t *testing.T) {
		dir := t.TempDir()
		db := openT(t, dir, Options{})
		must(t, db.Close())
		must(t, os.Chmod(filepath.Join(dir, FileName), 0o400))
		if writable(dir) && canOpenForWrite(filepath.Join(dir, FileName)) {
			t.Skip("running as a user who can write to a read-only file (root)")
		}
		_, err := Open(dir, Options{})
		if !errors.Is(err, ErrNotWritable) {
			t.Fatalf("Open on a read-only file: %v, want ErrNotWritable", err)
		}
		t.Logf("%v", err)
	})
	t.Run("backup-dir-unusable", func(t *testing.T) {
		// A backup that cannot be written is reported, and does not stop the app.
		dir := t.TempDir()
		must(t, os.WriteFile(filepath.Join(dir, BackupDirName), nil, 0o600))
		db := openT(t, dir, Options{})
		if db.BackupErr() == nil {
			t.Fatal("no backup error with a file in place of the backup directory")
		}
		t.Logf("%v", db.BackupErr())
		if _, err := db.AddSearch(model.Search{URL: "https://example.org"}); err != nil {
			t.Fatal(err)
		}
	})
}

func writable(dir string) bool {
	f, err := os.CreateTemp(dir, "probe")
	if err != nil {
		return false
	}
	f.Close()
	os.Remove(f.Name())
	return true
}

func canOpenForWrite(path string) bool {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return false
	}
	f.Close()
	return true
}

// Random small damage anywhere in the file: Open either works (and reads then
// work or return errors) or reports the damage; it never crashes or hangs.
func TestRandomDamageNeverCrashes(t *testing.T) {
	src := t.TempDir()
	db := openT(t, src, Options{})
	s := fill(t, db, "r")
	queue(t, db, 20)
	must(t, db.Close())
	orig, err := os.ReadFile(filepath.Join(src, FileName))
	must(t, err)

	rounds := 150
	if testing.Short() {
		rounds = 30
	}
	outcomes := map[string]int{}
	for i := 0; i < rounds; i++ {
		data := append([]byte(nil), orig...)
		var pick [4]byte
		_, _ = rand.Read(pick[:])
		off := int(binary.LittleEndian.Uint32(pick[:])) % len(data)
		n := 1 + int(pick[0])%64
		copy(data[off:], randomBytes(n))
		dir := t.TempDir()
		must(t, os.WriteFile(filepath.Join(dir, FileName), data, 0o600))
		db, err := Open(dir, Options{})
		switch {
		case errors.Is(err, ErrDamaged):
			outcomes["reported damaged"]++
			continue
		case err != nil:
			outcomes["other error"]++
			t.Logf("round %d (%d bytes at %d): %v", i, n, off, err)
			continue
		}
		var errs []error
		_, err = db.ListSearches()
		errs = append(errs, err)
		_, err = db.ListListings(s.ID)
		errs = append(errs, err)
		_, err = db.ListOutbox()
		errs = append(errs, err)
		_, err = db.CommitPoll(s.ID, listings("after", 3), t0.Add(time.Hour))
		errs = append(errs, err)
		if err := errors.Join(errs...); err != nil {
			if errors.Is(err, ErrDamaged) {
				outcomes["opened, bbolt panicked on a read"]++
			}
			if testing.Verbose() {
				t.Logf("round %d: %v", i, err)
			}
			outcomes["opened, some reads fail"]++
		} else {
			outcomes["opened, reads work"]++
		}
		must(t, db.Close())
	}
	t.Logf("%d rounds: %v", rounds, outcomes)
}
