package ui

import (
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"notifio/internal/model"
)

// sample is a watcher with one search in each state the window must put in words.
func sample() model.Snapshot {
	return model.Snapshot{
		At: t0,
		Searches: []model.SearchSnapshot{
			{ID: "a", Name: "Kreuzberg < 1200 €", URL: "https://www.kleinanzeigen.de/s-wohnung-mieten/kreuzberg/c203l3375",
				Site: "kleinanzeigen.de", Interval: 2 * time.Minute, State: model.StateScheduled,
				NextCheck: t0.Add(102 * time.Second), LastChecked: t0.Add(-18 * time.Second), LastOutcome: "ok",
				Baselined: true, BaselineCount: 25, LastCount: 25, Unseen: 3},
			{ID: "b", Name: "Neukölln WG", URL: "https://www.wg-gesucht.de/wg-zimmer-in-Berlin.8.0.1.0.html",
				Site: "wg-gesucht.de", State: model.StateChecking, Baselined: true, BaselineCount: 20, LastCount: 21, LastNew: 1},
			{ID: "c", Name: "Madrid centro", URL: "https://www.idealista.com/alquiler-viviendas/madrid/centro/",
				Site: "idealista.com", State: model.StateWaiting, NextCheck: t0.Add(271 * time.Second),
				Wait: model.WaitSite, Reason: "idealista.com is rate-limiting us", Baselined: true, BaselineCount: 30, LastCount: 30},
			{ID: "d", Name: "Gràcia", URL: "https://www.fotocasa.es/es/alquiler/viviendas/barcelona/gracia/l",
				Site: "fotocasa.es", State: model.StateWaiting, NextCheck: t0.Add(-5 * time.Second),
				Wait: model.WaitProbe, Reason: "waiting for the probe on fotocasa.es"},
			{ID: "e", Name: "Eixample", URL: "https://www.fotocasa.es/es/alquiler/viviendas/barcelona/eixample/l",
				Site: "fotocasa.es", State: model.StateProbing, Reason: "probing fotocasa.es"},
			{ID: "f", Name: "Mitte", URL: "https://www.immowelt.de/suche/berlin-mitte/wohnungen/mieten",
				Site: "immowelt.de", State: model.StatePaused},
			{ID: "g", Name: "Prenzlauer Berg", URL: "https://www.immobilienscout24.de/Suche/de/berlin/wohnung-mieten",
				Site: "immobilienscout24.de", State: model.StateAttention, LastOutcome: "session_expired",
				Wait: model.WaitLogin, Reason: "session expired — log in again"},
			{ID: "h", Name: "Friedrichshain", URL: "https://www.wohnungsboerse.net/searches/index?estate_marketing_types=miete",
				Site: "wohnungsboerse.net", State: model.StateScheduled, NextCheck: t0.Add(60 * time.Second),
				LastOutcome: "unexpected_page", Reason: "the page did not look like results", Baselined: true},
		},
		Sites: []model.SiteSnapshot{
			{Site: "fotocasa.es", Waiting: false, Kind: model.RefusalChallenge, Rung: 1, NextProbe: t0.Add(-5 * time.Second),
				ProbeInFlight: true, LastStatus: 403, LastOutcome: "challenge", LastSignal: "challenge marker: cf-chl", Searches: 2},
			{Site: "idealista.com", Waiting: true, Kind: model.RefusalRateLimited, Rung: 2, NextProbe: t0.Add(271 * time.Second),
				RetryAfter: 10 * time.Minute, LastStatus: 429, LastOutcome: "rate_limited", LastSignal: "status 429", Searches: 1,
				LastRefusal: "/home/u/.local/share/notifio/refusals/idealista.com.html", SuccessRate: 0.5},
			{Site: "kleinanzeigen.de", LastStatus: 200, LastOutcome: "ok", LastSignal: "25 listings",
				AvgResponse: 420 * time.Millisecond, SuccessRate: 1, Searches: 1},
		},
	}
}

func TestEmptyStateTellsANewUserWhatToDo(t *testing.T) {
	h := newHarness(t, model.Snapshot{})
	h.requireText("Paste a search URL from your portal")
	h.requireText("checks it every 2 minutes")
	if h.u.searches.edit.Disabled() == false || h.u.searches.check.Disabled() == false {
		t.Error("Edit and Check now are enabled with no search selected")
	}
	test.Tap(h.u.searches.emptyAdd)
	if got := h.overlayTexts(); !slices.ContainsFunc(got, func(s string) bool { return strings.Contains(s, "address bar") }) {
		t.Errorf("Add did not open the add dialog; overlay shows %q", got)
	}
}

