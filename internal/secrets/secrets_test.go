package secrets

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/zalando/go-keyring"

	"notifio/internal/model"
)

// These tests never touch the desktop's real keyring: the keyring path runs
// against go-keyring's mock, and the fallbacks run with a keyring that fails the
// way an absent one does, reading the real environment and writing a real file.

func TestSecretsKeyring(t *testing.T) {
	keyring.MockInit()
	t.Setenv(PasswordEnv, "")
	dir := t.TempDir()
	s := NewSecrets(dir)

	if _, err := s.Get("me@gmail.com", "smtp.gmail.com"); !errors.Is(err, model.ErrNoPassword) {
		t.Fatalf("Get before Set: %v", err)
	}
	w, err := s.Set("me@gmail.com", "smtp.gmail.com", "app-password-1")
	if err != nil || w != "" {
		t.Fatalf("Set: %q, %v", w, err)
	}
	if s.Source() != SourceKeyring || s.Warning() != "" {
		t.Errorf("source %q warning %q", s.Source(), s.Warning())
	}
	// It is stored under service "notifio", user "username@host".
	if pw, err := keyring.Get("notifio", "me@gmail.com@smtp.gmail.com"); err != nil || pw != "app-password-1" {
		t.Errorf("keyring entry = %q, %v", pw, err)
	}
	pw, err := NewSecrets(dir).Get("me@gmail.com", "SMTP.gmail.com.")
	if err != nil || pw != "app-password-1" {
		t.Errorf("Get = %q, %v", pw, err)
	}
	if _, err := os.Stat(filepath.Join(dir, PasswordFile)); !os.IsNotExist(err) {
		t.Errorf("a password file exists although the keyring works: %v", err)
	}
	// Another account has no password.
	if _, err := s.Get("other@gmail.com", "smtp.gmail.com"); !errors.Is(err, model.ErrNoPassword) {
		t.Errorf("other account: %v", err)
	}
	if err := s.Delete("me@gmail.com", "smtp.gmail.com"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get("me@gmail.com", "smtp.gmail.com"); !errors.Is(err, model.ErrNoPassword) {
		t.Errorf("after Delete: %v", err)
	}
}

func noKeyring(t *testing.T) {
	t.Helper()
	keyring.MockInitWithError(errors.New("The name org.freedesktop.secrets was not provided by any .service files"))
	t.Cleanup(keyring.MockInit)
}

func TestSecretsEnvFallback(t *testing.T) {
	noKeyring(t)
	t.Setenv(PasswordEnv, "from-the-env-123")
	s := NewSecrets(t.TempDir())
	pw, err := s.Get("me", "smtp.example.com")
	if err != nil || pw != "from-the-env-123" {
		t.Fatalf("Get = %q, %v", pw, err)
	}
	if s.Source() != SourceEnv || s.Warning() != "" {
		t.Errorf("source %q warning %q", s.Source(), s.Warning())
	}
}

func TestSecretsFileFallback(t *testing.T) {
	noKeyring(t)
	t.Setenv(PasswordEnv, "")
	dir := filepath.Join(t.TempDir(), "data") // not created yet
	s := NewSecrets(dir)

	w, err := s.Set("me@example.com", "smtp.example.com", "file-password-1")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, PasswordFile)
	if w == "" || !strings.Contains(w, path) || !strings.Contains(w, "unencrypted") || !strings.Contains(w, PasswordEnv) {
		t.Errorf("warning = %q", w)
	}
	if s.Source() != SourceFile || s.Warning() != w {
		t.Errorf("source %q warning %q", s.Source(), s.Warning())
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
		t.Errorf("file mode %v, want 0600", fi.Mode().Perm())
	}
	if matches, _ := filepath.Glob(filepath.Join(dir, PasswordFile+".tmp*")); len(matches) != 0 {
		t.Errorf("temporary files left: %v", matches)
	}

	s2 := NewSecrets(dir)
	pw, err := s2.Get("me@example.com", "smtp.example.com")
	if err != nil || pw != "file-password-1" {
		t.Fatalf("Get = %q, %v", pw, err)
	}
	if s2.Source() != SourceFile || s2.Warning() == "" {
		t.Errorf("reading from the file must warn: source %q warning %q", s2.Source(), s2.Warning())
	}
	// The file's password is never handed to another server or account.
	if _, err := s2.Get("me@example.com", "smtp.evil.example"); !errors.Is(err, model.ErrNoPassword) {
		t.Errorf("other host: %v", err)
	}
	if _, err := s2.Get("someone@example.com", "smtp.example.com"); !errors.Is(err, model.ErrNoPassword) {
		t.Errorf("other user: %v", err)
	}
	// The environment wins over the file.
	t.Setenv(PasswordEnv, "env-wins-1")
	if pw, _ := s2.Get("me@example.com", "smtp.example.com"); pw != "env-wins-1" || s2.Source() != SourceEnv {
		t.Errorf("with the env set: %q from %q", pw, s2.Source())
	}
	t.Setenv(PasswordEnv, "")

	// Once a keyring is there, Set moves the password into it and removes the file.
	keyring.MockInit()
	if w, err := s2.Set("me@example.com", "smtp.example.com", "now-in-keyring"); err != nil || w != "" {
		t.Fatalf("Set with keyring: %q %v", w, err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("the plain-text file was not removed: %v", err)
	}
	if pw, _ := s2.Get("me@example.com", "smtp.example.com"); pw != "now-in-keyring" || s2.Source() != SourceKeyring {
		t.Errorf("after moving: %q from %q", pw, s2.Source())
	}
}

func TestSecretsRefusesNonsense(t *testing.T) {
	noKeyring(t)
	s := NewSecrets(t.TempDir())
	if _, err := s.Set("", "smtp.example.com", "pw"); err == nil {
		t.Error("empty username accepted")
	}
	if _, err := s.Set("me", "smtp.example.com", ""); err == nil {
		t.Error("empty password accepted")
	}
	if _, err := s.Set("me", "smtp.example.com", "two\nlines"); err == nil {
		t.Error("a line break in the password was accepted for the file")
	}
}
