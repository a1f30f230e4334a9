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

	"notifio/internal/model"
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

// pageSet is one folder of real captured pages with answer keys, and the bar
// its pages are held to.
type pageSet struct {
	name string // "sites", "sites2"
	dir  string
	// strict: every listing by id and exact URL, promoted right on every
	// listing, 95% of titles and prices (the pages that shaped the rules).
	// Otherwise (pages of portals nobody tuned for, with no profile): URLs
	// by path and query at 98% precision and recall per page, and titles and
	// prices right on minTitles/minPrices of the listings found.
	strict               bool
	minTitles, minPrices float64
}

// pageSets are the shared folders of real pages: $NOTIFIO_SITES (else
// shared/sites beside the repository) and the sites2 folder beside it.
func pageSets() []pageSet {
	dir := os.Getenv("NOTIFIO_SITES")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "sites")
	}
	return []pageSet{
		{name: "sites", dir: dir, strict: true, minTitles: 0.95, minPrices: 0.95},
		{name: "sites2", dir: filepath.Join(filepath.Dir(dir), "sites2"), minTitles: 0.95, minPrices: 0.95},
	}
}

type realPage struct {
	name string // file name without .html
	set  pageSet
	body []byte
	url  *url.URL
	key  answerKey
}

// realPages loads every page with an answer key in every folder present;
// skips the test, saying where it looked, when none is.
func realPages(tb testing.TB) []realPage {
	tb.Helper()
	var out, missing []string
	var pages []realPage
	for _, set := range pageSets() {
		keys, _ := filepath.Glob(filepath.Join(set.dir, "answers", "*.json"))
		if len(keys) == 0 {
			missing = append(missing, set.dir)
			continue
		}
		out = append(out, set.dir)
		sort.Strings(keys)
		for _, k := range keys {
			pages = append(pages, loadRealPage(tb, set, k))
		}
	}
	if len(pages) == 0 {
		tb.Skipf("no real pages in %s (set NOTIFIO_SITES to the shared/sites folder; sites2 is read beside it)", strings.Join(missing, " or "))
	}
	if len(missing) > 0 {
		tb.Logf("real pages read from %s; none in %s", strings.Join(out, ", "), strings.Join(missing, ", "))
	}
	return pages
}

func loadRealPage(tb testing.TB, set pageSet, keyFile string) realPage {
	tb.Helper()
	name := strings.TrimSuffix(filepath.Base(keyFile), ".json")
	raw, err := os.ReadFile(keyFile)
	if err != nil {
		tb.Fatal(err)
	}
	var key answerKey
	if err := json.Unmarshal(raw, &key); err != nil {
		tb.Fatalf("%s: %v", keyFile, err)
	}
	body, err := os.ReadFile(filepath.Join(set.dir, name+".html"))
	if err != nil {
		tb.Fatalf("%s: %v", name, err)
	}
	u, err := url.Parse(key.BaseURL)
	if err != nil {
		tb.Fatalf("%s: base_url: %v", name, err)
	}
	return realPage{name: name, set: set, body: body, url: u, key: key}
}

// pathQuery is how the sites2 keys compare URLs: by path and query (a
// scheme or host written differently is the same listing).
func pathQuery(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	if u.RawQuery == "" {
		return u.EscapedPath()
	}
	return u.EscapedPath() + "?" + u.RawQuery
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
	idP, idR, urlP, urlR float64 // ids, and exact URLs
	pqP, pqR             float64 // URLs by path and query
	got, want            int
	found                int // key listings found (by path and query)
	titles, prices       int // found listings whose title / price value is right
	promoted             int // found listings whose promoted flag is right
	excluded             []string
	mismatches           []string // every field that differs, for reading
}

