package storage

import (
	"notifio/internal/model"

	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// Temporary files next to the database, never opened as the database itself.
const (
	newSuffix       = ".new"       // a fresh database being created
	restoringSuffix = ".restoring" // a backup being copied into place
	damagedInfix    = ".damaged-"  // notifio.db.damaged-<timestamp>
	backupPrefix    = "notifio-"
	backupSuffix    = ".db"
	stampLayout     = "20060102-150405" // UTC, sorts in time order
)

// Open opens (creating if needed) the database in dir. See the package comment
// for what it guards against. The caller must Close the DB.
func Open(dir string, opts Options) (*DB, error) {
	opts = opts.withDefaults()
	if dir == "" {
		return nil, errors.New("no data directory given")
	}
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, wrapIOError("creating the data directory "+dir, dir, err)
	}
	if st, err := os.Stat(dir); err != nil {
		return nil, wrapIOError("data directory", dir, err)
	} else if !st.IsDir() {
		return nil, fmt.Errorf("the data directory %s is not a directory", dir)
	}

	d := &DB{dir: dir, path: filepath.Join(dir, FileName), opts: opts}
	bdb, err := d.openChecked()
	if err != nil {
		return nil, err
	}
	d.bdb = bdb
	bdb.MaxSize = opts.MaxSize // after opening: the cap is on growth, not on the file there
	if err := d.prepare(); err != nil {
		_ = bdb.Close()
		return nil, err
	}
	if _, err := d.PruneOutbox(opts.Now()); err != nil {
		opts.Logf("storage: pruning sent outbox items: %v", err)
	}
	if _, err := d.MaybeBackup(); err != nil {
		d.backupErr = err
		opts.Logf("storage: %v", err)
	}
	return d, nil
}

// openChecked returns the database file opened and passing the check, creating
// it or restoring it from a backup as needed.
func (d *DB) openChecked() (*bolt.DB, error) {
	for attempt := 0; ; attempt++ {
		if attempt > 2 {
			return nil, fmt.Errorf("opening %s: the database kept failing the check after it was restored", d.path)
		}
		st, err := os.Stat(d.path)
		if errors.Is(err, os.ErrNotExist) {
			// No database. If there are backups, the file went missing (or a restore
			// was interrupted): restore rather than start empty.
			if backups, _ := d.listBackups(); len(backups) > 0 {
				if err := d.restore("the database file is missing", false); err == nil {
					continue
				} else if !errors.Is(err, ErrDamaged) {
					return nil, err
				}
				// No backup passed the check and there is nothing to lose: start fresh.
				d.opts.Logf("storage: %s is missing and no backup passed the check; starting with an empty database", d.path)
			}
			if err := d.create(); err != nil {
				return nil, err
			}
			continue
		} else if err != nil {
			return nil, wrapIOError("opening the database", d.dir, err)
		}

		if st.IsDir() {
			return nil, fmt.Errorf("%s is a directory, not a database file", d.path)
		}
		// Check read-only first (a shared lock, nothing written, no freelist loaded
		// before it is validated), then open for writing.
		reason, err := checkPath(d.path, d.opts.LockTimeout)
		if errors.Is(err, berrors.ErrTimeout) {
			return nil, fmt.Errorf("%w (data: %s)", ErrAlreadyRunning, d.dir)
		} else if err != nil {
			return nil, d.openError(err)
		}
		if reason == "" {
			bdb, err := safeOpen(d.path, d.bolt())
			switch {
			case errors.Is(err, berrors.ErrTimeout):
				return nil, fmt.Errorf("%w (data: %s)", ErrAlreadyRunning, d.dir)
			case isDamage(err):
				reason = damageReason(err)
			case err != nil:
				return nil, d.openError(err)
			default:
				return bdb, nil
			}
		}
		if err := d.restore(reason, true); err != nil {
			return nil, err
		}
	}
}

// bolt returns the bbolt options for the database file.
func (d *DB) bolt() *bolt.Options {
	return &bolt.Options{Timeout: d.opts.LockTimeout}
}

