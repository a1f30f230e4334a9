// Package storage is Notifio's persistent state: one bbolt file (notifio.db) in the
// data directory holding the watched searches, the listings already seen per
// search, the email outbox, settings and per-site backoff state.
//
// The one rule the package exists for: a poll is committed in one transaction
// (SavePoll): its listings marked seen, their alerts queued in the outbox, the
// sites' backoff state and the last answers. A crash keeps all of it or none, so
// a listing is never seen without its alert, nor a site's wait forgotten.
// What the page means (new, changed, relisted, already announced) is the
// poll's to decide (poll/decide), inside that transaction, through PollTx: the
// store only stores.
//
// Open guards the file: a second instance gets ErrAlreadyRunning within about a
// second, a database written by a newer Notifio is refused (ErrNewerSchema), the
// file is checked at every start and backed up daily (the last three are kept),
// and a damaged file is moved aside and the newest good backup restored
// (DB.Recovered tells the user what happened). With no good backup Open returns
// a *DamagedError and leaves the file alone: it never starts empty on its own.
package storage

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"notifio/internal/model"
)

// FileName is the database file's name inside the data directory.
const FileName = "notifio.db"

// BackupDirName is the folder inside the data directory that holds the backups.
const BackupDirName = "backups"

// Defaults for Options.
const (
	DefaultLockTimeout = time.Second
	DefaultKeepBackups = 3
	// SentRetention is how long a sent outbox item is kept before it may be pruned.
	// Unsent items are never deleted.
	SentRetention = 30 * 24 * time.Hour
)

// Errors callers can test with errors.Is.
var (
	// ErrAlreadyRunning: another process holds the database (its lock did not come
	// free within Options.LockTimeout). The returned error reads
	// "Notifio is already running (data: DIR)".
	//lint:ignore ST1005 Notifio is a proper noun and this is shown to the user as is.
	ErrAlreadyRunning = errors.New("Notifio is already running")
	// ErrNewerSchema: the database was written by a newer Notifio. The returned
	// error is a *SchemaError.
	ErrNewerSchema = errors.New("database written by a newer Notifio")
	// ErrDamaged: the database is damaged and no backup passed the check. The
	// returned error is a *DamagedError.
	ErrDamaged = errors.New("database damaged")
	// ErrNotWritable: the data directory or database file cannot be written.
	ErrNotWritable = errors.New("the data directory is not writable")
	// ErrFileAccess: the database file exists but this user may not open it
	// (another user's file, or permissions that shut the user out).
	//lint:ignore ST1005 Notifio is a proper noun and this is shown to the user as is.
	ErrFileAccess = errors.New("Notifio may not open its database file")
	// ErrClosed: the DB was closed.
	ErrClosed = errors.New("database closed")
)

// SchemaError is returned by Open for a database newer than this binary.
type SchemaError struct {
	Dir       string
	Schema    uint64 // the database's schema version
	Supported uint64 // the newest this binary knows
}

func (e *SchemaError) Error() string {
	return fmt.Sprintf("this database was written by a newer Notifio (schema %d); install that version or newer (this one knows schema %d; data: %s)",
		e.Schema, e.Supported, e.Dir)
}

// Is makes errors.Is(err, ErrNewerSchema) true.
func (e *SchemaError) Is(target error) bool { return target == ErrNewerSchema }

// DamagedError is returned by Open when the database is damaged and no backup
// passed the check. The damaged file is left where it is, so the next start
// reports the same thing instead of silently starting empty; StartFresh moves it
// aside when the user chooses to start with an empty database.
type DamagedError struct {
	Path   string   // the damaged database file
	Reason string   // what is wrong with it
	Tried  []string // backups that were tried and failed the check, newest first
}

func (e *DamagedError) Error() string {
	msg := fmt.Sprintf("the database %s is damaged (%s)", e.Path, e.Reason)
	if len(e.Tried) == 0 {
		msg += " and there is no backup to restore"
	} else {
		msg += fmt.Sprintf(" and none of the %d backups in %s passed the check", len(e.Tried), filepath.Join(filepath.Dir(e.Path), BackupDirName))
	}
	return msg + "; the file was left in place: move it away (or choose \"start with an empty database\") to start again without your searches"
}

// Is makes errors.Is(err, ErrDamaged) true.
func (e *DamagedError) Is(target error) bool { return target == ErrDamaged }

// Options tune Open. The zero value is the production setting.
type Options struct {
	// Now is the clock for backups, quarantine names, Created stamps and pruning.
	// Default time.Now.
	Now func() time.Time
	// LockTimeout is how long Open waits for another instance to let go of the
	// database before returning ErrAlreadyRunning. Default 1 s.
	LockTimeout time.Duration
	// KeepBackups is how many daily backups are kept. Default 3.
	KeepBackups int
	// MaxSize, when above 0, caps the database file at this many bytes: a write
	// that would grow it beyond fails as on a full disk (ErrDiskFull). 0 means
	// no cap. Tests use it to fill the disk at the write seam.
	MaxSize int
	// Logf, if set, receives one line per notable event (backup taken, database
	// restored, migration applied). It never receives listing or setting content.
	Logf func(format string, args ...any)
}

