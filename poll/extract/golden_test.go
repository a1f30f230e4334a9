package extract

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"notifio/internal/model"
)

var update = flag.Bool("update", false, "rewrite testdata/extract/*.golden.json from the current output")

// fixtureDir holds our own synthetic pages, each with <name>.golden.json beside it.
var fixtureDir = filepath.Join("..", "..", "testdata", "extract")

// fixtureCase is one synthetic page, the URL it is extracted as, and options.
type fixtureCase struct {
	name string
	url  string
	sel  model.PageSelectors
	opt  Options
}

var fixtures = []fixtureCase{
	{name: "kleinanzeigen-results", url: "https://www.kleinanzeigen.de/s-wohnung-mieten/duesseldorf/c203l2068"},
	{name: "kleinanzeigen-noresults", url: "https://www.kleinanzeigen.de/s-wohnung-mieten/duesseldorf/dachterrasse-schloss/k0c203l2068"},
	{name: "wggesucht-results", url: "https://www.wg-gesucht.de/wg-zimmer-in-Koeln.73.0.1.0.html"},
	{name: "wggesucht-noresults", url: "https://www.wg-gesucht.de/wg-zimmer-in-Kleinkleckersdorf.999.0.1.0.html"},
	{name: "immobiliende-results", url: "https://www.immobilien.de/Wohnen/Suchergebnisse-12345.html"},
	{name: "immobiliende-noresults", url: "https://www.immobilien.de/Wohnen/Suchergebnisse-12346.html"},
	{name: "immoswp-results", url: "https://immo.swp.de/mieten/wohnung/ulm"},
	{name: "immoswp-noresults", url: "https://immo.swp.de/mieten/wohnung/hintertupfingen"},
	{name: "schwarzesbrett-results", url: "https://schwarzesbrett.bremen.de/verkauf-und-angebote/mietobjekte"},
	{name: "schwarzesbrett-noresults", url: "https://schwarzesbrett.bremen.de/verkauf-und-angebote/ferienwohnungen"},
	{name: "idealista-results", url: "https://www.idealista.com/alquiler-viviendas/madrid/chamberi/"},
	{name: "idealista-noresults", url: "https://www.idealista.com/alquiler-viviendas/madrid/el-pardo/"},
	{name: "immoscout-results", url: "https://www.immobilienscout24.de/Suche/de/hamburg/hamburg/wohnung-mieten"},
	{name: "immoscout-noresults", url: "https://www.immobilienscout24.de/Suche/de/hamburg/hamburg/neuwerk/wohnung-mieten"},
	{name: "immoscout-challenge", url: "https://www.immobilienscout24.de/Suche/de/berlin/berlin/wohnung-mieten"},
	// Generic strategies: sites no profile knows.
	{name: "jsonld", url: "https://www.wohnraum-nord.de/mieten/kiel"},
	{name: "nextdata", url: "https://www.mietfix.de/suche?ort=bonn"},
	{name: "initial-state", url: "https://zimmer.boerse-freiburg.de/suche"},
	{name: "tailwind-cards", url: "https://www.stadtwohnen.de/mieten/muenster"},
	{name: "generic-noresults", url: "https://www.stadtwohnen.de/mieten/muenster-amelsbueren"},
	{name: "empty", url: "https://www.example.de/suche"},
	{name: "grid-rows", url: "https://www.wohnen-ost.de/suche/ergebnis?seite=1"},
	{name: "table-rows", url: "https://www.wg-eintracht.de/wohnungen/frei.php"},
	{name: "testid-cards", url: "https://www.heimfinder.de/wohnung-mieten/mainz"},
	// A profile's page read generically (as an unseen site would be).
	{name: "kleinanzeigen-results", url: "https://www.kleinanzeigen.de/s-wohnung-mieten/duesseldorf/c203l2068", opt: Options{NoProfiles: true}},
	{name: "wggesucht-results", url: "https://www.wg-gesucht.de/wg-zimmer-in-Koeln.73.0.1.0.html", opt: Options{NoProfiles: true}},
	{name: "immoswp-results", url: "https://immo.swp.de/mieten/wohnung/ulm", opt: Options{NoProfiles: true}},
	// User selectors override everything.
	{name: "selectors", url: "https://www.hv-beispiel.de/immobilien/angebote.html", sel: model.PageSelectors{Item: "li.offer", Link: "a.more", Title: ".t", Price: ".p"}},
	{name: "kleinanzeigen-results", url: "https://www.kleinanzeigen.de/s-wohnung-mieten/duesseldorf/c203l2068", sel: model.PageSelectors{Item: "article.aditem", Title: "h2"}},
}

func mustURL(s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		panic(err)
	}
	return u
}

// goldenName is the golden file of a case: <name>[.<variant>].golden.json.
func (c fixtureCase) goldenName() string {
	n := c.name
	if c.opt.NoProfiles {
		n += ".generic"
	}
	if c.sel.Item != "" && c.name != "selectors" {
		n += ".selectors"
	}
	return n + ".golden.json"
}

// goldenResult is what a golden file holds: the --json object plus the fields
// the JSON leaves out.
type goldenResult struct {
	JSONOutput
	Container bool   `json:"container"`
	Blocked   string `json:"blocked,omitempty"`
}

func TestGolden(t *testing.T) {
	for _, c := range fixtures {
		t.Run(strings.TrimSuffix(c.goldenName(), ".golden.json"), func(t *testing.T) {
			body, err := os.ReadFile(filepath.Join(fixtureDir, c.name+".html"))
			if err != nil {
				t.Fatal(err)
			}
			r, err := ExtractWith(body, mustURL(c.url), c.sel, c.opt)
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.MarshalIndent(goldenResult{JSON(r).(JSONOutput), r.Container, r.Blocked}, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			path := filepath.Join(fixtureDir, c.goldenName())
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./poll/extract -run TestGolden -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("output differs from %s (rerun with -update if the change is intended):\n%s", path, lineDiff(string(want), string(got)))
			}
		})
	}
}

// lineDiff shows the lines that differ between want and got.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for i := 0; i < max(len(w), len(g)); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			fmt.Fprintf(&b, "line %d:\n  want %s\n  got  %s\n", i+1, wl, gl)
		}
	}
	return b.String()
}