// prepare runs on the checked, locked database: refuses a newer schema, applies
// pending migrations (after a backup) and checks that every bucket is there.
func (d *DB) prepare() error {
	var schema uint64
	if err := d.bdb.View(func(tx *bolt.Tx) (err error) {
		schema, err = readSchema(tx)
		return err
	}); err != nil {
		return fmt.Errorf("reading the schema version of %s: %w", d.path, err)
	}
	if schema > schemaVersion() {
		return &SchemaError{Dir: d.dir, Schema: schema, Supported: schemaVersion()}
	}
	if schema < schemaVersion() {
		d.backupMu.Lock()
		_, err := d.backup()
		d.backupMu.Unlock()
		if err != nil {
			return fmt.Errorf("backing up before upgrading the database from schema %d: %w", schema, err)
		}
		if err := d.bdb.Update(func(tx *bolt.Tx) error { return migrate(tx, schema, d.opts.Logf) }); err != nil {
			return wrapIOError(fmt.Sprintf("upgrading the database from schema %d to %d", schema, schemaVersion()), d.dir, err)
		}
	}
	return d.bdb.View(func(tx *bolt.Tx) error {
		if err := verifyBuckets(tx); err != nil {
			return fmt.Errorf("the database %s is incomplete: %w", d.path, err)
		}
		d.instance = string(tx.Bucket(bucketMeta).Get(keyInstance))
		return nil
	})
}

// create makes a brand-new database: built under a temporary name with every
// bucket created in one transaction, then renamed into place, so a crash never
// leaves an empty notifio.db behind.
func (d *DB) create() error {
	tmp := d.path + newSuffix
	_ = os.Remove(tmp)
	bdb, err := safeOpen(tmp, d.bolt())
	if errors.Is(err, berrors.ErrTimeout) { // another instance is creating it right now
		return fmt.Errorf("%w (data: %s)", ErrAlreadyRunning, d.dir)
	} else if err != nil {
		return wrapIOError("creating the database in "+d.dir, d.dir, err)
	}
	err = bdb.Update(func(tx *bolt.Tx) error { return migrate(tx, 0, d.opts.Logf) })
	if cerr := bdb.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, d.path)
	}
	if err != nil {
		_ = os.Remove(tmp)
		return wrapIOError("creating the database in "+d.dir, d.dir, err)
	}
	syncDir(d.dir)
	d.opts.Logf("storage: created %s", d.path)
	return nil
}

// restore restores the newest backup that passes the check. With quarantine set
// the damaged file is first moved aside as notifio.db.damaged-<timestamp>; it is
// left in place when no backup is good (a *DamagedError).
func (d *DB) restore(reason string, quarantine bool) error {
	backups, err := d.listBackups()
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("the database %s is damaged (%s) and the backups could not be listed: %w", d.path, reason, err)
	}
	rec := &model.Recovery{Reason: reason}
	tmp := d.path + restoringSuffix
	for _, b := range backups {
		_ = os.Remove(tmp)
		if err := copyFile(b.path, tmp); err != nil {
			_ = os.Remove(tmp)
			return wrapIOError("restoring the backup "+b.path, d.dir, err)
		}
		if why := checkFile(tmp, d.opts.LockTimeout); why != "" {
			d.opts.Logf("storage: backup %s failed the check: %s", b.path, why)
			rec.Rejected = append(rec.Rejected, b.path)
			continue
		}
		if quarantine {
			aside, err := d.moveAside()
			if err != nil {
				_ = os.Remove(tmp)
				return err
			}
			rec.DamagedPath = aside
		}
		if err := os.Rename(tmp, d.path); err != nil {
			_ = os.Remove(tmp)
			return wrapIOError("putting the restored backup in place", d.dir, err)
		}
		syncDir(d.dir)
		rec.BackupPath, rec.BackupTime = b.path, b.time
		d.recovered = rec
		d.opts.Logf("storage: %s", rec)
		return nil
	}
	_ = os.Remove(tmp)
	return &DamagedError{Path: d.path, Reason: reason, Tried: rec.Rejected}
}

// moveAside renames the database to notifio.db.damaged-<UTC timestamp>.
func (d *DB) moveAside() (string, error) {
	base := d.path + damagedInfix + d.opts.Now().UTC().Format(stampLayout)
	aside := base
	for i := 2; ; i++ {
		if _, err := os.Lstat(aside); errors.Is(err, os.ErrNotExist) {
			break
		}
		aside = fmt.Sprintf("%s-%d", base, i)
	}
	if err := os.Rename(d.path, aside); err != nil {
		return "", wrapIOError("moving the damaged database aside", d.dir, err)
	}
	return aside, nil
}

