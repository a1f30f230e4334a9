package extract

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExampleOnRealPages: on every real page, given the title of one listing
// from its answer key (the first, and one from the middle), the derived
// selectors find at least 95% of the key's listings and none it excludes.
func TestExampleOnRealPages(t *testing.T) {
	var table strings.Builder
	for _, pg := range realPages(t) {
		if pg.key.Kind != "results" {
			continue
		}
		for _, k := range []int{0, len(pg.key.Listings) / 2} {
			example := pg.key.Listings[k].Title
			sel, r, err := Example(Parse(pg.body), pg.url, strings.TrimSuffix(example, " ..."))
			if err != nil {
				t.Errorf("%s: example %q: %v", pg.name, example, err)
				continue
			}
			s := score(r, pg.key)
			fmt.Fprintf(&table, "%-28s #%-2d %3d/%-3d R=%4s  item %q link %q title %q\n", pg.name, k, s.got, s.want, pct(s.pqR), sel.Item, sel.Link, sel.Title)
			if s.pqR < 0.95 || len(s.excluded) > 0 {
				t.Errorf("%s: example %q: urls R=%s, excluded %v (selectors %+v)", pg.name, example, pct(s.pqR), s.excluded, sel)
			}
		}
	}
	t.Log("\n" + table.String())
}

// TestGroupsRanking: the page's lists, the one read first and marked chosen,
// each with an example line and selectors that read it; wrappers of one list
// are not offered twice.
func TestGroupsRanking(t *testing.T) {
	body, err := os.ReadFile(filepath.Join(fixtureDir, "rules", "similar-3.html"))
	if err != nil {
		t.Fatal(err)
	}
	u := mustURL("https://www.koeln-wohnen.de/suche/lindenthal")
	gs := Groups(Parse(body), u, 0)
	if len(gs) < 2 {
		t.Fatalf("%d groups: %+v", len(gs), gs)
	}
	if !gs[0].Chosen || gs[0].Count != 3 || gs[0].Example != "Altbau am Stadtwald · 1150 €" {
		t.Errorf("first group %+v, want the search's own 3, chosen", gs[0])
	}
	if gs[1].Chosen || gs[1].Count != 5 || !strings.HasPrefix(gs[1].Example, "Wohnung in Sülz 0") {
		t.Errorf("second group %+v, want the 5 similar offers", gs[1])
	}
	for _, g := range gs[:2] {
		r, err := Extract(body, u, g.Selectors)
		if err != nil || len(r.Listings) != g.Count {
			t.Errorf("selectors %+v read %d listings (%v), want %d", g.Selectors, len(r.Listings), err, g.Count)
		}
	}
	seen := map[int]bool{}
	for _, g := range gs {
		if seen[g.Count] && g.Count > 1 {
			t.Errorf("a list offered twice: %+v", gs)
		}
		seen[g.Count] = true
	}
}

// Show me one finds the list wherever automatic extraction finds a card
// around the example: in a table, in groups (the example is the group's
// name), in data (the drawn cards are fewer than the data's), on cards with
// several links; an example that is a price reads as the price.
func TestExampleFindsTheListAutomaticFinds(t *testing.T) {
	for _, c := range []struct {
		page, url, example string
		want               int
		firstURL           string
	}{
		{"portals/coop-table", "https://www.bauverein-kiel.de/freie-wohnungen", "Knooper Weg 45, 2. OG", 3, "https://www.bauverein-kiel.de/wohnungen/holtenauer-str-112-eg-links"},
		{"rules/grouped-units", "https://suumo-beispiel.jp/chintai/tokyo/", "パークハウス渋谷", 7, "https://suumo-beispiel.jp/chintai/jnc_000100011/"},
		{"rules/grouped-units", "https://suumo-beispiel.jp/chintai/tokyo/", "12.5万円", 7, "https://suumo-beispiel.jp/chintai/jnc_000100011/"},
		{"rules/data-holds-more", "https://www.wohnen-wien-beispiel.at/suche", "Wohnung 2 in Wien, 3 Zimmer", 36, "https://www.wohnen-wien-beispiel.at/expose/4100"},
		{"rules/several-links", "https://www.wohnen-beispiel.de/mieten/koeln", "Altbau in Sülz, ruhige Lage", 3, "https://www.wohnen-beispiel.de/objekt/81001"},
	} {
		body, err := os.ReadFile(filepath.Join(fixtureDir, c.page+".html"))
		if err != nil {
			t.Fatal(err)
		}
		sel, r, err := Example(Parse(body), mustURL(c.url), c.example)
		if err != nil || len(r.Listings) != c.want || r.Listings[0].URL != c.firstURL {
			t.Errorf("%s, example %q: %d listings (%v), selectors %+v; want %d from %s", c.page, c.example, len(r.Listings), err, sel, c.want, c.firstURL)
			continue
		}
		if r.Listings[0].Title == "" || r.Listings[0].Title == c.example && findPrice(c.example) != "" {
			t.Errorf("%s, example %q: first title %q", c.page, c.example, r.Listings[0].Title)
		}
	}
}
