package notify

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/zalando/go-keyring"

	"notifio/storage"

	"notifio/internal/model"

	"notifio/internal/secrets"
)

// openSettingsDB is a real database in dir, closed at the end of the test.
func openSettingsDB(t *testing.T, dir string) *storage.DB {
	t.Helper()
	db, err := storage.Open(dir, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

var gmail = model.Config{Host: "smtp.gmail.com", Port: 587, Security: model.SecurityStartTLS,
	Username: "hunter@gmail.com", From: "hunter@gmail.com", To: []string{"hunter@gmail.com"}}

// TestEmailSettingsRoundTrip: what Save keeps, a restart (a new database
// handle, new Secrets) reads back through Load and Source, the password from
// the keyring and never from the database.
func TestEmailSettingsRoundTrip(t *testing.T) {
	keyring.MockInit()
	t.Setenv(secrets.PasswordEnv, "")
	dir := t.TempDir()
	db := openSettingsDB(t, dir)
	warn, err := NewEmailSettings(db, secrets.NewSecrets(dir)).Save(gmail, "app-password-1")
	if err != nil || warn != "" {
		t.Fatalf("Save = %q, %v", warn, err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	db = openSettingsDB(t, dir)
	settings := NewEmailSettings(db, secrets.NewSecrets(dir))
	if got, err := settings.Load(); err != nil || !reflect.DeepEqual(got, gmail) {
		t.Fatalf("Load after a restart = %+v, %v; want %+v", got, err, gmail)
	}
	cfg, pw, err := settings.Source()
	if err != nil || !reflect.DeepEqual(cfg, gmail) || pw != "app-password-1" {
		t.Fatalf("Source = %+v, %q, %v; want the saved settings and password", cfg, pw, err)
	}
	if _, err := os.Stat(filepath.Join(dir, secrets.PasswordFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("with a keyring the password went to a file too (%v)", err)
	}
}

// TestEmailSettingsAllOrNothing: when the password can be kept nowhere (no
// keyring, no writable folder), the settings that were there before stay.
func TestEmailSettingsAllOrNothing(t *testing.T) {
	keyring.MockInitWithError(errors.New("The name org.freedesktop.secrets was not provided by any .service files"))
	t.Cleanup(keyring.MockInit)
	t.Setenv(secrets.PasswordEnv, "")
	dir := t.TempDir()
	blocker := filepath.Join(dir, "not-a-folder")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	db := openSettingsDB(t, dir)
	settings := NewEmailSettings(db, secrets.NewSecrets(filepath.Join(blocker, "data")))

	if _, err := settings.Save(gmail, "pw"); err == nil {
		t.Fatal("Save succeeded with nowhere to keep the password")
	}
	if got, _ := settings.Load(); !reflect.DeepEqual(got, model.Config{}) {
		t.Fatalf("after a failed first save the settings are %+v, want none", got)
	}
	before := gmail
	before.Username = ""
	if _, err := settings.Save(before, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := settings.Save(gmail, "pw"); err == nil {
		t.Fatal("Save succeeded with nowhere to keep the password")
	}
	if got, _ := settings.Load(); !reflect.DeepEqual(got, before) {
		t.Fatalf("after a failed save the settings are %+v, want the previous %+v", got, before)
	}
}

func TestEmailSettingsRefuseAPasswordWithoutAUser(t *testing.T) {
	db := openSettingsDB(t, t.TempDir())
	settings := NewEmailSettings(db, nil)
	cfg := gmail
	cfg.Username = " "
	var fe *model.FieldError
	if _, err := settings.Save(cfg, "pw"); !errors.As(err, &fe) || fe.Field != "username" {
		t.Fatalf("Save with a password and no user = %v, want a FieldError on username", err)
	}
	if _, _, err := settings.Source(); !errors.Is(err, model.ErrNotConfigured) {
		t.Fatalf("Source with nothing saved = %v, want ErrNotConfigured", err)
	}
}

// TestOpsNewSettingsRequeueAndWake: saving settings from the window puts the
// emails that needed attention back in the queue, wakes the relays once and
// tells the observers once (without a password: no keyring involved).
func TestOpsNewSettingsRequeueAndWake(t *testing.T) {
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	db := openSettingsDB(t, t.TempDir())
	var wakes, requeued int
	ops := NewOps(db, OpsOptions{Now: func() time.Time { return now },
		Wake: func() { wakes++ }, Requeued: func() { requeued++ }})
	cfg := gmail
	cfg.Username = ""
	id := queueDigest(t, db, now)
	if err := db.MarkNeedsAttention(id, "535 authentication failed", "check the password"); err != nil {
		t.Fatal(err)
	}
	if _, err := ops.SetEmailConfig(cfg, ""); err != nil {
		t.Fatal(err)
	}
	if it, _ := db.GetOutbox(id); it.State != model.OutboxPending {
		t.Fatalf("the email is %s after new settings, want pending", it.State)
	}
	if wakes != 1 || requeued != 1 {
		t.Fatalf("%d wakes, %d requeued calls; want one each", wakes, requeued)
	}
}
