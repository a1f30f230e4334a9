package poll

import (
	"errors"
	"fmt"
	"time"

	"notifio/storage"
)

// AlertSettings are the user's choices about health alerts. The zero value is
// the default: alerts on, after an hour of trying, a reminder a day, no daily
// summary.
type AlertSettings struct {
	Off bool `json:"off,omitempty"`
	// After is how long a search may be blocked or show no results before the
	// user is told (0: DefaultAlertAfter). A login that expired and delivery
	// failing are told at once.
	After time.Duration `json:"after,omitempty"`
	// Remind is how often a reminder goes while it lasts (0: DefaultRemind);
	// NoRemind turns reminders off.
	Remind   time.Duration `json:"remind,omitempty"`
	NoRemind bool          `json:"no_remind,omitempty"`
	// Summary sends a daily "still watching" message at SummaryAt ("20:00").
	Summary   bool   `json:"summary,omitempty"`
	SummaryAt string `json:"summary_at,omitempty"`
}

// Defaults and bounds of the alert settings.
const (
	DefaultAlertAfter = time.Hour
	DefaultRemind     = 24 * time.Hour
	DefaultSummaryAt  = "20:00"
	minAlertAfter     = time.Minute
	minRemind         = time.Hour
	maxAlertSpan      = 7 * 24 * time.Hour
)

// alertSettingsKey is the settings key of AlertSettings.
const alertSettingsKey = "alerts"

// AfterOrDefault is After with its default filled in.
func (a AlertSettings) AfterOrDefault() time.Duration {
	if a.After <= 0 {
		return DefaultAlertAfter
	}
	return a.After
}

// RemindEvery is how often reminders go, 0 when they are off.
func (a AlertSettings) RemindEvery() time.Duration {
	switch {
	case a.NoRemind:
		return 0
	case a.Remind <= 0:
		return DefaultRemind
	}
	return a.Remind
}

// SummaryClock is SummaryAt with its default filled in.
func (a AlertSettings) SummaryClock() string {
	if a.SummaryAt == "" {
		return DefaultSummaryAt
	}
	return a.SummaryAt
}

// threshold is how long a spell of kind lasts before it is told.
func (a AlertSettings) threshold(k HealthKind) time.Duration {
	switch k {
	case HealthSessionExpired, HealthDelivery:
		return 0
	}
	return a.AfterOrDefault()
}

// Validate says what is wrong with a, in the user's words.
func (a AlertSettings) Validate() error {
	if a.After != 0 && (a.After < minAlertAfter || a.After > maxAlertSpan) {
		return fmt.Errorf("alert after %s: choose between 1 minute and 7 days", a.After)
	}
	if a.Remind != 0 && (a.Remind < minRemind || a.Remind > maxAlertSpan) {
		return fmt.Errorf("remind every %s: choose between 1 hour and 7 days, or off", a.Remind)
	}
	if a.SummaryAt != "" {
		if _, err := time.Parse("15:04", a.SummaryAt); err != nil {
			return fmt.Errorf("daily summary at %q: write the time as 20:00", a.SummaryAt)
		}
	}
	return nil
}

// LoadAlertSettings reads the alert settings (defaults when none are saved).
func LoadAlertSettings(db *storage.DB) (AlertSettings, error) {
	var a AlertSettings
	if _, err := db.GetSetting(alertSettingsKey, &a); err != nil {
		return AlertSettings{}, fmt.Errorf("reading the alert settings: %w", err)
	}
	return a, nil
}

// SaveAlertSettings validates and stores the alert settings.
func SaveAlertSettings(db *storage.DB, a AlertSettings) error {
	if err := a.Validate(); err != nil {
		return err
	}
	if err := db.PutSetting(alertSettingsKey, a); err != nil {
		return fmt.Errorf("saving the alert settings: %w", err)
	}
	return nil
}

// AlertSettings returns the watcher's alert settings.
func (s *Service) AlertSettings() AlertSettings {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.alertCfg
}

// SetAlertSettings saves new alert settings and applies them at once.
func (s *Service) SetAlertSettings(a AlertSettings) error {
	if s == nil {
		return errors.New("poll: no watcher")
	}
	if err := SaveAlertSettings(s.db, a); err != nil {
		return err
	}
	s.mu.Lock()
	s.alertCfg = a
	s.mu.Unlock()
	s.checkHealth(s.clock.Now())
	return nil
}
