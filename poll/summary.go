package poll

import (
	"fmt"
	"strings"
	"time"

	"notifio/storage"

	"notifio/internal/model"

	"notifio/poll/words"
)

// dayCounts are today's checks and new listings, for the daily summary. They
// live in memory: after a restart the summary counts from the restart, and
// says so.
type dayCounts struct {
	day    string    // local date "2006-01-02" the counts are for
	from   time.Time // when counting began (midnight, or the start)
	checks int
	found  int
}

// count adds one check that found newListings. Called with s.mu held.
func (c *dayCounts) count(now time.Time, newListings int) {
	if d := now.Local().Format("2006-01-02"); d != c.day {
		*c = dayCounts{day: d, from: now}
	}
	c.checks++
	c.found += newListings
}

// loadAlerts reads the alert states and settings at start.
func (s *Service) loadAlerts(now time.Time) error {
	states, err := s.db.LoadAlertStates()
	if err != nil {
		return fmt.Errorf("poll: load the health alerts: %w", err)
	}
	cfg, err := LoadAlertSettings(s.db)
	if err != nil {
		s.log.Warn("could not read the alert settings; using the defaults", "err", err)
	}
	s.mu.Lock()
	s.alerts, s.alertCfg = states, cfg
	s.day = dayCounts{day: now.Local().Format("2006-01-02"), from: now}
	s.mu.Unlock()
	return nil
}

// summaryDueLocked composes the daily summary when it is on and its time has
// come today and it was not sent yet. Called with s.mu held.
func (s *Service) summaryDueLocked(cfg model.AlertSettings, now time.Time) (storage.QueuedAlert, bool) {
	if !cfg.Summary {
		return storage.QueuedAlert{}, false
	}
	at, err := time.ParseInLocation("15:04", cfg.SummaryClock(), time.Local)
	if err != nil {
		return storage.QueuedAlert{}, false
	}
	local := now.Local()
	due := time.Date(local.Year(), local.Month(), local.Day(), at.Hour(), at.Minute(), 0, 0, time.Local)
	if local.Before(due) || !s.alerts[summaryKey].AlertedAt.Before(due) {
		return storage.QueuedAlert{}, false
	}
	return storage.QueuedAlert{Alert: s.summaryLocked(now)}, true
}

// summaryLocked is "Still watching: 5 searches, 412 checks today, 3 new, all
// healthy". Called with s.mu held.
func (s *Service) summaryLocked(now time.Time) model.Alert {
	var troubled []string
	active := 0
	for _, r := range s.searches {
		if !r.s.Paused {
			active++
		}
		if h := s.searchHealthLocked(r, now); h.Kind.NeedsUser() {
			troubled = append(troubled, r.s.Name+": "+h.Problem)
		}
	}
	c := s.day
	if c.day != now.Local().Format("2006-01-02") {
		c = dayCounts{from: now}
	}
	period := "today"
	if y, m, d := c.from.Local().Date(); c.from.Local() != time.Date(y, m, d, 0, 0, 0, 0, time.Local) {
		period = "since " + words.ClockWords(c.from, now)
	}
	state := "all healthy"
	if len(troubled) > 0 {
		state = fmt.Sprintf("%d need attention", len(troubled))
	}
	subject := fmt.Sprintf("Still watching: %s, %s %s, %d new, %s",
		count(active, "search", "searches"), count(c.checks, "check", "checks"), period, c.found, state)
	lines := []string{subject + "."}
	if len(troubled) > 0 {
		lines = append(lines, "Needs attention: "+strings.Join(troubled, "; ")+".")
	} else {
		lines = append(lines, "Silence means nothing new: every search works.")
	}
	return model.Alert{Kind: "summary", Subject: subject, Lines: lines}
}

// count is "1 search", "5 searches".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
