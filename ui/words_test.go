package ui

import (
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/widget"

	"notifio/internal/model"

	"notifio/poll/words"
)

func TestParseInterval(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"2 minutes", 2 * time.Minute, true},
		{"1 minute", time.Minute, true},
		{"30 seconds", 30 * time.Second, true},
		{"1 hour 30 minutes", 90 * time.Minute, true},
		{"5 min", 5 * time.Minute, true},
		{"90s", 90 * time.Second, true},
		{"1m30s", 90 * time.Second, true},
		{"3", 3 * time.Minute, true},
		{"1,5 minutes", 90 * time.Second, true},
		{"10 seconds", 0, false},
		{"29s", 0, false},
		{"", 0, false},
		{"often", 0, false},
		{"2 fortnights", 0, false},
		{"-5", 0, false},
		{"168h", 7 * 24 * time.Hour, true},
		{"169h", 0, false}, // more than 7 days (issue 18)
		{"876000h", 0, false},
	} {
		got, err := parseInterval(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("parseInterval(%q) = %v, %v; want %v, ok=%v", tc.in, got, err, tc.want, tc.ok)
		}
	}
	for _, d := range intervalChoices {
		if got, err := parseInterval(words.DurationWords(d)); err != nil || got != d {
			t.Errorf("the offered interval %q reads back as %v, %v", words.DurationWords(d), got, err)
		}
	}
}

func TestCheckSearchURL(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{" https://www.wg-gesucht.de/wg-zimmer-in-Berlin.8.0.1.0.html\n", "https://www.wg-gesucht.de/wg-zimmer-in-Berlin.8.0.1.0.html", true},
		{"http://localhost:8080/results", "http://localhost:8080/results", true},
		{"HTTPS://EXAMPLE.COM/x", "HTTPS://EXAMPLE.COM/x", true},
		{"www.wg-gesucht.de/wg-zimmer", "", false},
		{"javascript:alert(1)", "", false},
		{"file:///etc/passwd", "", false},
		{"https://", "", false},
		{"https://exa mple.com/", "", false},
		{"", "", false},
	} {
		got, err := checkSearchURL(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("checkSearchURL(%q) = %q, %v", tc.in, got, err)
		}
	}
}

func TestSuggestName(t *testing.T) {
	for _, tc := range []struct{ title, url, site, want string }{
		{"Wohnung mieten in Berlin - Kreuzberg | kleinanzeigen.de", "https://www.kleinanzeigen.de/s-wohnung-mieten/berlin/c203l3331", "kleinanzeigen.de", "Wohnung mieten in Berlin"},
		{"  WG-Zimmer in Berlin  ", "https://www.wg-gesucht.de/wg-zimmer-in-Berlin.8.0.1.0.html", "wg-gesucht.de", "WG-Zimmer in Berlin"},
		{"Pisos en alquiler en Centro, Madrid — idealista", "https://www.idealista.com/alquiler-viviendas/madrid/centro/", "idealista.com", "Pisos en alquiler en Centro, Madrid"},
		{"Wohnung Mieten in Leipzig bei immobilien.de", "https://www.immobilien.de/wohnung-mieten/leipzig", "immobilien.de", "Wohnung Mieten in Leipzig"},
		// No title, or only the portal's name: the site and what the URL says.
		{"", "https://www.kleinanzeigen.de/s-wohnung-mieten/berlin/preis::1200/c203l3331?maxPrice=1200", "kleinanzeigen.de", "kleinanzeigen.de: wohnung mieten, berlin, up to 1200"},
		{"Kleinanzeigen", "https://www.kleinanzeigen.de/s-wohnung-mieten/duesseldorf/c203l2068", "kleinanzeigen.de", "kleinanzeigen.de: wohnung mieten, duesseldorf"},
		{"", "http://127.0.0.7:18400/kleinanzeigen-results.html", "127.0.0.7", "127.0.0.7: kleinanzeigen results"},
	} {
		if got := words.SuggestName(tc.title, tc.url, tc.site, func(string) bool { return false }); got != tc.want {
			t.Errorf("suggestName(%q, %q) = %q, want %q", tc.title, tc.url, got, tc.want)
		}
	}
}

