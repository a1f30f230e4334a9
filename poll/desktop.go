package poll

import (
	"errors"
	"fmt"
)

// desktopKey is the settings key of the user's choice about desktop
// notifications, kept with the other settings in the database so that the
// watcher, whichever process shows them, honours it.
const desktopKey = "desktop_notifications"

// desktopChoice is the stored choice; the zero value (nothing stored) is on.
type desktopChoice struct {
	Off bool `json:"off"`
}

// loadDesktopChoice reads whether desktop notifications are off (on when
// nothing is stored or the setting cannot be read, which is logged).
func (s *Service) loadDesktopChoice() {
	var c desktopChoice
	if _, err := s.db.GetSetting(desktopKey, &c); err != nil {
		s.log.Warn("could not read the desktop notification setting; they stay on", "err", err)
	}
	s.desktopOff.Store(c.Off)
}

// DesktopNotifications reports whether the watcher shows desktop
// notifications (new listings, price changes, health alerts).
func (s *Service) DesktopNotifications() (bool, error) {
	return !s.desktopOff.Load(), nil
}

// SetDesktopNotifications saves the choice and applies it at once.
func (s *Service) SetDesktopNotifications(on bool) error {
	if s == nil {
		return errors.New("poll: no watcher")
	}
	if err := s.db.PutSetting(desktopKey, desktopChoice{Off: !on}); err != nil {
		return fmt.Errorf("poll: save the desktop notification setting: %w", err)
	}
	s.desktopOff.Store(!on)
	return nil
}

// notifyDesktop shows a desktop notification through Options.Notify, unless
// the user turned them off: the one way the watcher shows them.
func (s *Service) notifyDesktop(title, body string) {
	if s.opts.Notify == nil || s.desktopOff.Load() {
		return
	}
	s.opts.Notify(title, body)
}
