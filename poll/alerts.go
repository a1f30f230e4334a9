package poll

import (
	"slices"
	"strings"
	"sync"
	"time"

	"notifio/storage"

	"notifio/internal/model"

	"notifio/poll/words"
)

// healthState is what the health alerts told, keyed by search ID or
// deliveryKey; the settings; the failing channels by search; today's counts
// for the daily summary. healthMu serialises checkHealth.
type healthState struct {
	healthMu        sync.Mutex
	alerts          map[string]model.AlertState
	alertCfg        model.AlertSettings
	failingBySearch map[string]*model.ChannelFailure
	day             dayCounts
	lastHealth      time.Time // the loop's last checkHealth (loop goroutine only)
}

// Health alerts: a search that stops working is told once (past a threshold),
// reminded at most once a day while it lasts, and "back to normal" once when it
// recovers. Alerts go through the outbox like listings (never lost, never
// twice); what was told is kept in the same transaction as the items.

// deliveryKey is the alert-state key of a delivery channel ("" is email).
func deliveryKey(channel string) string { return "delivery:" + channel }

// summaryKey is the alert-state key that remembers the last daily summary.
const summaryKey = "summary"

// healthSubject is one thing whose health may be told: a search, or a delivery
// channel.
type healthSubject struct {
	key      string
	site     string // groups searches into one alert; a channel's words for delivery
	searchID string
	name     string
	link     string
	health   model.Health
	newCount int             // new listings found by its last check
	skip     map[string]bool // channels the alert must not go through
}

// alertPlan is what one look at health decided: states to write and alerts to
// queue, together.
type alertPlan struct {
	changes []storage.AlertChange
	queued  []storage.QueuedAlert
}

type alertGroupKey struct {
	site      string
	kind      model.HealthKind
	reminder  bool
	recovered bool
}

type alertGroup struct {
	key      alertGroupKey
	subjects []healthSubject
	since    time.Time
}

// planAlerts compares each subject's health with what was told before and
// decides the changes. Several searches of one site that are told at once make
// one alert naming them.
func planAlerts(states map[string]model.AlertState, subjects []healthSubject, cfg model.AlertSettings, now time.Time) alertPlan {
	var plan alertPlan
	var groups []*alertGroup
	add := func(k alertGroupKey, sub healthSubject, since time.Time) {
		for _, g := range groups {
			if g.key == k {
				g.subjects = append(g.subjects, sub)
				return
			}
		}
		groups = append(groups, &alertGroup{key: k, subjects: []healthSubject{sub}, since: since})
	}
	seen := map[string]bool{summaryKey: true}
	for _, sub := range subjects {
		seen[sub.key] = true
		st, had := states[sub.key]
		k := sub.health.Kind
		if k == model.HealthOffline {
			continue // offline says nothing about the site: no spell starts or ends
		}
		if !k.NeedsUser() {
			if had {
				// Paused: the user chose it. Delivery: the stuck messages
				// arriving say it works again.
				if !st.AlertedAt.IsZero() && !cfg.Off && k != model.HealthPaused && st.Kind != string(model.HealthDelivery) {
					add(alertGroupKey{site: sub.site, kind: model.HealthKind(st.Kind), recovered: true}, sub, st.Since)
				}
				plan.changes = append(plan.changes, storage.AlertChange{Key: sub.key, Delete: true})
			}
			continue
		}
		changed := false
		if !had || st.Kind != string(k) {
			st, changed = model.AlertState{Kind: string(k), Site: sub.site, Since: sub.health.Since}, true
		}
		if !cfg.Off {
			remind := cfg.RemindEvery()
			switch {
			case st.AlertedAt.IsZero() && now.Sub(st.Since) >= threshold(cfg, k):
				st.AlertedAt, changed = now, true
				add(alertGroupKey{site: sub.site, kind: k}, sub, st.Since)
			case !st.AlertedAt.IsZero() && remind > 0 && now.Sub(later(st.AlertedAt, st.RemindedAt)) >= remind:
				st.RemindedAt, changed = now, true
				add(alertGroupKey{site: sub.site, kind: k, reminder: true}, sub, st.Since)
			}
		}
		if changed {
			plan.changes = append(plan.changes, storage.AlertChange{Key: sub.key, State: st})
		}
	}
	for key := range states { // searches removed meanwhile
		if !seen[key] {
			plan.changes = append(plan.changes, storage.AlertChange{Key: key, Delete: true})
		}
	}
	slices.SortFunc(plan.changes, func(a, b storage.AlertChange) int { return strings.Compare(a.Key, b.Key) })
	for _, g := range groups {
		plan.queued = append(plan.queued, g.alert(now))
	}
	return plan
}

