package poll

import (
	"slices"
	"sort"
	"strings"
	"time"

	"notifio/internal/model"

	"notifio/poll/words"
)

// publisher is who observes the watcher (Subscribe) and the outbox count its
// snapshots carry. Service.mu guards it.
type publisher struct {
	subs    map[int]func(model.Snapshot)
	nextSub int

	lastPub  time.Time   // real time of the last publish
	pubTimer *time.Timer // a coalesced publish pending (publishSoon)

	outboxSnap model.OutboxSnapshot
	outboxAt   time.Time
}

// Snapshots for observers (the control API's stream, the tray) and their publishing.

// Subscribe calls fn with a fresh snapshot after every change, from any
// goroutine, until the returned cancel is called.
func (s *Service) Subscribe(fn func(model.Snapshot)) func() {
	s.mu.Lock()
	id := s.nextSub
	s.nextSub++
	s.subs[id] = fn
	s.mu.Unlock()
	return func() {
		s.mu.Lock()
		delete(s.subs, id)
		s.mu.Unlock()
	}
}

// publishEvery bounds how often the watcher's own progress (a poll started or
// finished) is published: at 1,000 searches a snapshot after every poll was a
// tenth of the watcher's CPU (docs/PERFORMANCE.md). What the user does is
// published at once.
const publishEvery = 500 * time.Millisecond

// publishSoon publishes now, or once publishEvery after the last publish when
// that was sooner, coalescing the changes in between. Real time, not the
// service's clock: it paces work, it decides nothing.
func (s *Service) publishSoon() {
	s.mu.Lock()
	if len(s.subs) == 0 || s.pubTimer != nil || s.closed {
		s.mu.Unlock()
		return
	}
	wait := publishEvery - time.Since(s.lastPub)
	if wait <= 0 {
		s.mu.Unlock()
		s.publish()
		return
	}
	s.pubTimer = time.AfterFunc(wait, func() {
		s.mu.Lock()
		s.pubTimer = nil
		s.mu.Unlock()
		s.publish()
	})
	s.mu.Unlock()
}

// publish sends a fresh snapshot to every subscriber now.
func (s *Service) publish() {
	s.mu.Lock()
	s.lastPub = time.Now()
	none := len(s.subs) == 0
	s.mu.Unlock()
	if none {
		return
	}
	snap := s.Snapshot()
	s.mu.Lock()
	fns := make([]func(model.Snapshot), 0, len(s.subs))
	for _, fn := range s.subs {
		fns = append(fns, fn)
	}
	s.mu.Unlock()
	for _, fn := range fns {
		fn(snap)
	}
}

// Snapshot returns a copy of the whole state, as the window and `notifio sites`
// show it.
func (s *Service) Snapshot() model.Snapshot {
	now := s.clock.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	snap := model.Snapshot{At: now, Offline: now.Before(s.offline.until)}
	snap.Outbox = s.outboxSummary(now) // first: a search's health reads its failing channels
	siteCount := map[string]int{}
	probeOf := map[string]string{}
	// Sorted as pointers, not as snapshots: sorting 1,000 large structs took half
	// of each Snapshot, which runs after every poll (docs/PERFORMANCE.md).
	runs := make([]*searchRun, 0, len(s.searches))
	for _, r := range s.searches {
		siteCount[r.s.Site]++
		if r.probing {
			probeOf[r.s.Site] = r.s.ID
		}
		runs = append(runs, r)
	}
	slices.SortFunc(runs, func(a, b *searchRun) int { return strings.Compare(a.s.ID, b.s.ID) })
	if len(runs) > 0 {
		snap.Searches = make([]model.SearchSnapshot, 0, len(runs))
	}
	for _, r := range runs {
		ss := model.SearchSnapshot{
			ID: r.s.ID, Name: r.s.Name, URL: r.s.URL, Site: r.s.Site, Interval: intervalOf(r.s),
			State: model.StateScheduled, NextCheck: r.due, LastChecked: r.lastChecked,
			LastOutcome: model.Outcome(r.lastOutcome), LastSignal: r.lastSignal, LastCount: r.s.LastCount,
			LastNew: r.lastNew, LastDrops: r.lastDrops, Unseen: r.unseen, Baselined: r.s.Baselined, BaselineCount: r.s.BaselineCount, Filters: r.s.Filters,
			Health: s.searchHealthLocked(r, now),
		}
		e, waiting := s.reg.Lookup(r.s.Site)
		switch {
		case r.s.Paused:
			ss.State = model.StatePaused
			ss.NextCheck = time.Time{}
		case r.attention != "":
			ss.State, ss.Wait = model.StateAttention, model.WaitLogin
			ss.Reason = r.attention
			ss.NextCheck = time.Time{}
		case r.probing:
			ss.State = model.StateProbing
			ss.Reason = words.ProbingWords(r.s.Site)
		case r.checking:
			ss.State = model.StateChecking
		case waiting && e.NextRetry.After(now):
			ss.State, ss.Wait = model.StateWaiting, model.WaitSite
			ss.Reason = words.KindReason(r.s.Site, e.Kind)
			if e.NextRetry.After(ss.NextCheck) {
				ss.NextCheck = e.NextRetry
			}
		case probeOf[r.s.Site] != "":
			ss.State, ss.Wait = model.StateWaiting, model.WaitProbe
			ss.Reason = words.ProbeWaitWords(r.s.Site)
		case r.lastOutcome == string(model.OutcomeUnexpectedPage):
			ss.Reason = words.NotResults
		}
		snap.Searches = append(snap.Searches, ss)
	}
	names := map[string]bool{}
	for n := range s.sites {
		names[n] = true
	}
	for _, e := range s.reg.Snapshot() {
		names[e.Site] = true
	}
	for n := range names {
		sr := s.site(n)
		ok, fail := sr.ok, sr.fail
		st := model.SiteSnapshot{
			Site: n, LastStatus: sr.lastStatus, LastOutcome: model.Outcome(sr.savedOutcome), LastSignal: sr.lastSignal, RetryAfter: sr.retryAfter,
			LastRefusal: sr.lastRefusal, AvgResponse: sr.avgResp,
			SuccessRate: float64(ok+1) / float64(ok+fail+1), Searches: siteCount[n],
			ProbeInFlight: probeOf[n] != "",
			NeedsLogin:    sr.needsLogin != "",
		}
		if e, ok := s.reg.Lookup(n); ok {
			st.Kind = e.Kind
			st.Rung = e.Failures
			st.NextProbe = e.NextRetry
			st.Waiting = e.NextRetry.After(now)
			if e.RetryAfter > 0 {
				st.RetryAfter = e.RetryAfter
			}
		}
		snap.Sites = append(snap.Sites, st)
	}
	sort.Slice(snap.Sites, func(i, j int) bool { return snap.Sites[i].Site < snap.Sites[j].Site })
	return snap
}

