package extract

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// answerKey is one file of ../shared/sites/answers/.
type answerKey struct {
	Site     string      `json:"site"`
	Kind     string      `json:"kind"` // "results" or "challenge"
	BaseURL  string      `json:"base_url"`
	Count    int         `json:"count"`
	Listings []keyedItem `json:"listings"`
	Excluded []keyedItem `json:"excluded"`
}

type keyedItem struct {
	ID         string   `json:"id"`
	URL        string   `json:"url"`
	Title      string   `json:"title"`
	Price      string   `json:"price"`
	PriceValue *float64 `json:"price_value"`
	Currency   string   `json:"currency"`
	Location   *string  `json:"location"`
	Size       *string  `json:"size"`
	Rooms      *string  `json:"rooms"`
	Promoted   *bool    `json:"promoted"`
}

// sitesDir is the shared folder of real captured pages: $NOTIFIO_SITES, else
// shared/sites beside the repository.
func sitesDir() string {
	if d := os.Getenv("NOTIFIO_SITES"); d != "" {
		return d
	}
	return filepath.Join("..", "..", "..", "shared", "sites")
}

type realPage struct {
	name string // file name without .html
	body []byte
	url  *url.URL
	key  answerKey
}

// realPages loads every page with an answer key; skips the test when the folder is absent.
func realPages(tb testing.TB) []realPage {
	tb.Helper()
	dir := sitesDir()
	keys, _ := filepath.Glob(filepath.Join(dir, "answers", "*.json"))
	if len(keys) == 0 {
		tb.Skipf("no real pages in %s (set NOTIFIO_SITES to the shared/sites folder)", dir)
	}
	sort.Strings(keys)
	var out []realPage
	for _, k := range keys {
		name := strings.TrimSuffix(filepath.Base(k), ".json")
		raw, err := os.ReadFile(k)
		if err != nil {
			tb.Fatal(err)
		}
		var key answerKey
		if err := json.Unmarshal(raw, &key); err != nil {
			tb.Fatalf("%s: %v", k, err)
		}
		body, err := os.ReadFile(filepath.Join(dir, name+".html"))
		if err != nil {
			tb.Fatalf("%s: %v", name, err)
		}
		u, err := url.Parse(key.BaseURL)
		if err != nil {
			tb.Fatalf("%s: base_url: %v", name, err)
		}
		out = append(out, realPage{name: name, body: body, url: u, key: key})
	}
	return out
}

// prf returns precision and recall (1 when both sets are empty).
func prf(got, want []string) (precision, recall float64) {
	w := map[string]bool{}
	for _, s := range want {
		w[s] = true
	}
	g := map[string]bool{}
	hit := 0
	for _, s := range got {
		if g[s] {
			continue
		}
		g[s] = true
		if w[s] {
			hit++
		}
	}
	precision, recall = 1, 1
	if len(g) > 0 {
		precision = float64(hit) / float64(len(g))
	}
	if len(w) > 0 {
		recall = float64(hit) / float64(len(w))
	}
	return
}

type pageScore struct {
	idP, idR, urlP, urlR float64
	got, want            int
	mismatches           []string
}

// score compares a result with an answer key: ids and urls by precision and
// recall, and the other fields of matched listings where the key gives them.
func score(r Result, key answerKey) pageScore {
	var gotIDs, gotURLs, wantIDs, wantURLs []string
	for _, l := range r.Listings {
		gotIDs, gotURLs = append(gotIDs, l.ID), append(gotURLs, l.URL)
	}
	for _, l := range key.Listings {
		wantIDs, wantURLs = append(wantIDs, l.ID), append(wantURLs, l.URL)
	}
	s := pageScore{got: len(r.Listings), want: len(key.Listings)}
	s.idP, s.idR = prf(gotIDs, wantIDs)
	s.urlP, s.urlR = prf(gotURLs, wantURLs)
	byURL := map[string]Listing{}
	for _, l := range r.Listings {
		byURL[l.URL] = l
	}
	for _, k := range key.Listings {
		g, ok := byURL[k.URL]
		if !ok {
			continue
		}
		diff := func(field, got, want string) {
			if got != want {
				s.mismatches = append(s.mismatches, fmt.Sprintf("%s %s: got %q, want %q", k.ID, field, got, want))
			}
		}
		diff("id", g.ID, k.ID)
		diff("title", g.Title, k.Title)
		diff("price", g.Price, k.Price)
		if k.PriceValue != nil && g.PriceValue != *k.PriceValue {
			diff("price_value", fmt.Sprint(g.PriceValue), fmt.Sprint(*k.PriceValue))
		}
		cur := k.Currency
		if cur == "" && strings.Contains(k.Price, "€") {
			cur = "EUR"
		}
		diff("currency", g.Currency, cur)
		if k.Location != nil {
			diff("location", g.Location, *k.Location)
		}
		if k.Size != nil {
			diff("size", g.Size, *k.Size)
		}
		if k.Rooms != nil {
			diff("rooms", g.Rooms, *k.Rooms)
		}
		want := k.Promoted != nil && *k.Promoted
		if g.Promoted != want {
			diff("promoted", fmt.Sprint(g.Promoted), fmt.Sprint(want))
		}
	}
	return s
}

