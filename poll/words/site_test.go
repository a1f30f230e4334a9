package words

import (
	"strings"
	"testing"
	"time"

	"notifio/internal/model"
)

// t0 is the instant the tests of the rows and cards read their clocks at
// (the window's tests use the same).
var t0 = time.Date(2026, 7, 14, 14, 0, 0, 0, time.UTC)

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
		if got := SiteStats(model.SiteSnapshot{Searches: 2, AvgResponse: tc.avg}, nil); got != tc.want {
			t.Errorf("SiteStats(avg %s) = %q, want %q", tc.avg, got, tc.want)
		}
	}
	if got := SiteStats(model.SiteSnapshot{Searches: 2}, []string{"Kreuzberg", "Neukölln WG"}); got != "Searches: Kreuzberg, Neukölln WG" {
		t.Errorf("siteStats with names = %q", got)
	}
}

// The Sites view speaks without jargon: no backoff steps, no classifier
// evidence, no milliseconds.
func TestSiteWordsHaveNoJargon(t *testing.T) {
	snaps := []model.SiteSnapshot{
		{Site: "a.de", Waiting: true, Kind: model.RefusalRateLimited, Rung: 2, NextProbe: t0.Add(time.Minute), LastStatus: 429, LastOutcome: "rate_limited", LastSignal: "status 429", RetryAfter: time.Minute},
		{Site: "a.de", LastStatus: 200, LastOutcome: "ok", LastSignal: "page unchanged", AvgResponse: 3 * time.Millisecond},
		{Site: "a.de", Waiting: true, Kind: model.RefusalChallenge, Rung: 1, NextProbe: t0.Add(time.Minute), LastStatus: 403, LastOutcome: "challenge", LastSignal: "challenge marker: cf-chl"},
	}
	for _, st := range snaps {
		text := strings.Join([]string{SiteWords(st, t0), NextProbeWords(st, t0), SiteLastAnswer(st), RetryAfterWords(st), SiteStats(st, nil), SiteWhy(st)}, "\n")
		for _, jargon := range []string{"backoff", "step ", "decided by", "ms", "marker", "Retry-After", "HTTP", "probe in"} {
			if strings.Contains(text, jargon) {
				t.Errorf("%q in:\n%s", jargon, text)
			}
		}
	}
	if got := SiteLastAnswer(snaps[1]); got != "Last answer: fine — the page had not changed" {
		t.Errorf("last answer %q", got)
	}
	if got := SiteWords(snaps[0], t0); got != "is rate-limiting us — 2nd time in a row" {
		t.Errorf("headline %q", got)
	}
}

func TestSiteWhyExplainsTheKindAndItsLadder(t *testing.T) {
	for _, c := range []struct {
		snap model.SiteSnapshot
		want []string
	}{
		{model.SiteSnapshot{Site: "a.de", Kind: model.RefusalChallenge, Rung: 2},
			[]string{"captcha", "1, 3, 8, 15, then 30 minutes)", "I solved it — probe now"}},
		{model.SiteSnapshot{Site: "a.de", Kind: model.RefusalRateLimited, Rung: 1},
			[]string{"asks too often", "names a wait", "2, 5, 15, then 30 minutes)", "longer interval"}},
		{model.SiteSnapshot{Site: "a.de", Kind: model.RefusalDenied, Rung: 4},
			[]string{"refused access", "5, 15, 30, then 60 minutes)"}},
		{model.SiteSnapshot{Site: "a.de", Kind: model.RefusalError},
			[]string{"did not answer properly", "30 seconds, 2, then 5 minutes)", "Being offline does not count"}},
	} {
		got := SiteWhy(c.snap)
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

// TestSiteLineHasNoJargon: `notifio sites` says what a site did in the
// window's words, not the ladder's names and steps ("rate_limited, step 2").
func TestSiteLineHasNoJargon(t *testing.T) {
	now := time.Date(2026, 7, 14, 14, 0, 0, 0, time.UTC)
	s := model.SiteSnapshot{Site: "idealista.com", Waiting: true, Kind: model.RefusalRateLimited, Rung: 2,
		NextProbe: now.Add(4 * time.Minute), LastStatus: 429, LastSignal: "status 429",
		RetryAfter: 90 * time.Second, Searches: 3}
	got := SiteLine(s, now)
	for _, want := range []string{"idealista.com: is rate-limiting us — 2nd time in a row.", "Notifio asks again in 4 min",
		"Last answer: status 429", "The site asked Notifio to wait 90 seconds; after 2 refusals in a row Notifio waits longer.", "3 searches."} {
		if !strings.Contains(got, want) {
			t.Errorf("the line lacks %q: %s", want, got)
		}
	}
	for _, jargon := range []string{"rate_limited", "step", "Retry-After", "search(es)"} {
		if strings.Contains(got, jargon) {
			t.Errorf("the line says %q: %s", jargon, got)
		}
	}
}

// The snapshot of a site whose search was redirected to /login, as the
// watcher publishes it.
func loginSite() model.SiteSnapshot {
	return model.SiteSnapshot{Site: "immobilienscout24.de", LastStatus: 200, LastOutcome: model.OutcomeSessionExpired,
		LastSignal: "redirected to login page /login", NeedsLogin: true, Searches: 2}
}

// Issue 33: `notifio sites` says a site that needs a login as the window's
// card does (WordsLogin), not "needs you: …" beside it.
func TestSiteLineSaysALoginAsTheCardDoes(t *testing.T) {
	s := loginSite()
	if got := SiteWords(s, t0); got != WordsLogin {
		t.Errorf("SiteWords = %q, want %q", got, WordsLogin)
	}
	got := SiteLine(s, t0)
	if want := "immobilienscout24.de: " + WordsLogin + "."; !strings.HasPrefix(got, want) {
		t.Errorf("SiteLine = %q, want it to start %q", got, want)
	}
	if strings.Contains(got, "needs you") {
		t.Errorf("SiteLine words the login its own way: %q", got)
	}
}

// Issue 33: a site redirected to /login says so once on its card: the last
// answer is its login page, without the evidence saying it again
// ("its login page — redirected to login page /login").
func TestLoginCardSaysTheLoginPageOnce(t *testing.T) {
	if got := SiteLastAnswer(loginSite()); got != "Last answer: its login page" {
		t.Errorf("SiteLastAnswer = %q", got)
	}
	// `notifio sites` keeps the evidence as it was, for a headless reader.
	if got := SiteLine(loginSite(), t0); !strings.Contains(got, "signal: redirected to login page /login") {
		t.Errorf("SiteLine lost the evidence: %q", got)
	}
}
