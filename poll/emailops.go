package poll

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"time"

	"notifio/notify"
	"notifio/storage"
)

// The email settings and the outbox operations the window and CLI call.

// emailKey is the settings key of the SMTP configuration.
const emailKey = "email"

// EmailConfig returns the saved SMTP settings (zero Config when none).
func (s *Service) EmailConfig() (notify.Config, error) {
	return LoadEmailConfig(s.db)
}

// LoadEmailConfig reads the SMTP settings from storage.
func LoadEmailConfig(db *storage.DB) (notify.Config, error) {
	var c notify.Config
	if _, err := db.GetSetting(emailKey, &c); err != nil {
		return notify.Config{}, fmt.Errorf("poll: read email settings: %w", err)
	}
	return c, nil
}

// EmailSource gives the outbox relay the saved SMTP settings and password.
func EmailSource(db *storage.DB, secrets *notify.Secrets) func() (notify.Config, string, error) {
	return func() (notify.Config, string, error) {
		cfg, err := LoadEmailConfig(db)
		if err != nil {
			return cfg, "", err
		}
		if cfg.Host == "" {
			return cfg, "", notify.ErrNotConfigured
		}
		pw := ""
		if cfg.Username != "" {
			if pw, err = secrets.Get(cfg.Username, cfg.Host); err != nil {
				return cfg, "", err
			}
		}
		return cfg, pw, nil
	}
}

// SetEmailConfig validates and saves the SMTP settings; the password goes to the
// OS keyring (or its fallback, with the warning returned). Emails that needed
// attention go back in the queue: the new settings may be the fix.
func (s *Service) SetEmailConfig(cfg notify.Config, password string) (string, error) {
	warn, err := SaveEmailConfig(s.db, s.opts.Secrets, cfg, password)
	if err != nil {
		return "", err
	}
	return warn, s.RetryOutbox()
}

// SaveEmailConfig validates the SMTP settings and the password, then saves both
// or neither. Callers then queue the emails that needed attention again
// (RequeueEmails): new settings may be the fix.
func SaveEmailConfig(db *storage.DB, secrets *notify.Secrets, cfg notify.Config, password string) (string, error) {
	if err := cfg.Validate(); err != nil {
		return "", err
	}
	if password != "" && strings.TrimSpace(cfg.Username) == "" {
		return "", &notify.FieldError{Field: "username", Problem: "Enter the username (--user) that goes with the password, usually your email address."}
	}
	var prev notify.Config
	had, err := db.GetSetting(emailKey, &prev)
	if err != nil {
		return "", fmt.Errorf("poll: read email settings: %w", err)
	}
	if err := db.PutSetting(emailKey, cfg); err != nil {
		return "", fmt.Errorf("poll: save email settings: %w", err)
	}
	warn := ""
	if password != "" && secrets != nil {
		if warn, err = secrets.Set(cfg.Username, cfg.Host, password); err != nil {
			// All or nothing: put the previous settings back.
			if had {
				_ = db.PutSetting(emailKey, prev)
			} else {
				_ = db.DeleteSetting(emailKey)
			}
			return "", fmt.Errorf("poll: save the password: %w", err)
		}
	}
	return warn, nil
}

// RequeueEmails puts every email that needs attention back in the queue, due
// now, and returns how many.
func RequeueEmails(db *storage.DB, now time.Time) (int, error) {
	items, err := db.ListOutbox()
	if err != nil {
		return 0, fmt.Errorf("poll: read the outbox: %w", err)
	}
	n := 0
	for _, it := range items {
		if it.State == storage.OutboxNeedsAttention {
			n++
		}
	}
	if n == 0 {
		return 0, nil
	}
	if err := db.RetryOutbox(0, now); err != nil {
		return 0, fmt.Errorf("poll: retry emails: %w", err)
	}
	return n, nil
}

// outboxRequeued wakes the relay and the observers after emails went back in
// the queue.
func (s *Service) outboxRequeued() {
	if s.opts.Relay != nil {
		s.opts.Relay.Wake()
	}
	s.invalidateOutbox()
	s.publish()
}

// SendTestEmail sends a test email with the given settings and password ("" means
// the saved password) and returns an error the user can act on. When it gets
// through with the saved settings, the emails that needed attention go back in
// the queue.
func (s *Service) SendTestEmail(ctx context.Context, cfg notify.Config, password string) error {
	if password == "" && s.opts.Secrets != nil && cfg.Username != "" {
		p, err := s.opts.Secrets.Get(cfg.Username, cfg.Host)
		if err == nil {
			password = p
		}
	}
	if err := notify.SendTestEmail(ctx, cfg, password); err != nil {
		return err
	}
	if saved, err := LoadEmailConfig(s.db); err == nil && reflect.DeepEqual(saved, cfg) {
		return s.RetryOutbox()
	}
	return nil
}

// RetryOutbox puts every email that needs attention back in the queue.
func (s *Service) RetryOutbox() error {
	if _, err := RequeueEmails(s.db, s.clock.Now()); err != nil {
		return err
	}
	s.outboxRequeued()
	return nil
}
