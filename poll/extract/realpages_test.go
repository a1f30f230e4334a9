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

	"notifio/hostbackoff"
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
	titles, prices       int // listings whose title / price value is right
	promoted             int // listings whose promoted flag is right
	excluded             []string
	mismatches           []string // every field that differs, for reading
}

// score compares a result with an answer key: ids and urls by precision and
// recall, and the fields of matched listings where the key gives them.
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
	byID := map[string]Listing{}
	for _, l := range r.Listings {
		byID[l.ID] = l
	}
	for _, x := range key.Excluded {
		if _, ok := byID[x.ID]; ok {
			s.excluded = append(s.excluded, x.ID)
		}
	}
	for _, k := range key.Listings {
		g, ok := byID[k.ID]
		if !ok {
			continue
		}
		diff := func(field, got, want string) bool {
			if got != want {
				s.mismatches = append(s.mismatches, fmt.Sprintf("%s %s: got %q, want %q", k.ID, field, got, want))
				return false
			}
			return true
		}
		diff("url", g.URL, k.URL)
		if diff("title", g.Title, k.Title) {
			s.titles++
		}
		diff("price", g.Price, k.Price)
		want := 0.0
		if k.PriceValue != nil {
			want = *k.PriceValue
		}
		if diff("price_value", fmt.Sprint(g.PriceValue), fmt.Sprint(want)) {
			s.prices++
		}
		if k.Location != nil {
			diff("location", g.Location, *k.Location)
		}
		if k.Size != nil {
			diff("size", g.Size, *k.Size)
		}
		if k.Rooms != nil {
			diff("rooms", g.Rooms, *k.Rooms)
		}
		wantP := k.Promoted != nil && *k.Promoted
		if diff("promoted", fmt.Sprint(g.Promoted), fmt.Sprint(wantP)) {
			s.promoted++
		}
	}
	return s
}

func pct(f float64) string { return fmt.Sprintf("%.0f%%", 100*f) }

// checkRealPages extracts every real page and holds it to the bar:
// every listing by id and exact URL (100% precision and recall), nothing the
// key excludes, titles and price values right for at least 95% of the
// listings, promoted right; a bot-check page reported as blocked.
func checkRealPages(t *testing.T, opt Options) {
	pages := realPages(t)
	var titles, prices, listings int
	var table strings.Builder
	fmt.Fprintf(&table, "\n%-28s %-30s %4s %4s %5s %5s %5s %5s %6s %6s %s\n", "page", "method", "got", "want", "id P", "id R", "url P", "url R", "titles", "prices", "other fields")
	for _, pg := range pages {
		r, err := ExtractWith(pg.body, pg.url, Selectors{}, opt)
		if err != nil {
			t.Fatalf("%s: %v", pg.name, err)
		}
		s := score(r, pg.key)
		n := max(s.want, 1)
		fmt.Fprintf(&table, "%-28s %-30s %4d %4d %5s %5s %5s %5s %6s %6s %d\n", pg.name, r.Method, s.got, s.want, pct(s.idP), pct(s.idR), pct(s.urlP), pct(s.urlR),
			pct(float64(s.titles)/float64(n)), pct(float64(s.prices)/float64(n)), len(s.mismatches))
		if testing.Verbose() {
			for _, m := range s.mismatches {
				t.Logf("  %s: %s", pg.name, m)
			}
		}
		if pg.key.Kind == "challenge" {
			if r.Blocked == "" || r.NoResults || len(r.Listings) != 0 {
				t.Errorf("%s: a bot-check page: want Blocked and not NoResults, got Blocked=%q NoResults=%v listings=%d", pg.name, r.Blocked, r.NoResults, len(r.Listings))
			}
			continue
		}
		if s.idP != 1 || s.idR != 1 || s.urlP != 1 || s.urlR != 1 {
			t.Errorf("%s: ids P=%s R=%s, urls P=%s R=%s; want 100%%", pg.name, pct(s.idP), pct(s.idR), pct(s.urlP), pct(s.urlR))
		}
		if len(s.excluded) > 0 {
			t.Errorf("%s: excluded placements listed: %v", pg.name, s.excluded)
		}
		titles, prices, listings = titles+s.titles, prices+s.prices, listings+s.want
		if s.promoted != s.want {
			t.Errorf("%s: promoted right on %d of %d", pg.name, s.promoted, s.want)
		}
		if !r.Container || r.NoResults || r.Blocked != "" {
			t.Errorf("%s: Container=%v NoResults=%v Blocked=%q", pg.name, r.Container, r.NoResults, r.Blocked)
		}
		if site := strings.SplitN(pg.key.Site, "/", 2)[0]; r.Site != site && r.Site != hostbackoff.SiteOf(site) {
			t.Errorf("%s: site %q, want %q", pg.name, r.Site, pg.key.Site)
		}
	}
	fmt.Fprintf(&table, "titles right: %d of %d listings (%s); price values right: %d (%s)\n", titles, listings, pct(float64(titles)/float64(listings)), prices, pct(float64(prices)/float64(listings)))
	t.Log(table.String())
	if titles*100 < 95*listings || prices*100 < 95*listings {
		t.Errorf("titles right %d/%d, price values right %d/%d; want >= 95%% of the listings", titles, listings, prices, listings)
	}
}

// TestRealPages: what a user gets on the real pages (profiles on).
func TestRealPages(t *testing.T) { checkRealPages(t, Options{}) }

// TestRealPagesAutomatic: the same bar with the profiles off — how a site
// nobody wrote a profile for fares.
func TestRealPagesAutomatic(t *testing.T) { checkRealPages(t, Options{NoProfiles: true}) }
