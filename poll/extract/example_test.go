package extract

import (
	"fmt"
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
			fmt.Fprintf(&table, "%-28s #%-2d %3d/%-3d R=%4s  item %q link %q title %q\n", pg.name, k, s.got, s.want, pct(s.idR), sel.Item, sel.Link, sel.Title)
			if s.idR < 0.95 || len(s.excluded) > 0 {
				t.Errorf("%s: example %q: ids R=%s, excluded %v (selectors %+v)", pg.name, example, pct(s.idR), s.excluded, sel)
			}
		}
	}
	t.Log("\n" + table.String())
}