// TestSuggestNameTellsSearchesApart: every search of a portal often has the
// same page title; the second gets what its URL asks for, and a name taken
// even so gets a number (before, all of them were "Wohnungen mieten").
func TestSuggestNameTellsSearchesApart(t *testing.T) {
	taken := map[string]bool{}
	title := "Wohnungen mieten | kleinanzeigen.de"
	var got []string
	for _, u := range []string{
		"https://www.kleinanzeigen.de/s-wohnung-mieten/berlin/c203l3331?maxPrice=1200",
		"https://www.kleinanzeigen.de/s-wohnung-mieten/berlin/c203l3331?maxPrice=900",
		"https://www.kleinanzeigen.de/s-wohnung-mieten/berlin/c203l3331?maxPrice=900&sort=new",
	} {
		name := words.SuggestName(title, u, "kleinanzeigen.de", func(n string) bool { return taken[n] })
		if taken[name] {
			t.Fatalf("suggested %q twice: %q", name, got)
		}
		taken[name] = true
		got = append(got, name)
	}
	want := []string{"Wohnungen mieten", "kleinanzeigen.de: wohnung mieten, berlin, up to 900", "kleinanzeigen.de: wohnung mieten, berlin, up to 900, new"}
	if !slices.Equal(got, want) {
		t.Errorf("suggested %q, want %q", got, want)
	}
}

func TestSiteStatsResponseTime(t *testing.T) {
	for _, tc := range []struct {
		avg  time.Duration
		want string
	}{
		{0, "2 searches"},
		{400 * time.Microsecond, "2 searches · answers quickly"},
		{423 * time.Millisecond, "2 searches · answers quickly"},
		{1460 * time.Millisecond, "2 searches · answers in about 1 second"},
		{8 * time.Second, "2 searches · answers slowly (about 8 seconds)"},
	} {
		if got := siteStats(model.SiteSnapshot{Searches: 2, AvgResponse: tc.avg}, nil); got != tc.want {
			t.Errorf("siteStats(avg %s) = %q, want %q", tc.avg, got, tc.want)
		}
	}
	if got := siteStats(model.SiteSnapshot{Searches: 2}, []string{"Kreuzberg", "Neukölln WG"}); got != "Searches: Kreuzberg, Neukölln WG" {
		t.Errorf("siteStats with names = %q", got)
	}
}

// The Sites view speaks without jargon: no backoff steps, no classifier
// evidence, no milliseconds.
func TestSiteWordsHaveNoJargon(t *testing.T) {
	snaps := []model.SiteSnapshot{
		{Site: "a.de", Waiting: true, Kind: "rate_limited", Rung: 2, NextProbe: t0.Add(time.Minute), LastStatus: 429, LastOutcome: "rate_limited", LastSignal: "status 429", RetryAfter: time.Minute},
		{Site: "a.de", Kind: "", LastStatus: 200, LastOutcome: "ok", LastSignal: "page unchanged", AvgResponse: 3 * time.Millisecond},
		{Site: "a.de", Waiting: true, Kind: "challenge", Rung: 1, NextProbe: t0.Add(time.Minute), LastStatus: 403, LastOutcome: "challenge", LastSignal: "challenge marker: cf-chl"},
	}
	for _, st := range snaps {
		text := strings.Join([]string{words.SiteWords(st, t0), words.NextProbeWords(st, t0), siteLastResponse(st), words.RetryAfterWords(st), siteStats(st, nil), siteWhy(st)}, "\n")
		for _, jargon := range []string{"backoff", "step ", "decided by", "ms", "marker", "Retry-After", "HTTP", "probe in"} {
			if strings.Contains(text, jargon) {
				t.Errorf("%q in:\n%s", jargon, text)
			}
		}
	}
	if got := siteLastResponse(snaps[1]); got != "Last answer: fine — the page had not changed" {
		t.Errorf("last answer %q", got)
	}
	if got := words.SiteWords(snaps[0], t0); got != "is rate-limiting us — 2nd time in a row" {
		t.Errorf("headline %q", got)
	}
}

