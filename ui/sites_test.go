package ui

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"notifio/internal/model"

	"notifio/poll/words"
)

func TestSiteCardsSayWhyAndForHowLong(t *testing.T) {
	h := newHarness(t, sample())
	h.u.win.Resize(fyne.NewSize(900, 1400))
	h.u.selectView(viewSites)
	for _, want := range []string{
		"idealista.com",
		"is rate-limiting us — 2nd time in a row",
		"Notifio asks again in 4 min (at 14:04).",
		"Last answer: refused (429 Too Many Requests)",
		"The site asked Notifio to wait 10 minutes.",
		"checking now whether the site lets Notifio back in",
		"Last answer: refused (403 Forbidden) — the page was a captcha or browser check",
		"reads normally",
		"Searches: Madrid centro",
	} {
		h.requireText(want)
	}
	if h.hasText("No wait") || h.hasText("Notifio reads this site normally") {
		t.Error("a clear site's card says more than one line")
	}
	h.clock.Advance(31 * time.Second)
	h.u.tick()
	h.requireText("Notifio asks again in 4 min (at 14:04).") // whole minutes change with the clock's minute
	h.clock.Advance(60 * time.Second)
	h.u.tick()
	h.requireText("Notifio asks again in 3:00 (at 14:04).")
	var order []string
	for _, o := range h.u.sites.box.Objects {
		for site, c := range h.u.sites.cards {
			if c.card == o {
				order = append(order, site)
			}
		}
	}
	if len(order) == 0 || order[len(order)-1] != "kleinanzeigen.de" {
		t.Errorf("cards in order %v: the troubled sites come first", order)
	}
}

func TestSiteCardActions(t *testing.T) {
	s := sample()
	// fotocasa.es: its probe came back refused, the challenge ladder climbed.
	s.Sites[0] = model.SiteSnapshot{Site: "fotocasa.es", Waiting: true, Kind: model.RefusalChallenge, Rung: 2,
		NextProbe: t0.Add(3 * time.Minute), LastStatus: 403, LastOutcome: "challenge", LastSignal: "challenge marker: cf-chl", Searches: 2}
	h := newHarness(t, s)
	h.u.win.Resize(fyne.NewSize(900, 1400))
	h.u.selectView(viewSites)
	fc, id := h.u.sites.cards["fotocasa.es"], h.u.sites.cards["idealista.com"]
	if !fc.probe.Visible() || !fc.browser.Visible() {
		t.Fatal("a challenged site offers no way to solve it")
	}
	if id.probe.Visible() || id.browser.Visible() {
		t.Error("a rate-limited site offers to solve a challenge")
	}
	if fc.page.Visible() || !id.page.Visible() {
		t.Error("Open the page it showed is offered exactly where a page was saved")
	}

	test.Tap(fc.browser)
	test.Tap(id.page)
	want := []string{
		// The site's first search in the list's order (Eixample before Gràcia).
		"https://www.fotocasa.es/es/alquiler/viviendas/barcelona/eixample/l",
		"file:///home/u/.local/share/notifio/refusals/idealista.com.html",
	}
	if !slices.Equal(h.opened, want) {
		t.Errorf("opened %q, want %q", h.opened, want)
	}

	h.b.probeAt, h.b.probeErr = t0.Add(42*time.Second), errors.New("hostbackoff: too early to probe this site again")
	test.Tap(fc.probe)
	h.requireText("Too early: Notifio can probe fotocasa.es from 14:00 (in 0:42)")

	h.b.probeAt, h.b.probeErr = t0, nil
	test.Tap(fc.probe)
	h.requireText("Probing fotocasa.es now")
	if !slices.Equal(h.b.probes, []string{"fotocasa.es", "fotocasa.es"}) {
		t.Errorf("ProbeNow calls = %v", h.b.probes)
	}
}