// alert composes a group's message.
func (g *alertGroup) alert(now time.Time) storage.QueuedAlert {
	var names []string
	newCount := 0
	skip := map[string]bool{}
	for _, sub := range g.subjects {
		if sub.name != "" {
			names = append(names, sub.name)
		}
		newCount += sub.newCount
		for ch := range sub.skip {
			skip[ch] = true
		}
	}
	slices.Sort(names)
	first := g.subjects[0]
	a := model.Alert{Kind: string(g.key.kind), Site: g.key.site, Searches: names, Link: first.link,
		Recovered: g.key.recovered}
	if g.key.recovered {
		a.Subject, a.Lines = words.RecoveryLines(g.key.site, names, g.since, newCount, now)
	} else {
		h := first.health
		h.Since = g.since
		a.Subject = words.AlertSubject(h, g.key.site, names, g.key.reminder)
		a.Lines = words.AlertLines(h, g.key.site, names, now)
	}
	return storage.QueuedAlert{Alert: a, SearchID: first.searchID, Skip: skip}
}

// checkHealth looks at every search's health and tells what is due. It runs
// after every poll and on every turn of the loop (a threshold passes while a
// blocked site is left alone). Safe from any goroutine.
func (s *Service) checkHealth(now time.Time) {
	s.healthMu.Lock()
	defer s.healthMu.Unlock()
	s.mu.Lock()
	cfg := s.alertCfg
	s.outboxSummary(now) // the failing channels as they are now
	plan := planAlerts(s.alerts, s.healthSubjectsLocked(now), cfg, now)
	if sum, ok := s.summaryDueLocked(cfg, now); ok {
		plan.changes = append(plan.changes, storage.AlertChange{Key: summaryKey,
			State: model.AlertState{Kind: "summary", Since: now, AlertedAt: now}})
		plan.queued = append(plan.queued, sum)
	}
	s.mu.Unlock()
	if len(plan.changes) == 0 && len(plan.queued) == 0 {
		return
	}
	ids, err := s.db.SaveAlerts(plan.changes, plan.queued, now)
	if err != nil {
		s.log.Error("could not save the health alerts; trying again at the next check", "err", err)
		return
	}
	s.mu.Lock()
	for _, c := range plan.changes {
		if c.Delete {
			delete(s.alerts, c.Key)
		} else {
			s.alerts[c.Key] = c.State
		}
	}
	s.mu.Unlock()
	for _, q := range plan.queued {
		s.log.Warn("health alert", "kind", q.Alert.Kind, "site", q.Alert.Site, "searches", len(q.Alert.Searches),
			"recovered", q.Alert.Recovered, "subject", q.Alert.Subject)
		s.notifyDesktop(q.Alert.Subject, q.Alert.Lines[0])
	}
	if len(ids) > 0 {
		s.invalidateOutbox()
		if s.opts.Delivery != nil {
			s.opts.Delivery.Wake()
		}
		s.publishSoon()
	}
}

// healthSubjectsLocked lists every search and every failing delivery channel
// with its health. Called with s.mu held.
func (s *Service) healthSubjectsLocked(now time.Time) []healthSubject {
	out := make([]healthSubject, 0, len(s.searches)+len(s.outboxSnap.Failing))
	for _, r := range s.searches {
		h := s.searchHealthLocked(r, now)
		if h.Kind == model.HealthDelivery {
			h = model.Health{Kind: model.HealthOK} // told once per channel, below, not per search
		}
		sub := healthSubject{key: r.s.ID, site: r.s.Site, searchID: r.s.ID, name: r.s.Name, link: r.s.URL, health: h}
		if !r.lastChecked.Before(s.alerts[r.s.ID].Since) {
			sub.newCount = r.lastNew
		}
		out = append(out, sub)
	}
	slices.SortFunc(out, func(a, b healthSubject) int { return strings.Compare(a.key, b.key) })
	failing := map[string]bool{}
	for _, f := range s.outboxSnap.Failing {
		failing[f.Channel] = true
		h := model.Health{Kind: model.HealthDelivery, Signal: f.Error, Hint: f.Hint, Since: now}
		if st, ok := s.alerts[deliveryKey(f.Channel)]; ok && st.Kind == string(model.HealthDelivery) {
			h.Since = st.Since
		}
		h.Problem = words.ChannelProblem(f.Channel)
		if h.Hint == "" {
			h.Hint = "See Settings: fix the settings, then send a test."
		}
		out = append(out, healthSubject{key: deliveryKey(f.Channel), site: words.ChannelWords(f.Channel),
			searchID: f.SearchID, health: h, skip: map[string]bool{f.Channel: true}})
	}
	for key, st := range s.alerts { // a channel that recovered
		if ch, ok := strings.CutPrefix(key, deliveryKey("")); ok && !failing[ch] {
			out = append(out, healthSubject{key: key, site: st.Site, health: model.Health{Kind: model.HealthOK}})
		}
	}
	return out
}