func TestEveryStateIsShownInPlainWords(t *testing.T) {
	h := newHarness(t, sample())
	h.u.win.Resize(fyne.NewSize(900, 1100)) // every row on screen
	for _, want := range []string{
		"next check in 1:42",
		"checking…",
		"idealista.com is rate-limiting us — next try in 4 min",
		"waiting for the probe on fotocasa.es",
		"probing fotocasa.es",
		"paused",
		"needs attention: session expired — log in again",
		"the page did not look like results",
		"3 new",
		"nothing newer", // beside "3 new" (the baseline wording: TestRowsSayWhen…)
	} {
		h.requireText(want)
	}
	if h.hasText("offline") {
		t.Error("offline banner shown while online")
	}
}

func TestCountdownFollowsTheClock(t *testing.T) {
	h := newHarness(t, sample())
	h.requireText("next check in 1:42")
	h.clock.Advance(time.Second)
	h.u.tick()
	h.requireText("next check in 1:41")
	h.requireText("next try in 4 min") // 4:30 away, due at 14:04: whole minutes
	if h.hasText("next check in 1:42") {
		t.Error("the old countdown is still shown after a tick")
	}
	h.clock.Advance(101 * time.Second)
	h.u.tick()
	h.requireText("checking in a moment")
	h.requireText("next try in 2:49") // within three minutes: seconds again
}

func TestTickerDrivesCountdownsThroughTheDispatcher(t *testing.T) {
	a := test.NewTempApp(t)
	clock := &fakeClock{t: t0}
	b := newFakeBackend(clock)
	b.set(sample())
	q := newQueue()
	u := New(a, b, Options{Now: clock.Now, Dispatch: q.dispatch, TickEvery: time.Millisecond})
	defer u.Close()
	u.win.Resize(fyne.NewSize(900, 620))
	clock.Advance(2 * time.Second)
	q.runNext(t) // the ticker's dispatch, run here on the test's UI goroutine
	if got := u.searches.rows[slices.IndexFunc(u.searches.rows, func(r searchRow) bool { return r.snap.ID == "a" })].status; got != "next check in 1:40" {
		t.Errorf("after a tick the row of Kreuzberg says %q, want %q", got, "next check in 1:40")
	}
}

func TestSnapshotsFromTheBackendAreApplied(t *testing.T) {
	h := newHarness(t, model.Snapshot{})
	s := sample()
	s.Offline = true
	h.publish(s)
	h.requireText("Kreuzberg < 1200 €")
	h.requireText("You seem to be offline")
	if h.hasText("Paste a search URL") {
		t.Error("the empty state is still shown with searches present")
	}
}

func TestCheckNowOnAWaitingSiteExplainsAndDoesNotFetch(t *testing.T) {
	h := newHarness(t, sample())
	h.u.searches.selectSearch("c")
	test.Tap(h.u.searches.check)
	h.q.runAll()
	if len(h.b.checkNow) != 0 {
		t.Fatalf("Check now on a waiting site asked the backend to check %v", h.b.checkNow)
	}
	got := strings.Join(h.overlayTexts(), "\n")
	for _, want := range []string{"idealista.com is rate-limiting us", "tries again at 14:04 (in 4 min)"} {
		if !strings.Contains(got, want) {
			t.Errorf("wait dialog lacks %q; it says:\n%s", want, got)
		}
	}
}

func TestCheckNowReportsAWaitTheBackendFound(t *testing.T) {
	h := newHarness(t, sample())
	h.b.checkNowErr = &model.WaitError{Site: "kleinanzeigen.de", Until: t0.Add(90 * time.Second), Wait: model.WaitSite, Reason: "kleinanzeigen.de refused access"}
	h.u.searches.selectSearch("a")
	test.Tap(h.u.searches.check)
	h.q.runNext(t)
	if len(h.b.checkNow) != 1 {
		t.Fatalf("CheckNow calls = %v, want one", h.b.checkNow)
	}
	got := strings.Join(h.overlayTexts(), "\n")
	if !strings.Contains(got, "kleinanzeigen.de refused access. Notifio tries again at 14:01 (in 1:30)") {
		t.Errorf("wait dialog says:\n%s", got)
	}
}

func TestCheckNowChecks(t *testing.T) {
	h := newHarness(t, sample())
	h.u.searches.selectSearch("a")
	test.Tap(h.u.searches.check)
	if !h.u.searches.check.Disabled() {
		t.Error("Check now stays enabled while the check is being queued")
	}
	h.q.runNext(t)
	if !slices.Equal(h.b.checkNow, []string{"a"}) {
		t.Fatalf("CheckNow calls = %v, want [a]", h.b.checkNow)
	}
	if h.u.searches.check.Disabled() {
		t.Error("Check now stays disabled after the check was queued")
	}
}

