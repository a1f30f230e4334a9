package secrets

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/zalando/go-keyring"

	"notifio/internal/model"
)

// Where the SMTP password lives.
const (
	// KeyringService is the service name of Notifio's entries in the OS keyring;
	// the entry's user is "username@host".
	KeyringService = "notifio"
	// PasswordEnv is the environment variable read when no keyring is available
	// (headless Linux).
	PasswordEnv = "NOTIFIO_SMTP_PASSWORD"
	// PasswordFile is the fallback file in the data directory, mode 0600, used
	// (with a warning) when there is neither a keyring nor PasswordEnv.
	PasswordFile = "smtp-password"
)

// Source says where the password was found or put.
type Source string

// Password sources.
const (
	SourceNone    Source = ""
	SourceKeyring Source = "keyring"
	SourceEnv     Source = "env"
	SourceFile    Source = "file"
)

// keyringTimeout bounds one keyring call: a keyring that never answers (a locked
// collection nobody unlocks, a dead D-Bus) counts as unavailable.
const keyringTimeout = 20 * time.Second

// Secrets keeps the SMTP password: in the OS keyring (service "notifio", user
// "username@host"); where there is no keyring, from NOTIFIO_SMTP_PASSWORD; else
// in the 0600 file "smtp-password" in the data directory, which Warning reports
// so the UI can show it. The password is never logged and never part of an
// error message.
type Secrets struct {
	dir string

	mu      sync.Mutex
	source  Source
	warning string
}

// NewSecrets keeps its fallback file in dataDir.
func NewSecrets(dataDir string) *Secrets {
	return &Secrets{dir: dataDir}
}

// Source is where the last Get found, or Set put, the password.
func (s *Secrets) Source() Source {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.source
}

// Warning is non-empty when the password is kept in plain text (the fallback
// file); the UI shows it next to the password field.
func (s *Secrets) Warning() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.warning
}

func (s *Secrets) record(src Source, warning string) {
	s.mu.Lock()
	s.source, s.warning = src, warning
	s.mu.Unlock()
}

func (s *Secrets) path() string { return filepath.Join(s.dir, PasswordFile) }

func account(username, host string) string {
	return strings.TrimSpace(username) + "@" + model.NormalizeHost(host)
}

// Get returns the password for username at host: from the keyring, else (no
// keyring, or nothing in it) from NOTIFIO_SMTP_PASSWORD, else from the fallback
// file if it was saved for this same account. model.ErrNoPassword if none.
func (s *Secrets) Get(username, host string) (string, error) {
	acct := account(username, host)
	pw, kerr := keyringCall(func() (string, error) { return keyring.Get(KeyringService, acct) })
	if kerr == nil && pw != "" {
		s.record(SourceKeyring, "")
		return pw, nil
	}
	if pw := os.Getenv(PasswordEnv); pw != "" {
		s.record(SourceEnv, "")
		return pw, nil
	}
	pw, err := s.readFile(acct)
	switch {
	case err == nil:
		s.record(SourceFile, s.fileWarning())
		return pw, nil
	case errors.Is(err, model.ErrNoPassword):
		s.record(SourceNone, "")
		return "", model.ErrNoPassword
	default:
		s.record(SourceNone, "")
		return "", err
	}
}

// Set saves the password for username at host in the keyring. Without a usable
// keyring it writes the fallback file (mode 0600) and returns a warning for the
// user; with a keyring it removes any old fallback file.
func (s *Secrets) Set(username, host, password string) (warning string, err error) {
	if strings.TrimSpace(username) == "" {
		return "", errors.New("enter the username before saving a password")
	}
	if password == "" {
		return "", errors.New("the password is empty")
	}
	acct := account(username, host)
	_, kerr := keyringCall(func() (string, error) { return "", keyring.Set(KeyringService, acct, password) })
	if kerr == nil {
		if err := os.Remove(s.path()); err != nil && !errors.Is(err, fs.ErrNotExist) {
			// The keyring has it; a stale plain copy is worth telling about.
			s.record(SourceKeyring, fmt.Sprintf("Could not remove the old plain-text password file %s: %v", s.path(), err))
			return s.Warning(), nil
		}
		s.record(SourceKeyring, "")
		return "", nil
	}
	if err := s.writeFile(acct, password); err != nil {
		return "", fmt.Errorf("no system keyring is available (%v) and the password file could not be written: %w", kerr, err)
	}
	w := s.fileWarning()
	if os.Getenv(PasswordEnv) != "" {
		w += " Note: " + PasswordEnv + " is set and is used instead of this file."
	}
	s.record(SourceFile, w)
	return w, nil
}

// Delete removes the password from the keyring and the fallback file.
func (s *Secrets) Delete(username, host string) error {
	acct := account(username, host)
	// A missing entry is fine, and an unavailable keyring holds nothing to delete.
	_, _ = keyringCall(func() (string, error) { return "", keyring.Delete(KeyringService, acct) })
	s.record(SourceNone, "")
	if err := os.Remove(s.path()); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

func (s *Secrets) fileWarning() string {
	return fmt.Sprintf("No system keyring is available, so the SMTP password is stored unencrypted in %s "+
		"(readable only by you). Set %s instead, or use a desktop session with a keyring.", s.path(), PasswordEnv)
}

// The file holds the account on the first line and the password on the second,
// so that a password is never sent to a server it was not saved for.
func (s *Secrets) readFile(acct string) (string, error) {
	p := s.path()
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return "", model.ErrNoPassword
	}
	if err != nil {
		return "", fmt.Errorf("reading the password file %s: %w", p, err)
	}
	if fi, err := os.Stat(p); err == nil && fi.Mode().Perm()&0o077 != 0 {
		_ = os.Chmod(p, 0o600) // tighten a file someone loosened
	}
	first, rest, ok := strings.Cut(string(b), "\n")
	if !ok || strings.TrimRight(first, "\r") != acct {
		return "", model.ErrNoPassword
	}
	pw := strings.TrimRight(rest, "\r\n")
	if pw == "" {
		return "", model.ErrNoPassword
	}
	return pw, nil
}

func (s *Secrets) writeFile(acct, password string) error {
	if strings.ContainsAny(password, "\r\n") || strings.ContainsAny(acct, "\r\n") {
		return errors.New("line breaks are not allowed in the username or password")
	}
	return s.writePrivate(s.path(), []byte(acct+"\n"+password+"\n"))
}

// writePrivate replaces the file at path with data, mode 0600, atomically.
func (s *Secrets) writePrivate(path string, data []byte) error {
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(s.dir, filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // no-op after the rename
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

var errKeyringTimeout = errors.New("the system keyring did not answer")

// keyringCall runs fn with a time limit; a call still hanging is abandoned.
func keyringCall(fn func() (string, error)) (string, error) {
	type result struct {
		v   string
		err error
	}
	ch := make(chan result, 1)
	go func() {
		v, err := fn()
		ch <- result{v, err}
	}()
	select {
	case r := <-ch:
		return r.v, r.err
	case <-time.After(keyringTimeout):
		return "", errKeyringTimeout
	}
}