// searchHealthLocked is one search's health with its words. Called with s.mu
// held.
func (s *Service) searchHealthLocked(r *searchRun, now time.Time) model.Health {
	sr := s.site(r.s.Site)
	in := healthInput{
		paused: r.s.Paused, offline: now.Before(s.offline.until),
		needsLogin:  sr.needsLogin != "" || r.attention != "",
		lastOutcome: r.lastOutcome, siteOutcome: sr.savedOutcome,
		signal: r.lastSignal, siteSignal: sr.lastSignal, due: r.due,
		delivery: s.failingBySearch[r.s.ID], stale: r.stale, saveErr: r.saveErr,
	}
	if e, ok := s.reg.Lookup(r.s.Site); ok && e.Failures > 0 {
		in.entry = &e
	}
	if st, ok := s.alerts[r.s.ID]; ok {
		in.since, in.sinceKind = st.Since, model.HealthKind(st.Kind)
	}
	h := healthOf(in, now)
	words.Describe(&h, r.s.Site)
	return h
}

// healthEvery is how often the loop looks at health between polls: a
// threshold passes while a blocked site is left alone.
const healthEvery = 10 * time.Second

// checkHealthEvery is checkHealth at most every healthEvery (the loop turns
// after every poll).
func (s *Service) checkHealthEvery(now time.Time) {
	if d := now.Sub(s.lastHealth); !s.lastHealth.IsZero() && d >= 0 && d < healthEvery {
		return
	}
	s.lastHealth = now
	s.checkHealth(now)
}

// failingFor is how long a channel's message may keep failing with a
// temporary error (a server down or unreachable) before the channel needs
// attention: Notifio keeps retrying, but the user must not hear nothing.
const failingFor = time.Hour

// minFailedAttempts is how many tries of one message failed before it counts
// as failing (a message held overnight for quiet hours is old, not failing).
const minFailedAttempts = 3

// failingChannels are the channels with messages that need attention, or
// that have kept failing for failingFor (the newest problem of each), and
// the failure by search. Health alerts that failed are left out: they must
// not announce themselves.
func failingChannels(items []model.OutboxItem, chans map[string]model.Channel, now time.Time) ([]model.ChannelFailure, map[string]*model.ChannelFailure) {
	failing := func(it model.OutboxItem) bool {
		if it.Event == model.EventHealth {
			return false
		}
		if it.State == model.OutboxNeedsAttention {
			return true
		}
		return it.State == model.OutboxPending && it.LastError != "" && it.Attempts >= minFailedAttempts &&
			now.Sub(it.Created) >= failingFor && !(it.Channel != "" && model.HeldForQuiet(it, chans[it.Channel], now))
	}
	newest := map[string]model.OutboxItem{}
	for _, it := range items {
		if !failing(it) {
			continue
		}
		if prev, ok := newest[it.Channel]; !ok || !it.Created.Before(prev.Created) {
			newest[it.Channel] = it
		}
	}
	out := make([]model.ChannelFailure, 0, len(newest))
	for ch, it := range newest {
		out = append(out, model.ChannelFailure{Channel: ch, Error: it.LastError, Hint: it.Hint, SearchID: it.SearchID})
	}
	slices.SortFunc(out, func(a, b model.ChannelFailure) int { return strings.Compare(a.Channel, b.Channel) })
	byChannel := map[string]*model.ChannelFailure{}
	for i := range out {
		byChannel[out[i].Channel] = &out[i]
	}
	bySearch := map[string]*model.ChannelFailure{}
	for _, it := range items {
		if failing(it) {
			bySearch[it.SearchID] = byChannel[it.Channel]
		}
	}
	return out, bySearch
}
