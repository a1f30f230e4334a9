package poll

import (
	"context"
	"strings"
	"testing"
	"time"

	"notifio/hostbackoff"
	"notifio/notify"

	"notifio/internal/model"
)

// withEmail sets up email (as the user would have) so alerts are queued for it.
func (h *harness) withEmail() {
	h.t.Helper()
	cfg := model.Config{Host: "127.0.0.1", Port: 2525, Security: model.SecurityNone,
		From: "notifio@example.test", To: []string{"hunter@example.test"}}
	if _, err := notify.NewEmailSettings(h.db, nil).Save(cfg, ""); err != nil {
		h.t.Fatal(err)
	}
}

// alerts are the health alert items in the outbox, oldest first.
func (h *harness) alerts() []model.OutboxItem {
	h.t.Helper()
	var out []model.OutboxItem
	for _, it := range h.outbox() {
		if it.Alert != nil {
			out = append(out, it)
		}
	}
	return out
}

func (h *harness) notesWith(word string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, s := range h.notes {
		if strings.Contains(s, word) {
			n++
		}
	}
	return n
}

func TestBlockedSiteIsToldAfterAnHourNotBefore(t *testing.T) {
	h := newHarness(t, "")
	h.withEmail()
	a := newSite(t, "127.0.0.2", "1", "2")
	h.add("Kreuzberg", a.srv.URL+"/s?q=1", time.Minute)
	h.runFor(70 * time.Second) // baseline
	a.set("challenge", "")
	h.runStep(59*time.Minute, 5*time.Second)
	if n := len(h.alerts()); n != 0 {
		t.Fatalf("blocked for 59 minutes: %d alerts, want none yet: %+v", n, h.alerts()[0].Alert)
	}
	h.runStep(2*time.Minute, 5*time.Second)
	got := h.alerts()
	if len(got) != 1 {
		t.Fatalf("blocked for 61 minutes: %d alerts, want one", len(got))
	}
	al := got[0].Alert
	if !strings.Contains(al.Subject, "Kreuzberg") || !strings.Contains(al.Subject, "captcha") {
		t.Errorf("subject %q: want the search's name and what happened", al.Subject)
	}
	body := strings.Join(al.Lines, "\n")
	for _, want := range []string{"since", "tries again at", "What you can do", "probe now"} {
		if !strings.Contains(body, want) {
			t.Errorf("alert body lacks %q:\n%s", want, body)
		}
	}
	if got[0].Channel != "" || got[0].Event != model.EventHealth {
		t.Errorf("item %+v: want an email health item", got[0])
	}
	if h.notesWith("captcha") != 1 {
		t.Errorf("desktop notifications %q: want one about the captcha", h.notes)
	}
	// The window, the CLI and the alert read the same health.
	ss := h.svc.Snapshot().Searches[0]
	if ss.Health.Kind != model.HealthBlocked || ss.Health.Refusal != model.RefusalChallenge || ss.Health.Since.IsZero() {
		t.Errorf("snapshot health %+v, want blocked by a challenge with its start", ss.Health)
	}
}

func TestThreeDaysBlockedOneAlertTwoReminders(t *testing.T) {
	h := newHarness(t, "")
	h.withEmail()
	a := newSite(t, "127.0.0.2", "1")
	h.add("Mitte", a.srv.URL+"/s", time.Minute)
	h.runFor(70 * time.Second)
	a.set("403", "")
	h.runStep(72*time.Hour, 30*time.Second)
	got := h.alerts()
	if len(got) != 3 {
		t.Fatalf("3 days blocked: %d alerts, want one and two reminders", len(got))
	}
	for i, it := range got {
		rem := strings.HasPrefix(it.Alert.Subject, "Still not working")
		if rem != (i > 0) {
			t.Errorf("alert %d subject %q: want the first an alert, the rest reminders", i, it.Alert.Subject)
		}
	}
	if d := got[2].Created.Sub(got[1].Created); d < 24*time.Hour {
		t.Errorf("reminders %s apart, want at most one a day", d)
	}
}

