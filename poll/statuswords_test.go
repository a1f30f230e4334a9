package poll

import (
	"testing"
	"time"

	"notifio/internal/model"

	"notifio/poll/words"
)

func TestCountdown(t *testing.T) {
	for _, tc := range []struct {
		now  time.Time
		d    time.Duration
		want string
	}{
		{t0, -time.Second, "0:00"},
		{t0, 0, "0:00"},
		{t0, time.Millisecond, "0:01"}, // still waiting: never reads 0:00
		{t0, 102 * time.Second, "1:42"},
		{t0, 179 * time.Second, "2:59"},
		{t0, 3 * time.Minute, "3:00"},
		{t0.Add(30 * time.Second), 3 * time.Minute, "3:00"},
		// Further away: whole minutes on the clock, from 14:00 to the instant's minute.
		{t0, 3*time.Minute + time.Second, "3 min"},
		{t0.Add(59 * time.Second), 3*time.Minute + time.Second, "4 min"},
		{t0, 271*time.Second + 300*time.Millisecond, "4 min"},
		{t0, 34 * time.Minute, "34 min"},
		{t0, 59*time.Minute + 59*time.Second, "59 min"},
		{t0, time.Hour, "1 h"},
		{t0, time.Hour + 61*time.Second, "1 h 1 min"},
		{t0, 2*time.Hour + 5*time.Minute, "2 h 5 min"},
		{t0, 26 * time.Hour, "26 h"},
		// A check at 14:34:30 is "in 34 min" from 14:00:00 to 14:00:59 (34:30 to
		// 33:31 away) and "in 33 min" from 14:01:00, together with every other
		// minutes countdown.
		{t0, 34*time.Minute + 30*time.Second, "34 min"},
		{t0.Add(59 * time.Second), 33*time.Minute + 31*time.Second, "34 min"},
		{t0.Add(60 * time.Second), 33*time.Minute + 30*time.Second, "33 min"},
	} {
		if got := words.Countdown(tc.now.Add(tc.d), tc.now); got != tc.want {
			t.Errorf("Countdown(%v after %s) = %q, want %q", tc.d, tc.now.Format("15:04:05"), got, tc.want)
		}
	}
}

// TestMinutesCountdownsChangeOncePerMinute checks what the window's frame rate
// rests on: countdowns more than secondsWithin away, whatever their seconds,
// change only when the clock's minute changes.
func TestMinutesCountdownsChangeOncePerMinute(t *testing.T) {
	var untils []time.Time
	for i := range 50 {
		untils = append(untils, t0.Add(7*time.Minute+time.Duration(i*73)*time.Second+time.Duration(i)*time.Millisecond))
	}
	now := t0.Add(100 * time.Millisecond)
	last := make([]string, len(untils))
	for i, u := range untils {
		last[i] = words.Countdown(u, now)
	}
	for range 180 {
		now = now.Add(time.Second)
		changed := false
		for i, u := range untils {
			if got := words.Countdown(u, now); got != last[i] {
				changed, last[i] = true, got
			}
		}
		if changed && now.Second() != 0 {
			t.Fatalf("a minutes countdown changed at %s, not at a whole minute", now.Format("15:04:05.000"))
		}
	}
}