func TestSiteWhyExplainsTheKindAndItsLadder(t *testing.T) {
	for _, c := range []struct {
		snap model.SiteSnapshot
		want []string
	}{
		{model.SiteSnapshot{Site: "a.de", Kind: "challenge", Rung: 2},
			[]string{"captcha", "1, 3, 8, 15, then 30 minutes)", "I solved it — probe now"}},
		{model.SiteSnapshot{Site: "a.de", Kind: "rate_limited", Rung: 1},
			[]string{"asks too often", "names a wait", "2, 5, 15, then 30 minutes)", "longer interval"}},
		{model.SiteSnapshot{Site: "a.de", Kind: "denied", Rung: 4},
			[]string{"refused access", "5, 15, 30, then 60 minutes)"}},
		{model.SiteSnapshot{Site: "a.de", Kind: "error"},
			[]string{"did not answer properly", "30 seconds, 2, then 5 minutes)", "Being offline does not count"}},
	} {
		got := siteWhy(c.snap)
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q lacks %q", c.snap.Kind, got, w)
			}
		}
		if strings.Contains(got, c.snap.Site) {
			t.Errorf("%s: %q repeats the site's name, which the card's title and headline show", c.snap.Kind, got)
		}
	}
}

// TestAWaitThatRanOutIsNotShownAsHealthy is issue 19, rough edge 1: when a
// challenge wait ran out the row showed a green tick and "next check in 0:23"
// while the site still showed its captcha.
func TestAWaitThatRanOutIsNotShownAsHealthy(t *testing.T) {
	s := manySearches(2)
	s.Searches[0].Site, s.Searches[1].Site = "site0.example", "site0.example"
	for i := range s.Searches {
		s.Searches[i].LastOutcome = "challenge"
		s.Searches[i].NextCheck = t0.Add(23 * time.Second)
	}
	s.Sites = []model.SiteSnapshot{{Site: "site0.example", Kind: "challenge", Rung: 2,
		NextProbe: t0.Add(-time.Second), Searches: 2}}
	h := newHarness(t, s)
	w := boundRow(t, h, 0)
	if want := "site0.example asked for a captcha (challenge page) — trying again now"; w.status.Text != want {
		t.Errorf("the row says %q, want %q", w.status.Text, want)
	}
	if w.status.Importance != widget.WarningImportance || w.icon.Resource.Name() == stateIconOK().Name() {
		t.Errorf("the row looks healthy: importance %v, icon %s", w.status.Importance, w.icon.Resource.Name())
	}
	h.clock.Advance(5 * time.Second)
	h.u.tick()
	if !strings.HasSuffix(w.status.Text, "trying again now") {
		t.Errorf("a tick later the row says %q", w.status.Text)
	}

	// A sibling went out as the probe: this one waits for it.
	s.At = h.clock.Now()
	s.Sites[0].ProbeInFlight = true
	s.Searches[1].State = model.StateProbing
	h.publish(s)
	if want := "waiting for the probe on site0.example"; boundRow(t, h, 0).status.Text != want {
		t.Errorf("with the probe out the row says %q, want %q", boundRow(t, h, 0).status.Text, want)
	}

	// A good answer clears the site: the countdown and the tick come back.
	s.At = h.clock.Now()
	s.Sites[0] = model.SiteSnapshot{Site: "site0.example", Searches: 2}
	s.Searches[1].State, s.Searches[1].LastOutcome = model.StateScheduled, "ok"
	h.publish(s)
	w = boundRow(t, h, 0)
	if want := "next check in 0:18"; w.status.Text != want {
		t.Errorf("after the site answered the row says %q, want %q", w.status.Text, want)
	}
	if w.icon.Resource.Name() != stateIconOK().Name() {
		t.Errorf("after the site answered the icon is %s", w.icon.Resource.Name())
	}
}

