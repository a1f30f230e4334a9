package poll

import (
	"errors"
	"fmt"
	"time"

	"notifio/storage"

	"notifio/internal/model"
)

// alertSettingsKey is the settings key of AlertSettings.
const alertSettingsKey = "alerts"

// threshold is how long a spell of kind lasts before it is told.
func threshold(a model.AlertSettings, k model.HealthKind) time.Duration {
	switch k {
	case model.HealthSessionExpired, model.HealthDelivery:
		return 0
	}
	return a.AfterOrDefault()
}

// LoadAlertSettings reads the alert settings (defaults when none are saved).
func LoadAlertSettings(db *storage.DB) (model.AlertSettings, error) {
	var a model.AlertSettings
	if _, err := db.GetSetting(alertSettingsKey, &a); err != nil {
		return model.AlertSettings{}, fmt.Errorf("reading the alert settings: %w", err)
	}
	return a, nil
}

// SaveAlertSettings validates and stores the alert settings.
func SaveAlertSettings(db *storage.DB, a model.AlertSettings) error {
	if err := a.Validate(); err != nil {
		return err
	}
	if err := db.PutSetting(alertSettingsKey, a); err != nil {
		return fmt.Errorf("saving the alert settings: %w", err)
	}
	return nil
}

// AlertSettings returns the watcher's alert settings.
func (s *Service) AlertSettings() model.AlertSettings {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.alertCfg
}

// SetAlertSettings saves new alert settings and applies them at once.
func (s *Service) SetAlertSettings(a model.AlertSettings) error {
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