func TestRecoveryIsToldOnceWithWhatArrived(t *testing.T) {
	h := newHarness(t, "")
	h.withEmail()
	a := newSite(t, "127.0.0.2", "1")
	h.add("Wedding", a.srv.URL+"/s", time.Minute)
	h.runFor(70 * time.Second)
	a.set("429", "")
	h.runStep(90*time.Minute, 5*time.Second)
	if len(h.alerts()) != 1 {
		t.Fatalf("%d alerts after 90 min rate-limited, want 1", len(h.alerts()))
	}
	a.set("ok", "")
	a.add("2")
	h.runStep(2*time.Hour, 5*time.Second)
	got := h.alerts()
	if len(got) != 2 || !got[1].Alert.Recovered {
		t.Fatalf("after recovery %d alerts, want the alert and one back to normal", len(got))
	}
	if s := got[1].Alert.Subject; !strings.Contains(s, "Back to normal") || !strings.Contains(s, "Wedding") {
		t.Errorf("recovery subject %q", s)
	}
	if body := strings.Join(got[1].Alert.Lines, " "); !strings.Contains(body, "1 new listing") {
		t.Errorf("recovery says %q, want how many listings arrived since", body)
	}
	if h.svc.Snapshot().Searches[0].Health.Kind != model.HealthOK {
		t.Errorf("health after recovery %+v", h.svc.Snapshot().Searches[0].Health)
	}
}

func TestTwoSearchesOfOneSiteMakeOneAlert(t *testing.T) {
	h := newHarness(t, "")
	h.withEmail()
	a := newSite(t, "127.0.0.2", "1")
	b := newSite(t, "127.0.0.3", "9")
	h.add("Neukölln 2 rooms", a.srv.URL+"/s?r=2", time.Minute)
	h.add("Neukölln 3 rooms", a.srv.URL+"/s?r=3", time.Minute)
	h.add("Elsewhere", b.srv.URL+"/s", time.Minute)
	h.runFor(2 * time.Minute)
	a.set("challenge", "")
	h.runStep(75*time.Minute, 5*time.Second)
	got := h.alerts()
	if len(got) != 1 {
		t.Fatalf("two searches of one blocked site: %d alerts, want one naming both", len(got))
	}
	if names := got[0].Alert.Searches; len(names) != 2 || !strings.Contains(got[0].Alert.Subject, "2 rooms") ||
		!strings.Contains(got[0].Alert.Subject, "3 rooms") {
		t.Errorf("alert names %q, subject %q: want both searches", names, got[0].Alert.Subject)
	}
}

func TestSessionExpiredIsToldAtOnceAndOnceAfterARestart(t *testing.T) {
	dir := t.TempDir()
	h := newHarness(t, dir)
	h.withEmail()
	a := newSite(t, "127.0.0.2", "1")
	sso := newSite(t, "127.0.0.3")
	h.add("Prenzlauer Berg", a.srv.URL+"/s", time.Minute)
	h.runFor(70 * time.Second)
	a.mu.Lock()
	a.mode, a.login = "login", sso.srv.URL+"/login"
	a.mu.Unlock()
	h.runFor(65 * time.Second)
	got := h.alerts()
	if len(got) != 1 || !strings.Contains(got[0].Alert.Subject, "Log in again") {
		t.Fatalf("session expired: alerts %d (%v), want one at once saying to log in again", len(got), got)
	}
	// A restart in the middle: the new watcher knows it told the user.
	h.svc.Close()
	h.svc = h.open()
	h.runStep(3*time.Hour, 10*time.Second)
	if n := len(h.alerts()); n != 1 {
		t.Fatalf("after a restart %d alerts, want still one", n)
	}
}

func TestPausedOfflineAndOffSayNothing(t *testing.T) {
	h := newHarness(t, "")
	h.withEmail()
	a := newSite(t, "127.0.0.2", "1")
	s := h.add("Paused one", a.srv.URL+"/s", time.Minute)
	h.add("Offline one", "https://flats.invalid/s", time.Minute)
	h.runFor(70 * time.Second)
	if err := h.svc.SetPaused(s.ID, true); err != nil {
		t.Fatal(err)
	}
	a.set("challenge", "")
	h.runStep(3*time.Hour, 10*time.Second)
	if n := len(h.alerts()); n != 0 {
		t.Fatalf("paused and offline searches: %d alerts, want none (%q)", n, h.alerts()[0].Alert.Subject)
	}
	for _, ss := range h.svc.Snapshot().Searches {
		if ss.Health.Kind.NeedsUser() {
			t.Errorf("%s: health %s, want nothing for the user", ss.Name, ss.Health.Kind)
		}
	}
	// Alerts off: a blocked search is shown but not told.
	if err := h.svc.SetAlertSettings(model.AlertSettings{Off: true}); err != nil {
		t.Fatal(err)
	}
	if err := h.svc.SetPaused(s.ID, false); err != nil {
		t.Fatal(err)
	}
	h.runStep(3*time.Hour, 10*time.Second)
	if n := len(h.alerts()); n != 0 {
		t.Fatalf("alerts off: %d alerts", n)
	}
}