// TestRowsSayWhenTheyWereCheckedAndAgreeWithTheirBadge is issue 19, rough edge
// 7: a "1 new" badge stood beside "no new listings at the last check", and no
// row said when it was last checked.
func TestRowsSayWhenTheyWereCheckedAndAgreeWithTheirBadge(t *testing.T) {
	base := model.SearchSnapshot{Baselined: true, BaselineCount: 25, LastCount: 26, LastOutcome: "ok",
		LastChecked: t0.Add(-2 * time.Minute)}
	for _, tc := range []struct {
		name string
		edit func(*model.SearchSnapshot)
		now  time.Time
		want string
	}{
		{"nothing new, nothing unseen", func(*model.SearchSnapshot) {}, t0, "checked 13:58 · no new listings"},
		{"nothing new, one unseen from before", func(s *model.SearchSnapshot) { s.Unseen = 1 }, t0,
			"checked 13:58 · nothing newer"},
		{"unseen from before, page back at the baseline's count", func(s *model.SearchSnapshot) {
			s.Unseen, s.LastCount = 2, 25
		}, t0, "checked 13:58 · nothing newer"},
		{"two new", func(s *model.SearchSnapshot) { s.LastNew, s.Unseen = 2, 3 }, t0, "checked 13:58 · 2 new listings"},
		{"baseline", func(s *model.SearchSnapshot) { s.LastCount = 25 }, t0,
			"checked 13:58 · recorded 25 listings as a baseline"},
		{"yesterday", func(*model.SearchSnapshot) {}, t0.Add(24 * time.Hour), "checked Tue 14 Jul 13:58 · no new listings"},
		{"never checked", func(s *model.SearchSnapshot) { s.LastChecked, s.Baselined = time.Time{}, false }, t0,
			"the first check records what is already there as a baseline"},
	} {
		s := base
		tc.edit(&s)
		if got := searchDetail(s, tc.now); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestSignalWordsGoByTheAnswersKind: what a site's last answer was comes from
// its kind, not from words in the classifier's evidence. Before, a challenge
// whose evidence named no "captcha" was shown raw, and an error page whose
// evidence said "blocked" read as "access is blocked".
func TestSignalWordsGoByTheAnswersKind(t *testing.T) {
	for _, tc := range []struct {
		s    model.SiteSnapshot
		want string
	}{
		{model.SiteSnapshot{LastStatus: 403, LastOutcome: "challenge", LastSignal: "title: Just a moment..."},
			"the page was a captcha or browser check"},
		{model.SiteSnapshot{LastStatus: 200, LastOutcome: "denied", LastSignal: "text: Zugriff verweigert"},
			"the page said access is blocked"},
		{model.SiteSnapshot{LastStatus: 0, LastOutcome: "error", LastSignal: "connection blocked by proxy"},
			"connection blocked by proxy"},
		{model.SiteSnapshot{LastStatus: 200, LastOutcome: "ok", LastSignal: "12 listings"}, "12 listings on the page"},
		{model.SiteSnapshot{LastStatus: 200, LastOutcome: "ok", LastSignal: "no-results marker"}, "the page said there are no results"},
		{model.SiteSnapshot{LastStatus: 429, LastOutcome: "rate_limited", LastSignal: "status 429"}, ""},
	} {
		if got := signalWords(tc.s); got != tc.want {
			t.Errorf("%s %q: %q, want %q", tc.s.LastOutcome, tc.s.LastSignal, got, tc.want)
		}
	}
}

// Issue 37 (seen in the real window with 26 searches): a rate-limited row
// said "immowelt.test is rate-limiting us — next try in 0:16 · blocked since
// 19:11": two states for one. The detail names the refusal the status names.
func TestRateLimitedRowSaysRateLimitedTwice(t *testing.T) {
	s := model.SearchSnapshot{Site: "immowelt.test", State: model.StateWaiting, LastOutcome: "rate_limited",
		Health: model.Health{Kind: model.HealthBlocked, Refusal: "rate_limited", Since: t0.Add(-2 * time.Minute)}}
	if got := searchDetail(s, t0); !strings.Contains(got, "rate-limited since") || strings.Contains(got, "blocked") {
		t.Errorf("detail %q, want rate-limited since …", got)
	}
}