// StartFresh moves the database in dir aside (as a damaged file would be) so the
// next Open starts with an empty database. It is for the user's explicit choice
// after Open returned a *DamagedError; it refuses while another instance runs.
// It returns where the file was moved.
func StartFresh(dir string, opts Options) (string, error) {
	opts = opts.withDefaults()
	d := &DB{dir: dir, path: filepath.Join(dir, FileName), opts: opts}
	if _, err := checkPath(d.path, opts.LockTimeout); errors.Is(err, berrors.ErrTimeout) {
		return "", fmt.Errorf("%w (data: %s)", ErrAlreadyRunning, dir)
	} else if errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	// Without backups of it, the next Open would restore instead of starting fresh.
	backups, _ := d.listBackups()
	for _, b := range backups {
		if why := checkFile(b.path, opts.LockTimeout); why == "" {
			return "", fmt.Errorf("the backup %s is good: open the data directory again to restore it instead", b.path)
		}
	}
	return d.moveAside()
}

// ---- backups ----

type backupFile struct {
	path string
	time time.Time
}

// listBackups returns the backups, newest first.
func (d *DB) listBackups() ([]backupFile, error) {
	dir := filepath.Join(d.dir, BackupDirName)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []backupFile
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || !strings.HasPrefix(name, backupPrefix) || !strings.HasSuffix(name, backupSuffix) {
			continue
		}
		stamp := strings.TrimSuffix(strings.TrimPrefix(name, backupPrefix), backupSuffix)
		t, err := time.Parse(stampLayout, stamp)
		if err != nil {
			continue
		}
		out = append(out, backupFile{path: filepath.Join(dir, name), time: t})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].time.After(out[j].time) })
	return out, nil
}

// MaybeBackup takes today's backup unless there already is one from today (in
// Options.Now's local time), then keeps the newest Options.KeepBackups. Open
// calls it; a long-running app may call it, say, hourly. It returns the new
// backup's path, or "" when none was due.
func (d *DB) MaybeBackup() (string, error) {
	d.backupMu.Lock()
	defer d.backupMu.Unlock()
	backups, err := d.listBackups()
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("listing backups: %w", err)
	}
	now := d.opts.Now()
	if len(backups) > 0 {
		y1, m1, d1 := backups[0].time.In(now.Location()).Date()
		y2, m2, d2 := now.Date()
		if y1 == y2 && m1 == m2 && d1 == d2 {
			return "", nil
		}
	}
	return d.backup()
}

// backup copies the database (a consistent snapshot, taken in a read
// transaction) to backups/notifio-<UTC timestamp>.db and rotates old ones. The
// caller holds backupMu.
func (d *DB) backup() (string, error) {
	dir := filepath.Join(d.dir, BackupDirName)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", wrapIOError("creating the backup directory", d.dir, err)
	}
	now := d.opts.Now()
	path := filepath.Join(dir, backupPrefix+now.UTC().Format(stampLayout)+backupSuffix)
	tmp := path + ".tmp"
	err := d.bdb.View(func(tx *bolt.Tx) error {
		f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
		if err != nil {
			return err
		}
		if _, err := tx.WriteTo(f); err != nil {
			_ = f.Close()
			return err
		}
		if err := f.Sync(); err != nil {
			_ = f.Close()
			return err
		}
		return f.Close()
	})
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		_ = os.Remove(tmp)
		return "", wrapIOError("backing up the database", d.dir, err)
	}
	syncDir(dir)
	d.opts.Logf("storage: backed up to %s", path)

	backups, err := d.listBackups()
	if err != nil {
		return path, nil
	}
	for _, b := range backups[min(len(backups), d.opts.KeepBackups):] {
		if err := os.Remove(b.path); err != nil {
			d.opts.Logf("storage: removing old backup: %v", err)
		}
	}
	return path, nil
}

// ---- checks ----

// safeOpen is bolt.Open that survives a panic on a damaged file: the panic comes
// back as an error and the file (and its lock) is released.
func safeOpen(path string, bo *bolt.Options) (db *bolt.DB, err error) {
	var (
		mu   sync.Mutex
		file *os.File
	)
	bo.OpenFile = func(name string, flag int, perm os.FileMode) (*os.File, error) {
		f, err := os.OpenFile(name, flag, perm)
		if err == nil && name == path {
			mu.Lock()
			if file == nil {
				file = f
			}
			mu.Unlock()
		}
		return f, err
	}
	// A damaged file can make bbolt touch memory past the end of the mapped file;
	// let that fault come back as a panic (recovered below) instead of killing us.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			mu.Lock()
			if file != nil {
				_ = file.Close()
			}
			mu.Unlock()
			db, err = nil, panicError{r}
		}
	}()
	return bolt.Open(path, 0o600, bo)
}

type panicError struct{ v any }

func (p panicError) Error() string { return fmt.Sprintf("bbolt panicked reading it: %v", p.v) }