func TestAlertAfterIsTheUsersChoice(t *testing.T) {
	h := newHarness(t, "")
	h.withEmail()
	if err := h.svc.SetAlertSettings(model.AlertSettings{After: 30 * time.Second}); err == nil {
		t.Fatal("an alert threshold of 30 s was accepted")
	}
	if err := h.svc.SetAlertSettings(model.AlertSettings{After: time.Minute}); err != nil {
		t.Fatal(err)
	}
	a := newSite(t, "127.0.0.2", "1")
	h.add("Quick", a.srv.URL+"/s", time.Minute)
	h.runFor(70 * time.Second)
	a.set("500", "")
	h.runStep(50*time.Second, 5*time.Second)
	if n := len(h.alerts()); n != 0 {
		t.Fatalf("failing 50 s with --after 1m: %d alerts", n)
	}
	h.runStep(2*time.Minute, 5*time.Second)
	if got := h.alerts(); len(got) != 1 || !strings.Contains(got[0].Alert.Subject, "keeps failing") {
		t.Fatalf("failing 2 min with --after 1m: %v, want one alert that the site keeps failing", got)
	}
}

func TestFailingEmailIsToldThroughTheOtherChannels(t *testing.T) {
	h := newHarness(t, "")
	h.withEmail()
	if err := h.db.AddChannel(model.Channel{Name: "phone", Service: "ntfy", Created: t0}); err != nil {
		t.Fatal(err)
	}
	a := newSite(t, "127.0.0.2", "1")
	h.add("Moabit", a.srv.URL+"/s", time.Minute)
	h.runFor(70 * time.Second)
	a.add("2")
	h.runFor(60 * time.Second)
	var email model.OutboxItem
	for _, it := range h.outbox() {
		if it.Channel == "" && it.Alert == nil {
			email = it
		}
	}
	if email.ID == 0 {
		t.Fatal("no digest email queued")
	}
	if err := h.db.MarkNeedsAttention(email.ID, "535 authentication failed", "Check the password"); err != nil {
		t.Fatal(err)
	}
	h.svc.OutboxChanged() // what the relay calls
	got := h.alerts()
	if len(got) != 1 || got[0].Channel != "phone" {
		t.Fatalf("email failing: alerts %+v, want one, on the phone only (never only through the failing channel)", got)
	}
	if !strings.Contains(got[0].Alert.Subject, "Emails are not going out") ||
		!strings.Contains(strings.Join(got[0].Alert.Lines, " "), "535") {
		t.Errorf("delivery alert %q / %q", got[0].Alert.Subject, got[0].Alert.Lines)
	}
	if h.notesWith("Emails are not going out") != 1 {
		t.Errorf("desktop notifications %q: want one about email", h.notes)
	}
	if ss := h.svc.Snapshot().Searches[0]; ss.Health.Kind != model.HealthDelivery {
		t.Errorf("the search's health %s, want delivery failing", ss.Health.Kind)
	}
	// Fixed: the stuck email itself says so; no "back to normal" on top, and
	// a later failure is told again.
	if err := h.db.RetryOutbox(email.ID, h.clock.Now()); err != nil {
		t.Fatal(err)
	}
	h.svc.OutboxChanged()
	if got := h.alerts(); len(got) != 1 {
		t.Fatalf("after the fix: %d alerts, want still the one", len(got))
	}
	if err := h.db.MarkNeedsAttention(email.ID, "535 authentication failed", "Check the password"); err != nil {
		t.Fatal(err)
	}
	h.svc.OutboxChanged()
	if got := h.alerts(); len(got) != 2 {
		t.Fatalf("failing again: %d alerts, want a second one", len(got))
	}
}

func TestAlertWaitsInTheOutboxWhileTheMailServerIsDown(t *testing.T) {
	h := newHarness(t, "")
	h.withEmail() // port 2525 on 127.0.0.1: nothing listens
	a := newSite(t, "127.0.0.2", "1")
	h.add("Pankow", a.srv.URL+"/s", time.Minute)
	h.runFor(70 * time.Second)
	a.set("challenge", "")
	h.runStep(65*time.Minute, 10*time.Second)
	if len(h.alerts()) != 1 {
		t.Fatalf("%d alerts, want 1", len(h.alerts()))
	}
	relay := notify.NewRelay(h.db, notify.NewEmailSettings(h.db, nil).Source, notify.RelayOptions{Now: h.clock.Now})
	if _, err := relay.SendDue(context.Background()); err != nil {
		t.Logf("relay: %v", err)
	}
	it := h.alerts()[0]
	if it.State != model.OutboxPending || it.Attempts == 0 {
		t.Fatalf("alert after a failed send: %s, %d attempts; want pending and retried like a digest", it.State, it.Attempts)
	}
}