func (o Options) withDefaults() Options {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.LockTimeout <= 0 {
		o.LockTimeout = DefaultLockTimeout
	}
	if o.KeepBackups <= 0 {
		o.KeepBackups = DefaultKeepBackups
	}
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
	return o
}

// DB is an open Notifio database. It is safe for concurrent use; every method
// copies its results out of the transaction.
type DB struct {
	bdb       *bolt.DB
	dir       string
	path      string
	opts      Options
	instance  string // random per-database component of Message-IDs
	recovered *model.Recovery
	backupErr error
	backupMu  sync.Mutex // one backup at a time
	commits   atomic.Uint64

	// testHookInCommit, if set, runs inside SavePoll's transaction after the
	// listings were marked seen and before the outbox item is written.
	testHookInCommit func() error
}

// Dir is the data directory.
func (d *DB) Dir() string { return d.dir }

// Path is the database file's path.
func (d *DB) Path() string { return d.path }

// Recovered reports what Open restored from a backup, or nil when it did not
// have to. The UI and CLI show words.RecoveryWords of it to the user.
func (d *DB) Recovered() *model.Recovery {
	if d.recovered == nil {
		return nil
	}
	r := *d.recovered
	r.Rejected = append([]string(nil), d.recovered.Rejected...)
	return &r
}

// BackupErr is the error of the backup attempted at Open, if any. A failed backup
// does not stop Open (the database itself is fine), but the user should be told.
func (d *DB) BackupErr() error { return d.backupErr }

// Size is the database file's size in bytes.
func (d *DB) Size() (int64, error) {
	st, err := os.Stat(d.path)
	if err != nil {
		return 0, err
	}
	return st.Size(), nil
}

// Close closes the database and releases its lock.
func (d *DB) Close() error {
	if d == nil || d.bdb == nil {
		return nil
	}
	return d.bdb.Close()
}

// update runs fn in one read-write transaction and turns storage errors into
// ones the user can act on. A panic or memory fault inside bbolt (damage the
// start-up check did not see) becomes an ErrDamaged error; the transaction is
// rolled back.
func (d *DB) update(op string, fn func(tx *bolt.Tx) error) (err error) {
	defer d.catch(op, &err)()
	if err := d.bdb.Update(fn); err != nil {
		return d.wrap(op, err)
	}
	d.commits.Add(1)
	return nil
}

// Commits is how many read-write transactions committed since Open (each is an
// fdatasync of the file): the performance figures report it per poll.
func (d *DB) Commits() uint64 { return d.commits.Load() }

// view runs fn in one read-only transaction, like update.
func (d *DB) view(op string, fn func(tx *bolt.Tx) error) (err error) {
	defer d.catch(op, &err)()
	if err := d.bdb.View(fn); err != nil {
		return d.wrap(op, err)
	}
	return nil
}

// catch arms fault-to-panic for this goroutine and returns the deferred function
// that turns a panic into *err.
func (d *DB) catch(op string, err *error) func() {
	prev := debug.SetPanicOnFault(true)
	return func() {
		debug.SetPanicOnFault(prev)
		if r := recover(); r != nil {
			*err = fmt.Errorf("%s: %w: bbolt panicked: %v (restart Notifio to check the database and restore a backup; data: %s)", op, ErrDamaged, r, d.dir)
		}
	}
}

func (d *DB) wrap(op string, err error) error {
	switch {
	case errors.Is(err, model.ErrNotFound):
		return err
	case errors.Is(err, berrors.ErrDatabaseNotOpen):
		return fmt.Errorf("%s: %w", op, ErrClosed)
	}
	return wrapIOError(op, d.dir, err)
}

// wrapIOError classifies a write failure: full disk and permission problems get
// a sentinel (and the data directory) so the message says what to do.
func wrapIOError(op, dir string, err error) error {
	switch {
	case isDiskFull(err) || errors.Is(err, berrors.ErrMaxSizeReached):
		return fmt.Errorf("%s: %w (data: %s): %v", op, model.ErrDiskFull, dir, err)
	case errors.Is(err, fs.ErrPermission) || isReadOnlyFS(err):
		return fmt.Errorf("%s: %w (data: %s): %v", op, ErrNotWritable, dir, err)
	}
	return fmt.Errorf("%s: %w", op, err)
}

// skipped logs a record a list operation left out because it cannot be decoded
// (its bytes were damaged on disk; bbolt has no checksums on values). One bad
// record must not hide the others, or hold up the outbox.
func (d *DB) skipped(what string, err error) {
	d.opts.Logf("storage: skipping unreadable %s: %v", what, err)
}

// safeFloat keeps NaN and infinities out of the JSON (which refuses them): one
// odd price must not make a whole poll commit fail.
func safeFloat(f float64) float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0
	}
	return f
}