func TestSearchStatusWords(t *testing.T) {
	probing := &model.SiteSnapshot{Site: "idealista.com", ProbeInFlight: true}
	for _, tc := range []struct {
		name string
		s    model.SearchSnapshot
		site *model.SiteSnapshot
		want string
	}{
		{"scheduled", model.SearchSnapshot{State: model.StateScheduled, NextCheck: t0.Add(102 * time.Second)}, nil, "next check in 1:42"},
		{"scheduled later", model.SearchSnapshot{State: model.StateScheduled, NextCheck: t0.Add(34 * time.Minute)}, nil, "next check in 34 min"},
		{"scheduled in hours", model.SearchSnapshot{State: model.StateScheduled, NextCheck: t0.Add(65 * time.Minute)}, nil, "next check in 1 h 5 min"},
		{"due", model.SearchSnapshot{State: model.StateScheduled, NextCheck: t0}, nil, "checking in a moment"},
		{"new", model.SearchSnapshot{State: model.StateScheduled}, nil, "first check soon"},
		{"checking", model.SearchSnapshot{State: model.StateChecking}, nil, "checking…"},
		{"rate limited", model.SearchSnapshot{State: model.StateWaiting, Site: "idealista.com",
			Reason: "idealista.com is rate-limiting us", NextCheck: t0.Add(271 * time.Second)}, nil,
			"idealista.com is rate-limiting us — next try in 4 min"},
		{"waiting, no reason", model.SearchSnapshot{State: model.StateWaiting, Site: "idealista.com",
			NextCheck: t0.Add(time.Minute)}, nil, "idealista.com asked us to wait — next try in 1:00"},
		{"wait over", model.SearchSnapshot{State: model.StateWaiting, Site: "idealista.com",
			Reason: "idealista.com refused access", NextCheck: t0.Add(-time.Second)}, nil,
			"idealista.com refused access — trying again any moment"},
		{"probe", model.SearchSnapshot{State: model.StateWaiting, Site: "idealista.com", Wait: model.WaitProbe,
			Reason: "waiting for the probe on idealista.com"}, nil, "waiting for the probe on idealista.com"},
		{"probe in flight", model.SearchSnapshot{State: model.StateWaiting, Site: "idealista.com",
			Reason: "idealista.com is rate-limiting us"}, probing, "waiting for the probe on idealista.com"},
		{"probing", model.SearchSnapshot{State: model.StateProbing, Site: "idealista.com"}, nil, "probing idealista.com"},
		{"paused", model.SearchSnapshot{State: model.StatePaused}, nil, "paused"},
		{"session", model.SearchSnapshot{State: model.StateAttention, Wait: model.WaitLogin, LastOutcome: "session_expired",
			Reason: "session expired — log in again"}, nil, "needs attention: session expired — log in again"},
		{"not results, attention", model.SearchSnapshot{State: model.StateAttention, LastOutcome: "unexpected_page"}, nil,
			"the page did not look like results"},
		{"not results, scheduled", model.SearchSnapshot{State: model.StateScheduled, LastOutcome: "unexpected_page",
			Reason: "the page did not look like results", NextCheck: t0.Add(time.Minute)}, nil,
			"the page did not look like results — next check in 1:00"},
		{"other attention", model.SearchSnapshot{State: model.StateAttention, Reason: "the site moved"}, nil,
			"needs attention: the site moved"},
	} {
		if got := words.StatusWords(tc.s, tc.site, t0); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestStatusWordsReadTheTypedStateNotTheReason: the state of a row comes from
// the snapshot's typed fields, so rewording a Reason (or a reason in another
// language) changes no state. The window read "waiting for the probe" and
// "needs attention" back from Reason before.
func TestStatusWordsReadTheTypedStateNotTheReason(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    model.SearchSnapshot
		want string
	}{
		{"probe, reworded", model.SearchSnapshot{State: model.StateWaiting, Site: "idealista.com", Wait: model.WaitProbe,
			Reason: "one search of idealista.com asks first", NextCheck: t0.Add(time.Minute)},
			"waiting for the probe on idealista.com"},
		{"a site's pause whose reason starts like a probe's", model.SearchSnapshot{State: model.StateWaiting, Site: "idealista.com",
			Wait: model.WaitSite, Reason: "waiting for the probe is not this", NextCheck: t0.Add(time.Minute)},
			"waiting for the probe is not this — next try in 1:00"},
		{"login, reworded", model.SearchSnapshot{State: model.StateAttention, Site: "idealista.com", Wait: model.WaitLogin,
			Reason: "please log in"}, "needs attention: session expired — log in again"},
	} {
		if got := words.StatusWords(tc.s, nil, t0); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestDurationWords(t *testing.T) {
	for d, want := range map[time.Duration]string{
		30 * time.Second:  "30 seconds",
		90 * time.Second:  "90 seconds",
		time.Minute:       "1 minute",
		10 * time.Minute:  "10 minutes",
		time.Hour:         "1 hour",
		90 * time.Minute:  "1 hour 30 minutes",
		150 * time.Second: "150 seconds",
		// Settings of a day or more (alerts' --after) in days, as the
		// window offers them, not "24 hours".
		24 * time.Hour:     "1 day",
		7 * 24 * time.Hour: "7 days",
		26 * time.Hour:     "26 hours",
	} {
		if got := words.DurationWords(d); got != want {
			t.Errorf("DurationWords(%v) = %q, want %q", d, got, want)
		}
	}
}

// The short span and the countdown share their minutes form; the measured
// form keeps fetch's precision.
func TestSpanAndPreciseDurationWords(t *testing.T) {
	for d, want := range map[time.Duration]string{
		30 * time.Second: "under a minute", 45 * time.Minute: "45 min", 2 * time.Hour: "2 h",
		70*time.Minute + 59*time.Second: "1 h 10 min", 50 * time.Hour: "2 days 2 h",
	} {
		if got := words.SpanWords(d); got != want {
			t.Errorf("SpanWords(%v) = %q, want %q", d, got, want)
		}
	}
	for d, want := range map[time.Duration]string{
		200 * time.Millisecond: "200ms", 1234 * time.Millisecond: "1.2s", 90*time.Second + 400*time.Millisecond: "1m30s",
	} {
		if got := words.PreciseDuration(d); got != want {
			t.Errorf("PreciseDuration(%v) = %q, want %q", d, got, want)
		}
	}
}

// The clock forms: the bare time today, the day named or not.
func TestClockWords(t *testing.T) {
	now := time.Date(2026, 7, 14, 14, 0, 0, 0, time.Local)
	for _, tc := range []struct {
		at             time.Time
		clock, dayTime string
	}{
		{now.Add(-time.Hour), "13:00", "today 13:00"},
		{now.Add(-24 * time.Hour), "Mon 13 Jul 14:00", "yesterday 14:00"},
		{time.Date(2026, 7, 13, 23, 59, 0, 0, time.Local), "Mon 13 Jul 23:59", "yesterday 23:59"},
		{now.Add(-48 * time.Hour), "Sun 12 Jul 14:00", "Sun 12 Jul 14:00"},
		{time.Date(2025, 7, 13, 9, 0, 0, 0, time.Local), "Sun 13 Jul 09:00", "Sun 13 Jul 09:00"},
	} {
		if got := words.ClockWords(tc.at, now); got != tc.clock {
			t.Errorf("ClockWords(%v) = %q, want %q", tc.at, got, tc.clock)
		}
		if got := words.DayAndTime(tc.at, now); got != tc.dayTime {
			t.Errorf("DayAndTime(%v) = %q, want %q", tc.at, got, tc.dayTime)
		}
	}
	if got := words.ClockTime(now); got != "14:00" {
		t.Errorf("ClockTime = %q", got)
	}
}

// Issue 37 (seen in the real window): "Notifio asks again in 6 min" stood
// beside "The site asked Notifio to wait 2 minutes" with no word on why.
func TestRetryAfterWordsSayWhenTheLadderWaitsLonger(t *testing.T) {
	st := model.SiteSnapshot{Kind: model.RefusalRateLimited, Rung: 2, RetryAfter: 2 * time.Minute}
	if got, want := words.RetryAfterWords(st), "The site asked Notifio to wait 2 minutes; after 2 refusals in a row Notifio waits longer."; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	st.Rung = 1
	if got, want := words.RetryAfterWords(st), "The site asked Notifio to wait 2 minutes."; got != want {
		t.Errorf("first refusal: %q, want %q", got, want)
	}
	st.Rung, st.RetryAfter = 2, 10*time.Minute
	if got, want := words.RetryAfterWords(st), "The site asked Notifio to wait 10 minutes."; got != want {
		t.Errorf("a longer Retry-After: %q, want %q", got, want)
	}
}