// outboxSummary counts the outbox, at most once every two seconds: the snapshot
// is built after every poll, and the outbox keeps sent items for a while.
// Called with s.mu held.
func (s *Service) outboxSummary(now time.Time) model.OutboxSnapshot {
	if !s.outboxAt.IsZero() && now.Sub(s.outboxAt) < 2*time.Second && now.After(s.outboxAt) {
		return s.outboxSnap
	}
	var sum model.OutboxSnapshot
	items, err := s.db.ListOutbox()
	if err != nil {
		return s.outboxSnap
	}
	chans := map[string]model.Channel{}
	if list, err := s.db.ListChannels(); err == nil {
		for _, c := range list {
			chans[c.Name] = c
		}
	}
	var newest, retrying time.Time
	sum.Failing, s.failingBySearch = failingChannels(items, chans, now)
	for _, it := range items {
		switch it.State {
		case model.OutboxPending:
			if it.Channel != "" && model.HeldForQuiet(it, chans[it.Channel], now) {
				sum.Held++
				continue
			}
			sum.Pending++
			// An email that keeps failing with a temporary error (server down,
			// wrong port) is still pending; say why, so the window's banner can
			// tell the user instead of only the log. One failed try is a blip.
			if sum.NeedsAttention == 0 && it.Attempts >= 2 && it.LastError != "" && !it.Created.Before(retrying) {
				retrying = it.Created
				sum.LastError, sum.Hint = it.LastError, it.Hint
			}
		case model.OutboxNeedsAttention:
			if sum.NeedsAttention == 0 {
				sum.LastError, sum.Hint = "", "" // a permanent problem outranks a retrying one
			}
			sum.NeedsAttention++
			if !it.Created.Before(newest) {
				newest = it.Created
				sum.LastError, sum.Hint = it.LastError, it.Hint
			}
		}
	}
	s.outboxSnap, s.outboxAt = sum, now
	return sum
}

// OutboxChanged tells the watcher that the relay sent or failed an email, so
// observers see the outbox as it is now. Safe from any goroutine.
func (s *Service) OutboxChanged() {
	s.invalidateOutbox()
	s.checkHealth(s.clock.Now()) // an email that now needs attention is told at once
	s.publish()
}

// OutboxRequeued tells the watcher that emails that needed attention went back
// in the queue (notify.Ops.RetryOutbox), so observers see them pending. Their
// delivery health is left as it was until the relay has tried them. Safe from
// any goroutine.
func (s *Service) OutboxRequeued() {
	s.invalidateOutbox()
	s.publish()
}

// invalidateOutbox makes the next snapshot count the outbox again.
func (s *Service) invalidateOutbox() {
	s.mu.Lock()
	s.outboxAt = time.Time{}
	s.mu.Unlock()
}
