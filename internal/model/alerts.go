package model

import (
	"fmt"
	"time"
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

// Defaults and bounds of the alert settings.
const (
	DefaultAlertAfter = time.Hour
	DefaultRemind     = 24 * time.Hour
	DefaultSummaryAt  = "20:00"
	minAlertAfter     = time.Minute
	minRemind         = time.Hour
	maxAlertSpan      = 7 * 24 * time.Hour
)