func TestHealthOfRules(t *testing.T) {
	now := t0
	challenge := &hostbackoff.Entry{Kind: model.RefusalChallenge, Failures: 2, NextRetry: now.Add(time.Minute)}
	failing := &hostbackoff.Entry{Kind: model.RefusalError, Failures: 1, NextRetry: now.Add(time.Minute)}
	cases := []struct {
		name string
		in   healthInput
		want model.HealthKind
	}{
		{"fresh", healthInput{}, model.HealthOK},
		{"paused beats blocked", healthInput{paused: true, entry: challenge}, model.HealthPaused},
		{"login beats blocked", healthInput{needsLogin: true, entry: challenge}, model.HealthSessionExpired},
		{"blocked site", healthInput{lastOutcome: "ok", entry: challenge}, model.HealthBlocked},
		{"one page not results", healthInput{lastOutcome: "unexpected_page", entry: failing}, model.HealthNotResults},
		{"another search's bad page is not this one's problem", healthInput{lastOutcome: "ok", siteOutcome: "unexpected_page", entry: failing}, model.HealthOK},
		{"site errors", healthInput{lastOutcome: "ok", siteOutcome: "error", entry: failing}, model.HealthSiteErrors},
		{"offline", healthInput{lastOutcome: "offline"}, model.HealthOffline},
		{"delivery", healthInput{lastOutcome: "ok", delivery: &model.ChannelFailure{Error: "535"}}, model.HealthDelivery},
	}
	for _, c := range cases {
		if got := healthOf(c.in, now); got.Kind != c.want {
			t.Errorf("%s: %s, want %s", c.name, got.Kind, c.want)
		}
	}
	since := now.Add(-time.Hour)
	if h := healthOf(healthInput{entry: challenge, since: since, sinceKind: model.HealthBlocked}, now); !h.Since.Equal(since) {
		t.Errorf("a spell's start was not kept: %s", h.Since)
	}
}

func TestSavedChoiceThatNoLongerFitsIsToldLikeTheOthers(t *testing.T) {
	h := newHarness(t, "")
	h.withEmail()
	a := newSite(t, "127.0.0.2", "1", "2")
	s := h.add("Shown one", a.srv.URL+"/s", time.Minute)
	if _, err := h.svc.UpdateSearch(context.Background(), s.ID, model.SearchInput{Name: s.Name, URL: s.URL,
		Interval: time.Minute, Selectors: model.PageSelectors{Item: "div.old-card", Link: "a", Title: "h3"}}); err != nil {
		t.Fatal(err)
	}
	h.runStep(30*time.Minute, 5*time.Second)
	ss := h.svc.Snapshot().Searches[0]
	if ss.Health.Kind != model.HealthSelectorsStale || ss.Baselined != true {
		t.Fatalf("health %s (baselined %v), want the saved choice reported stale while listings are still read",
			ss.Health.Kind, ss.Baselined)
	}
	if len(h.alerts()) != 0 {
		t.Fatal("told before the threshold")
	}
	h.runStep(35*time.Minute, 5*time.Second)
	got := h.alerts()
	if len(got) != 1 || !strings.Contains(got[0].Alert.Subject, "no longer fit") {
		t.Fatalf("alerts %v, want one saying the saved choice no longer fits", got)
	}
}

func TestDailySummaryOnRequestOnceADay(t *testing.T) {
	h := newHarness(t, "")
	h.withEmail()
	a := newSite(t, "127.0.0.2", "1")
	h.add("Summed", a.srv.URL+"/s", 10*time.Minute)
	h.runStep(3*time.Hour, time.Minute)
	if n := len(h.alerts()); n != 0 {
		t.Fatalf("summary off by default, but %d messages", n)
	}
	at := h.clock.Now().Add(time.Hour).Local().Format("15:04")
	if err := h.svc.SetAlertSettings(model.AlertSettings{Summary: true, SummaryAt: at}); err != nil {
		t.Fatal(err)
	}
	h.runStep(50*time.Minute, time.Minute)
	if n := len(h.alerts()); n != 0 {
		t.Fatalf("%d summaries before %s", n, at)
	}
	h.runStep(26*time.Hour, time.Minute)
	got := h.alerts()
	if len(got) != 2 {
		t.Fatalf("%d summaries in 26 hours, want one a day", len(got))
	}
	if s := got[0].Alert.Subject; !strings.Contains(s, "Still watching: 1 search,") || !strings.Contains(s, "all healthy") ||
		!strings.Contains(s, "checks") {
		t.Errorf("summary %q", s)
	}
}