func TestSitesComeAndGo(t *testing.T) {
	h := newHarness(t, model.Snapshot{})
	h.u.selectView(viewSites)
	h.requireText("No sites yet")
	h.publish(sample())
	if h.hasText("No sites yet") || len(h.u.sites.box.Objects) != 3 {
		t.Fatalf("%d cards for 3 sites", len(h.u.sites.box.Objects))
	}
	s := sample()
	s.Sites = s.Sites[1:]
	h.publish(s)
	if _, ok := h.u.sites.cards["fotocasa.es"]; ok || len(h.u.sites.box.Objects) != 2 {
		t.Errorf("a site that went away keeps its card (%d cards)", len(h.u.sites.box.Objects))
	}
}

// The "Too early" countdown ticks and gives way when the minute is up; after a
// probe the user asked for, "Probing…" and the refusal page's button go once
// the site lets us back in.
func TestProbeNowTicksAndClearsAfterTheAnswer(t *testing.T) {
	s := sample()
	s.Sites[0] = model.SiteSnapshot{Site: "fotocasa.es", Waiting: true, Kind: model.RefusalChallenge, Rung: 2,
		NextProbe: t0.Add(3 * time.Minute), LastStatus: 403, LastOutcome: "challenge", LastSignal: "challenge marker: cf-chl", Searches: 2,
		LastRefusal: "/home/u/.local/share/notifio/refusals/fotocasa.es.html"}
	h := newHarness(t, s)
	h.u.selectView(viewSites)
	fc := h.u.sites.cards["fotocasa.es"]
	h.b.probeAt, h.b.probeErr = t0.Add(51*time.Second), errors.New("hostbackoff: too early to probe this site again")
	test.Tap(fc.probe)
	h.requireText("(in 0:51)")
	h.clock.Advance(10 * time.Second)
	h.u.tick()
	h.requireText("Too early: Notifio can probe fotocasa.es from 14:00 (in 0:41)")
	h.clock.Advance(41 * time.Second)
	h.u.tick()
	h.requireText("You can probe fotocasa.es now")

	h.b.probeAt, h.b.probeErr = h.clock.Now(), nil
	test.Tap(fc.probe)
	h.requireText("Probing fotocasa.es now")
	probing := s
	probing.At = t0.Add(52 * time.Second)
	probing.Sites[0].ProbeInFlight, probing.Sites[0].NextProbe = true, h.clock.Now()
	h.publish(probing)
	h.requireText("Probing fotocasa.es now") // no answer yet
	clear := s
	clear.At = t0.Add(55 * time.Second)
	clear.Sites = append([]model.SiteSnapshot(nil), s.Sites...)
	clear.Sites[0] = model.SiteSnapshot{Site: "fotocasa.es", LastStatus: 200, Searches: 2,
		LastRefusal: "/home/u/.local/share/notifio/refusals/fotocasa.es.html"}
	h.publish(clear)
	if h.hasText("Probing fotocasa.es now") {
		t.Error("\"Probing…\" stays after the site let us back in")
	}
	if fc.page.Visible() {
		t.Error("the saved page's button stays on a site that lets us in")
	}
}

func TestTroubledSitesComeFirst(t *testing.T) {
	h := newHarness(t, model.Snapshot{At: t0, Sites: []model.SiteSnapshot{
		{Site: "aaa.de", LastStatus: 200},
		{Site: "mmm.de", LastStatus: 200},
		{Site: "zzz.de", Waiting: true, Kind: model.RefusalDenied, Rung: 1, NextProbe: t0.Add(time.Minute), LastStatus: 403},
	}})
	h.u.selectView(viewSites)
	if first := h.u.sites.box.Objects[0]; first != h.u.sites.cards["zzz.de"].card {
		t.Errorf("the refused site is not first (order %v)", h.u.sites.order)
	}
	if h.u.sites.cards["aaa.de"].why.Visible() || h.u.sites.cards["aaa.de"].last.Visible() {
		t.Error("a clear site's card is not compact")
	}
}

