package poll

import (
	"time"

	"notifio/hostbackoff"

	"notifio/internal/model"
)

// healthInput is what one search's health is computed from; healthOf is a
// function of it alone, so its rules are tested without a watcher.
type healthInput struct {
	paused      bool
	offline     bool
	needsLogin  bool
	lastOutcome string // the search's last answer (model.Outcome or "offline")
	siteOutcome string // the site's last answer
	entry       *hostbackoff.Entry
	signal      string // the search's last evidence
	siteSignal  string // the site's last evidence (its probe's)
	due         time.Time
	delivery    *model.ChannelFailure // a channel failing for this search's items
	stale       bool                  // the saved selectors found nothing at the last check
	saveErr     error                 // why the last poll could not be saved (nil: it was)
	since       time.Time             // the recorded start of a spell of this kind, if any
	sinceKind   model.HealthKind
}

// healthOf decides a search's health, strongest first (kindOf), with the
// signal that shows why and since when.
func healthOf(in healthInput, now time.Time) model.Health {
	h := kindOf(in)
	if !h.Kind.NeedsUser() {
		return model.Health{Kind: h.Kind}
	}
	h.Signal = signalOf(in, h.Kind)
	h.Since = now
	if in.sinceKind == h.Kind && !in.since.IsZero() {
		h.Since = in.since
	}
	return h
}

// kindOf is a search's health without its signal: what needs the user
// (login) before what the site does, a site refusal before one page's
// problem, delivery last.
func kindOf(in healthInput) model.Health {
	h := model.Health{Kind: model.HealthOK}
	switch {
	case in.paused:
		h.Kind = model.HealthPaused
	case in.saveErr != nil: // nothing else counts while nothing can be kept
		h.Kind = model.HealthNotSaved
	case in.offline || in.lastOutcome == "offline":
		h.Kind = model.HealthOffline
	case in.needsLogin: // not a search's old answer: a good answer or the user clears it
		h.Kind = model.HealthSessionExpired
	case in.entry != nil && in.entry.Kind != model.RefusalError:
		h.Kind, h.Refusal, h.NextTry = model.HealthBlocked, in.entry.Kind, in.entry.NextRetry
	case in.lastOutcome == string(model.OutcomeUnexpectedPage):
		h.Kind, h.NextTry = model.HealthNotResults, in.due
		if in.entry != nil {
			h.NextTry = later(in.due, in.entry.NextRetry)
		}
	case in.lastOutcome == model.OutcomeHostNotFound || in.entry != nil && in.siteOutcome == model.OutcomeHostNotFound:
		h.Kind = model.HealthHostNotFound
		if in.entry != nil {
			h.Refusal, h.NextTry = in.entry.Kind, in.entry.NextRetry
		}
	case in.entry != nil && (in.lastOutcome == string(model.OutcomeError) || in.siteOutcome == string(model.OutcomeError)):
		h.Kind, h.Refusal, h.NextTry = model.HealthSiteErrors, in.entry.Kind, in.entry.NextRetry
	case in.stale && in.lastOutcome == string(model.OutcomeOK):
		h.Kind, h.NextTry = model.HealthSelectorsStale, in.due
	case in.delivery != nil:
		h.Kind = model.HealthDelivery
	}
	return h
}

// signalOf is what shows why a search has the health kind.
func signalOf(in healthInput, kind model.HealthKind) string {
	switch kind {
	case model.HealthBlocked, model.HealthSiteErrors, model.HealthSessionExpired, model.HealthHostNotFound:
		return in.siteSignal // other searches of the site wait for its probe
	case model.HealthDelivery:
		return in.delivery.Error
	case model.HealthNotSaved:
		return in.saveErr.Error()
	default:
		return in.signal
	}
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