func TestRemoveAsksFirst(t *testing.T) {
	h := newHarness(t, sample())
	h.u.searches.selectSearch("f")
	test.Tap(h.u.searches.remove)
	if len(h.b.removed) != 0 {
		t.Fatal("removed without asking")
	}
	test.Tap(h.button("Keep it"))
	if len(h.b.removed) != 0 {
		t.Fatal("removed although the user chose to keep it")
	}
	test.Tap(h.u.searches.remove)
	test.Tap(h.button("Remove"))
	if !slices.Equal(h.b.removed, []string{"f"}) {
		t.Fatalf("removed %v, want [f]", h.b.removed)
	}
	if h.hasText("Mitte") {
		t.Error("the removed search is still listed")
	}
	if !h.u.searches.edit.Disabled() {
		t.Error("Edit stays enabled after the selected search was removed")
	}
}

func TestPauseAndResume(t *testing.T) {
	h := newHarness(t, sample())
	h.u.searches.selectSearch("a")
	if h.u.searches.pause.Text != "Pause" {
		t.Fatalf("pause button says %q for a running search", h.u.searches.pause.Text)
	}
	test.Tap(h.u.searches.pause)
	if !h.b.paused["a"] {
		t.Fatal("Pause did not pause the search")
	}
	if h.u.searches.pause.Text != "Resume" {
		t.Errorf("pause button says %q for a paused search, want Resume", h.u.searches.pause.Text)
	}
	test.Tap(h.u.searches.pause)
	if h.b.paused["a"] {
		t.Error("Resume did not resume the search")
	}
}

func TestOutboxProblemsShowABannerWithRetry(t *testing.T) {
	s := sample()
	s.Outbox = model.OutboxSnapshot{NeedsAttention: 2,
		LastError: "535 5.7.8 Username and Password not accepted",
		Hint:      "Use an app password: Google account › Security › App passwords"}
	h := newHarness(t, s)
	h.requireText("2 emails could not be sent. The mail server said: 535 5.7.8 Username and Password not accepted")
	h.requireText("Use an app password")
	test.Tap(h.u.searches.retry)
	if h.b.retries != 1 {
		t.Fatalf("Retry called RetryOutbox %d times, want 1", h.b.retries)
	}
	h.publish(sample()) // outbox clear
	if h.hasText("could not be sent") {
		t.Error("banner still shown after the outbox cleared")
	}
}

func TestClosingEndsOnlyTheWindowAndSaysSoOnce(t *testing.T) {
	h := newHarness(t, sample())
	h.u.closeWindow() // a window without a watcher process of its own (tests): it just closes
	select {
	case <-h.u.done:
	default:
		t.Fatal("closing the window did not close it")
	}

	quits := 0
	h = newHarness(t, sample())
	h.u.watcher = &WatcherProcess{TrayIcon: false, QuitAll: func() error { quits++; return nil }}
	h.u.show()
	h.u.closeWindow()
	select {
	case <-h.u.done:
		t.Fatal("the first close ended the window before saying that watching goes on")
	default:
	}
	if !h.hasText("Notifio goes on watching your searches in the background") ||
		!h.hasText("start Notifio again (from your applications menu, or run notifio)") {
		t.Fatalf("the first close does not say how to come back; texts %q", h.texts())
	}
	if h.hasText("icon in the tray") {
		t.Error("without a tray host the window speaks of a tray icon")
	}
	test.Tap(h.button("Close the window, keep watching"))
	select {
	case <-h.u.done:
	default:
		t.Fatal("Close the window did not close it")
	}
	if quits != 0 {
		t.Fatal("closing the window stopped the watcher")
	}

	// The next time (a new window process, the same preferences) it just closes.
	u2 := New(h.app, h.b, Options{Now: h.clock.Now, Dispatch: h.q.dispatch, TickEvery: time.Hour,
		Watcher: &WatcherProcess{QuitAll: func() error { quits++; return nil }}})
	u2.closeWindow()
	select {
	case <-u2.done:
	default:
		t.Fatal("the second close asked again")
	}
}

func TestQuitAllStopsTheWatcher(t *testing.T) {
	h := newHarness(t, sample())
	quits := 0
	h.u.watcher = &WatcherProcess{TrayIcon: true, QuitAll: func() error { quits++; return nil }}
	h.u.show()
	h.u.closeWindow()
	if !h.hasText("click Notifio's icon in the tray and choose Open Notifio") {
		t.Fatalf("with a tray host the first close does not point at the icon; texts %q", h.texts())
	}
	test.Tap(h.button("Quit all (stop watching)"))
	h.q.runNext(t) // the request went off the UI goroutine
	h.q.runAll()
	if quits != 1 {
		t.Fatalf("Quit all stopped the watcher %d times", quits)
	}
	select {
	case <-h.u.done:
	default:
		t.Fatal("Quit all left the window open")
	}
}