// Issue 37, item 3: a site that answers fine again is not "session expired"
// on its card, even with searches still stopped at its login page; one press
// of "I logged in again — try now" checks all of them. While the site still
// sends Notifio to its login page, the card says that one cookie serves it.
func TestSiteCardLoginStateFollowsTheLastAnswer(t *testing.T) {
	snap := model.Snapshot{At: t0, Sites: []model.SiteSnapshot{{Site: "immobilienscout24.de", LastStatus: 200, LastOutcome: "ok", LastSignal: "20 listings", Searches: 3}}}
	for _, id := range []string{"p1", "p2", "p3"} {
		s := model.SearchSnapshot{ID: id, Name: "Pankow " + id, Site: "immobilienscout24.de", State: model.StateAttention,
			LastOutcome: "session_expired", Wait: model.WaitLogin, Reason: "session expired — log in again"}
		if id == "p3" {
			s.State, s.LastOutcome, s.Wait, s.Reason = model.StateScheduled, "ok", "", ""
		}
		snap.Searches = append(snap.Searches, s)
	}
	h := newHarness(t, snap)
	h.u.win.Resize(fyne.NewSize(900, 1000))
	h.u.selectView(viewSites)
	c := h.u.sites.cards["immobilienscout24.de"]
	if c.headline.Text == words.WordsLogin {
		t.Errorf("the card says %q although the site's last answer was fine", c.headline.Text)
	}
	if !c.loggedIn.Visible() {
		t.Fatal("no “I logged in again — try now” for the two stopped searches")
	}
	test.Tap(c.loggedIn)
	h.q.runNext(t) // the checks run off the UI goroutine
	if got := h.b.checkNow; !slices.Equal(got, []string{"p1", "p2"}) {
		t.Errorf("try now checked %v, want the two stopped searches", got)
	}

	// The redirect to the login page ended in a 200: still not "fine".
	snap.Sites[0].LastOutcome, snap.Sites[0].LastStatus, snap.Sites[0].LastSignal = "session_expired", 200, "redirected to login page /login"
	snap.At = t0.Add(time.Second)
	h.publish(snap)
	if c.headline.Text != words.WordsLogin || !strings.Contains(c.why.Text, "one cookie serves all the site's searches") {
		t.Errorf("at the login page the card says %q / %q", c.headline.Text, c.why.Text)
	}
	if strings.Contains(c.last.Text, "fine") {
		t.Errorf("under “session expired” the card says %q", c.last.Text)
	}
}

// Issue 33: a site redirected to /login, in the snapshot the watcher
// publishes, is said once: the card's headline is what `notifio sites` says
// of it (words.SiteWords, one wording), and its last answer is the login page
// without the evidence repeating it ("its login page — redirected to login
// page /login").
func TestLoginCardSaysTheLoginOnceAndAsTheCommandLine(t *testing.T) {
	site := model.SiteSnapshot{Site: "immobilienscout24.de", LastStatus: 200, LastOutcome: model.OutcomeSessionExpired,
		LastSignal: "redirected to login page /login", NeedsLogin: true, Searches: 1}
	snap := model.Snapshot{At: t0, Sites: []model.SiteSnapshot{site}, Searches: []model.SearchSnapshot{{
		ID: "p1", Name: "Pankow", Site: "immobilienscout24.de", State: model.StateAttention,
		LastOutcome: model.OutcomeSessionExpired, Wait: model.WaitLogin, Reason: words.WordsLogin}}}
	h := newHarness(t, snap)
	h.u.win.Resize(fyne.NewSize(900, 1000))
	h.u.selectView(viewSites)
	c := h.u.sites.cards["immobilienscout24.de"]
	if line := words.SiteLine(site, t0); !strings.HasPrefix(line, "immobilienscout24.de: "+c.headline.Text+".") {
		t.Errorf("the card says %q, notifio sites says %q", c.headline.Text, line)
	}
	if c.last.Text != "Last answer: its login page" {
		t.Errorf("the card's last answer is %q", c.last.Text)
	}
	if all := strings.Join(h.texts(), "\n"); strings.Contains(all, "redirected to login page") {
		t.Errorf("the card repeats the login page as evidence:\n%s", all)
	}
}
