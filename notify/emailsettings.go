package notify

import (
	"fmt"
	"strings"
	"time"

	"notifio/storage"

	"notifio/internal/model"

	"notifio/internal/secrets"
)

// emailKey is the settings key of the SMTP configuration (storage reads its
// host to know whether email is set up).
const emailKey = model.SettingEmail

// EmailSettings are the SMTP settings the user saved: the configuration in the
// database, the password in the keyring. Notify is their one owner; the relay
// reads them through Source, the window and the command line change them
// through Save. Safe for concurrent use.
type EmailSettings struct {
	db *storage.DB
	// secrets keeps the password; nil means no password can be saved or read
	// (settings without a username still can).
	secrets *secrets.Secrets
}

// NewEmailSettings returns the email settings kept in db, the password in
// secrets (nil: none).
func NewEmailSettings(db *storage.DB, secrets *secrets.Secrets) *EmailSettings {
	return &EmailSettings{db: db, secrets: secrets}
}

// Load returns the saved SMTP settings (the zero Config when none).
func (e *EmailSettings) Load() (model.Config, error) {
	var c model.Config
	if _, err := e.db.GetSetting(emailKey, &c); err != nil {
		return model.Config{}, fmt.Errorf("notify: read email settings: %w", err)
	}
	return c, nil
}

// Source gives the relay the saved settings and their password;
// ErrNotConfigured when no server is set up. It has the shape NewRelay takes.
func (e *EmailSettings) Source() (model.Config, string, error) {
	cfg, err := e.Load()
	if err != nil {
		return cfg, "", err
	}
	if cfg.Host == "" {
		return cfg, "", model.ErrNotConfigured
	}
	pw, err := e.Password(cfg)
	return cfg, pw, err
}

// Password is the saved password of cfg's account ("" when cfg has no
// username or there is no keyring).
func (e *EmailSettings) Password(cfg model.Config) (string, error) {
	if cfg.Username == "" || e.secrets == nil {
		return "", nil
	}
	return e.secrets.Get(cfg.Username, cfg.Host)
}

// Save validates the SMTP settings and the password, then saves both or
// neither; the warning says when the password went to the fallback file
// instead of the keyring. Callers then queue the emails that needed attention
// again (RequeueEmails): new settings may be the fix.
func (e *EmailSettings) Save(cfg model.Config, password string) (string, error) {
	if err := cfg.Validate(); err != nil {
		return "", err
	}
	if password != "" && strings.TrimSpace(cfg.Username) == "" {
		return "", &model.FieldError{Field: "username", Problem: "Enter the username (--user) that goes with the password, usually your email address."}
	}
	var prev model.Config
	had, err := e.db.GetSetting(emailKey, &prev)
	if err != nil {
		return "", fmt.Errorf("notify: read email settings: %w", err)
	}
	if err := e.db.PutSetting(emailKey, cfg); err != nil {
		return "", fmt.Errorf("notify: save email settings: %w", err)
	}
	if password == "" || e.secrets == nil {
		return "", nil
	}
	warn, err := e.secrets.Set(cfg.Username, cfg.Host, password)
	if err != nil {
		// All or nothing: put the previous settings back.
		if had {
			_ = e.db.PutSetting(emailKey, prev)
		} else {
			_ = e.db.DeleteSetting(emailKey)
		}
		return "", fmt.Errorf("notify: save the password: %w", err)
	}
	return warn, nil
}

// RequeueEmails puts every email that needs attention back in the queue, due
// now, and returns how many.
func RequeueEmails(db *storage.DB, now time.Time) (int, error) {
	items, err := db.ListOutbox()
	if err != nil {
		return 0, fmt.Errorf("notify: read the outbox: %w", err)
	}
	n := 0
	for _, it := range items {
		if it.State == model.OutboxNeedsAttention {
			n++
		}
	}
	if n == 0 {
		return 0, nil
	}
	if err := db.RetryOutbox(0, now); err != nil {
		return 0, fmt.Errorf("notify: retry emails: %w", err)
	}
	return n, nil
}