func TestPreferencesRememberSizeAndView(t *testing.T) {
	h := newHarness(t, sample())
	h.u.win.Resize(fyne.NewSize(1000, 700))
	h.u.selectView(viewSites)
	h.u.Close()
	h.u.Close() // twice is fine

	u2 := New(h.app, h.b, Options{Now: h.clock.Now, Dispatch: h.q.dispatch, TickEvery: time.Hour})
	defer u2.Close()
	if got := u2.tabs.SelectedIndex(); got != viewSites {
		t.Errorf("reopened on view %d, want the sites view (%d)", got, viewSites)
	}
	if got := h.app.Preferences().Float(prefWidth); got != 1000 {
		t.Errorf("remembered width %v, want 1000", got)
	}
}

func TestListingsNewestFirstMarkedNewUntilViewed(t *testing.T) {
	h := newHarness(t, sample())
	h.b.listings["a"] = []model.Listing{
		{ID: "kleinanzeigen.de:1", URL: "https://www.kleinanzeigen.de/s-anzeige/1", Title: "Altbau, 2 Zimmer",
			Price: "1.150 €", Size: "65 m²", Rooms: "2", Location: "Kreuzberg", FirstSeen: t0.Add(-2 * time.Hour)},
		{ID: "kleinanzeigen.de:3", URL: "https://www.kleinanzeigen.de/s-anzeige/3", Title: "Dachgeschoss mit Balkon",
			Price: "1.190 €", Location: "Kreuzberg", FirstSeen: t0.Add(-time.Minute)},
		{ID: "kleinanzeigen.de:2", URL: "https://www.kleinanzeigen.de/s-anzeige/2", Title: "WBS Wohnung",
			Price: "780 €", Rooms: "1", FirstSeen: t0.Add(-30 * time.Hour)},
	}
	h.publish(func() model.Snapshot { s := sample(); s.Searches[0].Unseen = 2; return s }())
	h.u.searches.selectSearch("a")
	test.Tap(h.u.searches.listings)
	h.q.runAll()

	if got := h.u.listings.items; len(got) != 3 || got[0].ID != "kleinanzeigen.de:3" || got[2].ID != "kleinanzeigen.de:2" {
		t.Fatalf("listings not newest first: %+v", got)
	}
	if !slices.Equal(h.b.viewed, []string{"a"}) {
		t.Errorf("MarkViewed calls = %v, want [a]", h.b.viewed)
	}
	h.requireText("1.190 € · Kreuzberg · first seen today 13:59")
	h.requireText("1.150 € · 65 m² · 2 rooms · Kreuzberg · first seen today 12:00")
	h.requireText("780 € · 1 room · first seen yesterday 08:00")
	var badges int
	for _, s := range h.texts() {
		if s == "NEW" {
			badges++
		}
	}
	if badges != 2 {
		t.Errorf("%d listings marked new, want the 2 unseen ones", badges)
	}
	if h.u.searches.rows[0].unseen != "" {
		t.Errorf("the search still shows %q after its listings were viewed", h.u.searches.rows[0].unseen)
	}

	h.u.listings.list.Select(1)
	if !slices.Equal(h.opened, []string{"https://www.kleinanzeigen.de/s-anzeige/1"}) {
		t.Errorf("tapping a listing opened %v", h.opened)
	}

	// Looking again later: nothing is new any more.
	h.u.selectView(viewSearches)
	h.u.listings.choose("b")
	h.u.listings.choose("a")
	h.u.selectView(viewListings)
	if h.hasText("NEW") {
		t.Error("listings are still marked new after they were viewed")
	}
}

func TestClosingWithoutATrayQuits(t *testing.T) {
	h := newHarness(t, sample())
	h.u.closeWindow()
	select {
	case <-h.u.done:
	default:
		t.Error("closing the window without a tray left the watcher's UI running")
	}
}

func TestAnOvertakenSnapshotIsDropped(t *testing.T) {
	h := newHarness(t, sample())
	old := sample()
	old.At = t0.Add(-time.Second)
	old.Searches = nil
	h.u.apply(old)
	if len(h.u.searches.rows) != len(sample().Searches) {
		t.Errorf("an older snapshot replaced a newer one (%d rows)", len(h.u.searches.rows))
	}
}
