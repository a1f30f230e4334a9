package cli

import (
	"time"

	"notifio/poll"

	"notifio/internal/model"
)

// The --json output of every command has one shape: snake_case keys, times
// as RFC 3339, durations in seconds in fields ending in _s. A search is the
// same object wherever it is printed (search add, edit, list).

// searchOut is a search as --json prints it: what is saved, and what the
// watcher is doing with it when a snapshot says so.
type searchOut struct {
	ID            string          `json:"id"`
	Name          string          `json:"name"`
	URL           string          `json:"url"`
	Site          string          `json:"site"`
	IntervalS     float64         `json:"interval_s"`
	Paused        bool            `json:"paused"`
	Browser       bool            `json:"browser,omitempty"`
	Selectors     model.Selectors `json:"selectors,omitzero"`
	Filters       model.Filters   `json:"filters,omitzero"`
	Baselined     bool            `json:"baselined"`
	BaselineCount int             `json:"baseline_count"`
	LastCount     int             `json:"last_count"`
	LastChecked   time.Time       `json:"last_checked,omitzero"`
	// From a snapshot only:
	State       model.SearchState `json:"state,omitempty"`
	Wait        model.WaitKind    `json:"wait,omitempty"`
	Reason      string            `json:"reason,omitempty"`
	NextCheck   time.Time         `json:"next_check,omitzero"`
	LastOutcome string            `json:"last_outcome,omitempty"`
	LastSignal  string            `json:"last_signal,omitempty"`
	LastNew     int               `json:"last_new"`
	Unseen      int               `json:"unseen"`
	Health      *model.Health     `json:"health,omitempty"`
}

// searchJSON is a saved search in the --json shape.
func searchJSON(s model.Search) searchOut {
	return searchOut{ID: s.ID, Name: s.Name, URL: s.URL, Site: s.Site, IntervalS: s.Interval.Seconds(),
		Paused: s.Paused, Browser: s.Browser, Selectors: s.Selectors, Filters: s.Filters,
		Baselined: s.Baselined, BaselineCount: s.BaselineCount, LastCount: s.LastCount, LastChecked: s.LastPolled}
}

// snapshotSearchJSON is a search of a snapshot in the --json shape.
func snapshotSearchJSON(s model.SearchSnapshot) searchOut {
	h := s.Health
	return searchOut{ID: s.ID, Name: s.Name, URL: s.URL, Site: s.Site, IntervalS: s.Interval.Seconds(),
		Paused: s.State == model.StatePaused, Filters: s.Filters, Baselined: s.Baselined,
		BaselineCount: s.BaselineCount, LastCount: s.LastCount, LastChecked: s.LastChecked,
		State: s.State, Wait: s.Wait, Reason: s.Reason, NextCheck: s.NextCheck, LastOutcome: string(s.LastOutcome),
		LastSignal: s.LastSignal, LastNew: s.LastNew, Unseen: s.Unseen, Health: &h}
}

// outboxOut is the outbox's counts in the --json shape.
type outboxOut struct {
	Pending        int                    `json:"pending"`
	Held           int                    `json:"held"`
	NeedsAttention int                    `json:"needs_attention"`
	LastError      string                 `json:"last_error,omitempty"`
	Hint           string                 `json:"hint,omitempty"`
	Failing        []model.ChannelFailure `json:"failing_channels,omitempty"`
}

func outboxJSON(o model.OutboxSnapshot) outboxOut {
	return outboxOut{o.Pending, o.Held, o.NeedsAttention, o.LastError, o.Hint, o.Failing}
}

// onceOut is one search's check by `notifio once`.
type onceOut struct {
	SearchID string `json:"search_id"`
	Name     string `json:"name"`
	Site     string `json:"site"`
	Outcome  string `json:"outcome"`
	New      int    `json:"new"`
	Reason   string `json:"reason,omitempty"`
}

func onceJSON(rs []poll.OnceResult) []onceOut {
	out := make([]onceOut, len(rs))
	for i, r := range rs {
		out[i] = onceOut{r.SearchID, r.Name, r.Site, r.Outcome, r.New, r.Reason}
	}
	return out
}

// alertsOut are the alert settings in the --json shape (defaults filled in).
type alertsOut struct {
	On        bool    `json:"on"`
	AfterS    float64 `json:"after_s"`
	RemindS   float64 `json:"remind_s"` // 0: no reminders
	Summary   bool    `json:"summary"`
	SummaryAt string  `json:"summary_at"`
}

func alertsJSON(a model.AlertSettings) alertsOut {
	return alertsOut{On: !a.Off, AfterS: a.AfterOrDefault().Seconds(), RemindS: a.RemindEvery().Seconds(),
		Summary: a.Summary, SummaryAt: a.SummaryClock()}
}

// emailOut are the SMTP settings in the --json shape (no password: it is
// in the keyring).
type emailOut struct {
	Host             string         `json:"host"`
	Port             int            `json:"port"`
	Security         model.Security `json:"security"`
	Username         string         `json:"username,omitempty"`
	From             string         `json:"from"`
	To               []string       `json:"to"`
	PinnedCertSHA256 string         `json:"pinned_cert_sha256,omitempty"`
	TimeoutS         float64        `json:"timeout_s,omitempty"`
}

func emailJSON(c model.Config) emailOut {
	to := c.To
	if to == nil {
		to = []string{}
	}
	return emailOut{c.Host, c.Port, c.Security, c.Username, c.From, to, c.PinnedCertSHA256, c.Timeout.Seconds()}
}
