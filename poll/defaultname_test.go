package poll

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"notifio/internal/model"

	"notifio/poll/words"
)

// TestDefaultNameIsShortAndTellsSearchesApart (issue 35 item 8): a
// 10,000-character URL gave a 10,000-character name, and three searches that
// differ only in their query got the same name (alerts read "“X”, “X” and “X”
// stopped").
func TestDefaultNameIsShortAndTellsSearchesApart(t *testing.T) {
	h := newHarness(t, "")
	long := "https://www.example-immo.de/" + strings.Repeat("wohnung-", 1250)
	s, err := h.svc.AddSearch(context.Background(), model.SearchInput{URL: long, Interval: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if n := utf8.RuneCountInString(s.Name); n > 60 {
		t.Errorf("a %d-character URL gave a %d-character name", len(long), n)
	}
	names := map[string]bool{}
	for _, q := range []string{"q=balkon", "q=garten", "q=altbau"} {
		s, err := h.svc.AddSearch(context.Background(), model.SearchInput{URL: "https://www.example-immo.de/suche?" + q, Interval: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		names[s.Name] = true
	}
	if len(names) != 3 {
		t.Errorf("three searches differing in their query got the names %v", names)
	}
	// Even when the query says nothing a name can show, no two are the same.
	names = map[string]bool{}
	for _, q := range []string{"id=1", "id=2", "id=3"} {
		s, err := h.svc.AddSearch(context.Background(), model.SearchInput{URL: "https://www.other-immo.de/suche?" + q, Interval: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		names[s.Name] = true
	}
	if len(names) != 3 {
		t.Errorf("three searches differing in an id got the names %v", names)
	}
}

func TestDefaultName(t *testing.T) {
	for raw, want := range map[string]string{
		"https://www.kleinanzeigen.de/s-wohnung-mieten/berlin/preis::1200/c203l3331?maxPrice=1200": "kleinanzeigen.de: wohnung mieten, berlin, up to 1200",
		"https://www.kleinanzeigen.de/s-wohnung-mieten/duesseldorf/c203l2068":                      "kleinanzeigen.de: wohnung mieten, duesseldorf",
		"http://127.0.0.7:18400/kleinanzeigen-results.html":                                        "127.0.0.7: kleinanzeigen results",
		"https://www.example-immo.de/suche?q=balkon":                                               "example-immo.de: suche, balkon",
		"https://www.example-immo.de/%0Abad%E2%80%AEname":                                          "example-immo.de: bad name",
		"https://www.example-immo.de/":                                                             "example-immo.de",
	} {
		u, _ := url.Parse(raw)
		site := strings.TrimPrefix(u.Hostname(), "www.")
		if got := words.DefaultName(u, site); got != want {
			t.Errorf("DefaultName(%s) = %q, want %q", raw, got, want)
		}
	}
}

// TestRecoveryWordsAgreeInNumber (issue 35 item 8): "“A”, “B” and “C” works
// again".
func TestRecoveryWordsAgreeInNumber(t *testing.T) {
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	_, lines := words.RecoveryLines("example-immo.de", []string{"A", "B", "C"}, now.Add(-2*time.Hour), 0, now)
	if !strings.Contains(lines[0], "“A”, “B” and “C” work again. They had stopped") {
		t.Errorf("three searches: %q", lines[0])
	}
	_, lines = words.RecoveryLines("example-immo.de", []string{"A"}, now.Add(-2*time.Hour), 0, now)
	if !strings.Contains(lines[0], "“A” works again. It had stopped") {
		t.Errorf("one search: %q", lines[0])
	}
}
