package extract

import (
	"strings"
	"testing"
)

// Issue 37, item 5: a price as the example finds the list around it, and the
// titles stay the titles: the price element never becomes the title selector.
func TestAPriceExampleNeverBecomesTheTitle(t *testing.T) {
	page := `<html><body><nav><ul><li><a href="/hilfe">Hilfe</a></li><li><a href="/konto">Konto</a></li></ul></nav>
<ul class="results">
<li class="card"><a href="/expose/1"><h3>Altbau mit Balkon</h3></a><span class="preis">672 €</span><span>54 m²</span></li>
<li class="card"><a href="/expose/2"><h3>Dachgeschoss am Park</h3></a><span class="preis">820 €</span><span>90 m²</span></li>
<li class="card"><a href="/expose/3"><h3>Souterrain mit Garten</h3></a><span class="preis">540 €</span><span>40 m²</span></li>
</ul></body></html>`
	for _, example := range []string{"672", "672 €"} {
		sel, r, err := Example(Parse([]byte(page)), mustURL("https://www.example-immo.de/suche"), example)
		if err != nil {
			t.Fatalf("example %q: %v", example, err)
		}
		if len(r.Listings) != 3 {
			t.Fatalf("example %q found %d listings, want 3 (selectors %+v)", example, len(r.Listings), sel)
		}
		for _, l := range r.Listings {
			if strings.Contains(l.Title, "€") {
				t.Errorf("example %q: a title reads %q (selectors %+v)", example, l.Title, sel)
			}
		}
		if sel.Title == ".preis" || strings.Contains(sel.Title, "preis") {
			t.Errorf("example %q: the price became the title selector %q", example, sel.Title)
		}
	}
}

// The page's lists are offered with selectors that read only their own items
// (a bare "li" would read the menu too).
func TestGroupsSelectorsReadOnlyTheirList(t *testing.T) {
	page := `<html><body><nav><ul><li><a href="/hilfe">Hilfe</a></li><li><a href="/konto">Konto</a></li><li><a href="/merkliste">Merkliste</a></li></ul></nav>
<ul>
<li><a href="/expose/1"><h3>Altbau mit Balkon</h3></a><span>672 €</span></li>
<li><a href="/expose/2"><h3>Dachgeschoss am Park</h3></a><span>820 €</span></li>
<li><a href="/expose/3"><h3>Souterrain mit Garten</h3></a><span>540 €</span></li>
</ul></body></html>`
	u := mustURL("https://www.example-immo.de/suche")
	for _, g := range Groups(Parse([]byte(page)), u, 0) {
		r, err := Extract([]byte(page), u, g.Selectors)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Listings) != g.Count {
			t.Errorf("the group %q (%d items) read with %+v gives %d listings", g.Example, g.Count, g.Selectors, len(r.Listings))
		}
	}
}