// isDamage tells the errors bolt.Open gives for a file that is not a sound
// database from those of the environment (permissions, lock, I/O).
func isDamage(err error) bool {
	var p panicError
	return errors.As(err, &p) || errors.Is(err, berrors.ErrInvalid) || errors.Is(err, berrors.ErrChecksum) ||
		errors.Is(err, berrors.ErrVersionMismatch) || errors.Is(err, berrors.ErrInvalidMapping)
}

func damageReason(err error) string {
	switch {
	case errors.Is(err, berrors.ErrInvalid):
		return "it is not a Notifio database: " + err.Error()
	case errors.Is(err, berrors.ErrChecksum):
		return "checksum error: " + err.Error()
	}
	return err.Error()
}

// checkDB checks an open database and returns why it is unusable, or "": first
// inspectFile (what bbolt's Check would trip over in a goroutine of its own,
// where a fault, a loop or a stack overflow would kill the process), then bbolt's
// consistency check, then Notifio's own (a meta bucket with a schema version).
func checkDB(bdb *bolt.DB) (reason string) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			reason = fmt.Sprintf("bbolt panicked reading it: %v", r)
		}
	}()
	err := bdb.View(func(tx *bolt.Tx) error {
		if err := inspectFile(bdb.Path(), bdb, tx); err != nil {
			return err
		}
		var errs []string
		n := 0
		for err := range tx.Check() {
			n++
			if len(errs) < 3 {
				errs = append(errs, err.Error())
			}
		}
		if n > 0 {
			return fmt.Errorf("integrity check failed with %d errors: %s", n, strings.Join(errs, "; "))
		}
		if tx.Bucket(bucketMeta) == nil {
			return errors.New("it has no meta bucket")
		}
		if v, err := readSchema(tx); err != nil {
			return err
		} else if v == 0 {
			return errors.New("it has no schema version")
		}
		return nil
	})
	if err != nil {
		return err.Error()
	}
	return ""
}

// checkPath opens a file read-only with bbolt (a shared lock: it times out with
// berrors.ErrTimeout while another instance has the file) and checks it. It
// returns why the file is damaged ("" when it is good), or an error when it could
// not be checked at all.
func checkPath(path string, timeout time.Duration) (reason string, err error) {
	st, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	if st.Size() == 0 {
		return "the file is empty (0 bytes)", nil
	}
	bdb, err := safeOpen(path, &bolt.Options{Timeout: timeout, ReadOnly: true})
	switch {
	case isDamage(err):
		return damageReason(err), nil
	case err != nil:
		return "", err
	}
	defer bdb.Close()
	return checkDB(bdb), nil
}

// checkFile is checkPath for backups: any failure is a reason.
func checkFile(path string, timeout time.Duration) string {
	reason, err := checkPath(path, timeout)
	if err != nil {
		return err.Error()
	}
	return reason
}

func copyFile(from, to string) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := dst.ReadFrom(src); err != nil {
		_ = dst.Close()
		return err
	}
	if err := dst.Sync(); err != nil {
		_ = dst.Close()
		return err
	}
	return dst.Close()
}

// syncDir makes a rename in dir durable (best effort; not possible on Windows).
func syncDir(dir string) {
	if runtime.GOOS == "windows" {
		return
	}
	if f, err := os.Open(dir); err == nil {
		_ = f.Sync()
		_ = f.Close()
	}
}

// openError words a failure to open the database file. One the user may not
// open names the file and what is wrong with it (its owner, its permissions),
// rather than blaming the folder.
func (d *DB) openError(err error) error {
	if !errors.Is(err, fs.ErrPermission) {
		return wrapIOError("opening the database "+d.path, d.dir, err)
	}
	st, serr := os.Stat(d.path)
	if serr != nil {
		return fmt.Errorf("opening the database: %w: %s (%v)", ErrFileAccess, d.path, err)
	}
	owner, known := fileOwner(st)
	return fmt.Errorf("opening the database: %w: %s", ErrFileAccess, accessWords(d.path, st.Mode(), owner, known, os.Getuid()))
}

// accessWords says why a database file at path with mode, owned by owner (when
// known), cannot be opened by the user me, and what to do.
func accessWords(path string, mode fs.FileMode, owner int, ownerKnown bool, me int) string {
	perm := mode.Perm().String()
	if ownerKnown && owner != me {
		return fmt.Sprintf("%s belongs to another user (uid %d), and its permissions (%s) do not let you read and write it. "+
			"Make it yours again (sudo chown %d %s) or run Notifio as the user who owns it", path, owner, perm, me, path)
	}
	return fmt.Sprintf("the permissions of %s (%s) do not let you read and write it. Give yourself access (chmod 600 %s)", path, perm, path)
}