func pct(f float64) string { return fmt.Sprintf("%.0f%%", 100*f) }

// TestRealPages: every real page must give exactly its answer key through its
// profile (ids and urls at 100% precision and recall; other fields compared).
func TestRealPages(t *testing.T) {
	pages := realPages(t)
	var table strings.Builder
	fmt.Fprintf(&table, "\n%-28s %-34s %5s %5s %7s %7s %7s %7s %s\n", "page", "method", "got", "want", "id P", "id R", "url P", "url R", "field mismatches")
	for _, pg := range pages {
		r, err := Extract(pg.body, pg.url, Selectors{})
		if err != nil {
			t.Fatalf("%s: %v", pg.name, err)
		}
		s := score(r, pg.key)
		fmt.Fprintf(&table, "%-28s %-34s %5d %5d %7s %7s %7s %7s %d\n", pg.name, r.Method, s.got, s.want, pct(s.idP), pct(s.idR), pct(s.urlP), pct(s.urlR), len(s.mismatches))
		if s.idP != 1 || s.idR != 1 || s.urlP != 1 || s.urlR != 1 {
			t.Errorf("%s: ids P=%s R=%s, urls P=%s R=%s; want 100%%", pg.name, pct(s.idP), pct(s.idR), pct(s.urlP), pct(s.urlR))
		}
		for _, m := range s.mismatches {
			t.Errorf("%s: %s", pg.name, m)
		}
		switch pg.key.Kind {
		case "challenge":
			if r.Blocked == "" || r.NoResults || len(r.Listings) != 0 {
				t.Errorf("%s: a bot-check page: want Blocked and not NoResults, got Blocked=%q NoResults=%v listings=%d", pg.name, r.Blocked, r.NoResults, len(r.Listings))
			}
		default:
			if !r.Container || r.NoResults || r.Blocked != "" {
				t.Errorf("%s: Container=%v NoResults=%v Blocked=%q", pg.name, r.Container, r.NoResults, r.Blocked)
			}
			if !strings.HasPrefix(r.Method, "profile:") {
				t.Errorf("%s: method %q, want a profile", pg.name, r.Method)
			}
			if r.Site != pg.key.Site {
				t.Errorf("%s: site %q, want %q", pg.name, r.Site, pg.key.Site)
			}
		}
	}
	t.Log(table.String())
}

// TestRealPagesGeneric measures the generic strategies on the real pages with
// the profiles switched off: how extraction does on a site nobody wrote a profile
// for. It reports; the floors only catch regressions.
func TestRealPagesGeneric(t *testing.T) {
	pages := realPages(t)
	var table strings.Builder
	fmt.Fprintf(&table, "\n%-28s %-10s %5s %5s %7s %7s %7s %7s %s\n", "page (no profile)", "method", "got", "want", "id P", "id R", "url P", "url R", "field mismatches")
	for _, pg := range pages {
		r, err := ExtractWith(pg.body, pg.url, Selectors{}, Options{NoProfiles: true})
		if err != nil {
			t.Fatalf("%s: %v", pg.name, err)
		}
		s := score(r, pg.key)
		fmt.Fprintf(&table, "%-28s %-10s %5d %5d %7s %7s %7s %7s %d\n", pg.name, r.Method, s.got, s.want, pct(s.idP), pct(s.idR), pct(s.urlP), pct(s.urlR), len(s.mismatches))
		if testing.Verbose() {
			for _, m := range s.mismatches {
				t.Logf("  %s: %s", pg.name, m)
			}
		}
		if floor, ok := genericFloors[pg.name]; ok && (s.urlP < floor || s.urlR < floor || s.idP < floor || s.idR < floor) {
			t.Errorf("%s: generic ids P=%s R=%s, urls P=%s R=%s fell below %s", pg.name, pct(s.idP), pct(s.idR), pct(s.urlP), pct(s.urlR), pct(floor))
		}
		if pg.key.Kind == "challenge" && r.Blocked == "" {
			t.Errorf("%s: bot-check page not reported as blocked by the generic path", pg.name)
		}
	}
	t.Log(table.String())
}

// genericFloors are the url precision/recall the generic path reached on each
// real page when last measured (a regression guard, not a target).
var genericFloors = map[string]float64{
	"immobiliende-results": 1, "immoswp-results": 1, "kleinanzeigen-results": 1,
	"schwarzesbrett-results": 1, "wggesucht-results": 1,
}