// score compares a result with an answer key: ids and urls by precision and
// recall, and the fields of the listings found (matched by path and query)
// where the key gives them.
func score(r model.PageResult, key answerKey) pageScore {
	var gotIDs, gotURLs, gotPQ, wantIDs, wantURLs, wantPQ []string
	byPQ := map[string]model.PageListing{}
	for _, l := range r.Listings {
		gotIDs, gotURLs, gotPQ = append(gotIDs, l.ID), append(gotURLs, l.URL), append(gotPQ, pathQuery(l.URL))
		byPQ[pathQuery(l.URL)] = l
	}
	for _, l := range key.Listings {
		wantIDs, wantURLs, wantPQ = append(wantIDs, l.ID), append(wantURLs, l.URL), append(wantPQ, pathQuery(l.URL))
	}
	s := pageScore{got: len(r.Listings), want: len(key.Listings)}
	s.idP, s.idR = prf(gotIDs, wantIDs)
	s.urlP, s.urlR = prf(gotURLs, wantURLs)
	s.pqP, s.pqR = prf(gotPQ, wantPQ)
	for _, x := range key.Excluded {
		if _, ok := byPQ[pathQuery(x.URL)]; ok {
			s.excluded = append(s.excluded, x.ID)
		}
	}
	for _, k := range key.Listings {
		g, ok := byPQ[pathQuery(k.URL)]
		if !ok {
			continue
		}
		s.found++
		diff := func(field, got, want string) bool {
			if got != want {
				s.mismatches = append(s.mismatches, fmt.Sprintf("%s %s: got %q, want %q", k.ID, field, got, want))
				return false
			}
			return true
		}
		diff("id", g.ID, k.ID)
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

// setTotals adds up one folder's listings found and fields right.
type setTotals struct{ found, titles, prices int }

// checkRealPages extracts every real page and holds it to its folder's bar
// (pageSet): nothing the key excludes, the site named, a bot-check page
// reported as blocked; on sites every listing by id and exact URL and
// promoted right, on sites2 98% by path and query and no profile.
func checkRealPages(t *testing.T, opt Options) {
	totals := map[string]*setTotals{}
	sets := map[string]pageSet{}
	var table strings.Builder
	fmt.Fprintf(&table, "\n%-28s %-22s %4s %4s %5s %5s %5s %5s %6s %6s %5s %s\n", "page", "method", "got", "want", "id R", "url P", "url R", "found", "titles", "prices", "promo", "other fields")
	for _, pg := range realPages(t) {
		r, err := ExtractWith(pg.body, pg.url, model.PageSelectors{}, opt)
		if err != nil {
			t.Fatalf("%s: %v", pg.name, err)
		}
		s := score(r, pg.key)
		n := max(s.found, 1)
		fmt.Fprintf(&table, "%-28s %-22s %4d %4d %5s %5s %5s %5d %6s %6s %5s %d\n", pg.name, r.Method, s.got, s.want, pct(s.idR), pct(s.pqP), pct(s.pqR), s.found,
			pct(float64(s.titles)/float64(n)), pct(float64(s.prices)/float64(n)), pct(float64(s.promoted)/float64(n)), len(s.mismatches))
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
		checkRealPage(t, pg, r, s)
		tot := totals[pg.set.name]
		if tot == nil {
			tot = &setTotals{}
			totals[pg.set.name], sets[pg.set.name] = tot, pg.set
		}
		tot.found, tot.titles, tot.prices = tot.found+s.found, tot.titles+s.titles, tot.prices+s.prices
	}
	for name, tot := range totals {
		set, n := sets[name], float64(max(tot.found, 1))
		fmt.Fprintf(&table, "%s: titles right on %d of %d listings found (%s); price values on %d (%s)\n", name, tot.titles, tot.found, pct(float64(tot.titles)/n), tot.prices, pct(float64(tot.prices)/n))
		if float64(tot.titles) < set.minTitles*n || float64(tot.prices) < set.minPrices*n {
			t.Errorf("%s: titles right %d/%d, price values right %d/%d; want >= %s and %s of the listings found", name, tot.titles, tot.found, tot.prices, tot.found, pct(set.minTitles), pct(set.minPrices))
		}
	}
	t.Log(table.String())
}

// checkRealPage holds one results page to its folder's bar.
func checkRealPage(t *testing.T, pg realPage, r model.PageResult, s pageScore) {
	t.Helper()
	if pg.set.strict {
		if s.idP != 1 || s.idR != 1 || s.urlP != 1 || s.urlR != 1 {
			t.Errorf("%s: ids P=%s R=%s, urls P=%s R=%s; want 100%%", pg.name, pct(s.idP), pct(s.idR), pct(s.urlP), pct(s.urlR))
		}
		if s.promoted != s.want {
			t.Errorf("%s: promoted right on %d of %d", pg.name, s.promoted, s.want)
		}
	} else {
		if s.pqP < 0.98 || s.pqR < 0.98 {
			t.Errorf("%s: urls by path and query P=%s R=%s; want >= 98%%", pg.name, pct(s.pqP), pct(s.pqR))
		}
		if strings.HasPrefix(r.Method, "profile:") && r.Site != "idealista" {
			t.Errorf("%s: read by %s; the %s pages have no profile", pg.name, r.Method, pg.set.name)
		}
	}
	if len(s.excluded) > 0 {
		t.Errorf("%s: excluded placements listed: %v", pg.name, s.excluded)
	}
	if !r.Container || r.NoResults || r.Blocked != "" {
		t.Errorf("%s: Container=%v NoResults=%v Blocked=%q", pg.name, r.Container, r.NoResults, r.Blocked)
	}
	site := strings.SplitN(pg.key.Site, "/", 2)[0]
	if r.Site != site && r.Site != model.SiteOf(site) && r.Method != "profile:"+r.Site {
		t.Errorf("%s: site %q, want %q", pg.name, r.Site, pg.key.Site)
	}
}

// TestRealPages: what a user gets on the real pages (profiles on).
func TestRealPages(t *testing.T) { checkRealPages(t, Options{}) }

// TestRealPagesAutomatic: the same bar with the profiles off — how a site
// nobody wrote a profile for fares.
func TestRealPagesAutomatic(t *testing.T) { checkRealPages(t, Options{NoProfiles: true}) }
