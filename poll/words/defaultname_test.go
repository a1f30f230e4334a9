package words

import (
	"slices"
	"testing"
)

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
		if got := SuggestName(tc.title, tc.url, tc.site, func(string) bool { return false }); got != tc.want {
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
		name := SuggestName(title, u, "kleinanzeigen.de", func(n string) bool { return taken[n] })
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
