package extract

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"notifio/internal/model"
)

// Issue 37: "Show me one" and "Use this list" on a portal with menus (our own
// page after real markup: nav, dropdowns, breadcrumbs, sorting, paging and a
// footer of li elements; the results a ul > li with utility classes only and
// lists of features and buttons inside each card). Whatever the example — the
// title, the price, the address, the link — the saved item selector matches
// on the page exactly the chosen list's listings (a bare "li" matched 69
// elements: its link selector picked the cards out on this page only), and
// the titles stay the cards' headings.
func TestShowMeOneSelectorsMatchOnlyTheList(t *testing.T) {
	for _, page := range []string{"menus-utility.html", "menus-plain.html", "menus-bare.html"} {
		t.Run(page, func(t *testing.T) { showMeOneMatchesOnlyTheList(t, page) })
	}
}

// showMeOneMatchesOnlyTheList is the check on one of the pages (the second
// without a class on the results list or its cards).
func showMeOneMatchesOnlyTheList(t *testing.T, page string) {
	body, err := os.ReadFile(filepath.Join(fixtureDir, "showmeone", page))
	if err != nil {
		t.Fatal(err)
	}
	u := mustURL("https://www.wohnraum-berlin.de/mieten/wohnungen/berlin")
	titles := []string{"Helle 2-Zimmer-Wohnung mit Balkon", "Altbau am Kanal, ruhig gelegen", "Dachgeschoss mit Blick über die Stadt",
		"Souterrain mit kleinem Garten", "Familienwohnung nahe Volkspark", "Neubau-Apartment mit Einbauküche"}
	check := func(what string, sel model.PageSelectors) {
		t.Helper()
		matched := newPage(Parse(body), u).doc.FindMatcher(matcher(sel.Item)).Length()
		r, err := Extract(body, u, sel) // as the watcher reads the saved selectors
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if matched != len(titles) || len(r.Listings) != len(titles) {
			t.Errorf("%s: item selector %q matches %d elements and reads %d listings, want the list's %d", what, sel.Item, matched, len(r.Listings), len(titles))
		}
		for _, l := range r.Listings {
			if !slices.Contains(titles, l.Title) {
				t.Errorf("%s: a title reads %q (selectors %+v)", what, l.Title, sel)
			}
		}
	}
	for _, example := range []string{titles[1], "980 €", "980", "Maybachufer 3, 12047 Berlin", "Maybachufer 3", "/expose/103", "44 m²"} {
		sel, _, err := Example(Parse(body), u, example)
		if err != nil {
			t.Fatalf("example %q: %v", example, err)
		}
		check("example "+example, sel)
	}
	chosen := 0
	for _, g := range Groups(Parse(body), u, 0) {
		if g.Chosen {
			chosen++
			check("Use this list", g.Selectors)
			continue
		}
		if r, err := Extract(body, u, g.Selectors); err != nil || len(r.Listings) != g.Count {
			t.Errorf("the list %q (%d) read with %+v gives %d listings (%v)", g.Example, g.Count, g.Selectors, len(r.Listings), err)
		}
	}
	if chosen != 1 {
		t.Errorf("%d lists offered as chosen, want the results", chosen)
	}
}
