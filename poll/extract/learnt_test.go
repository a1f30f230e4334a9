package extract

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"notifio/internal/model"
)

// learntLayout is how learntPage draws its result list.
type learntLayout struct {
	cards     int    // how many cards
	list      string // the list's class
	path      string // the listings' path before the id ("/expose/")
	titleLink bool   // the card's link is in its heading (else the whole card is the link)
	priceUp   int    // added to every price
}

var learntBase = learntLayout{cards: 12, list: "results", path: "/expose/", titleLink: true}

// learntPage is a result page with a menu of 200 links and a list of cards
// drawn as l says.
func learntPage(l learntLayout) []byte {
	var b strings.Builder
	b.WriteString(`<!doctype html><html><head><title>Wohnungen</title></head><body><header><nav><ul class="menu">`)
	for i := range 200 {
		fmt.Fprintf(&b, `<li class="menu__item"><a href="/mieten/stadtteil-%d">Stadtteil %d</a></li>`, i, i)
	}
	fmt.Fprintf(&b, `</ul></nav></header><main><ul class="%s">`, l.list)
	for i := range l.cards {
		id := 4711 + i
		price := fmt.Sprintf(`<p class="price">%d €</p>`, 800+10*i+l.priceUp)
		if l.titleLink {
			fmt.Fprintf(&b, `<li class="card" data-id="%d"><h2><a href="%s%d">Helle Wohnung %d mit Balkon</a></h2>%s<p>%d m² · 2 Zimmer</p></li>`, id, l.path, id, i, price, 50+i)
		} else {
			fmt.Fprintf(&b, `<li class="card" data-id="%d"><a class="card__link" href="%s%d"><h2>Helle Wohnung %d mit Balkon</h2>%s<p>%d m² · 2 Zimmer</p></a></li>`, id, l.path, id, i, price, 50+i)
		}
	}
	b.WriteString(`</ul></main><footer><a href="/impressum">Impressum</a></footer></body></html>`)
	return []byte(b.String())
}

var learntURL, _ = url.Parse("https://flats.example/mieten/berlin")

func extractLearnt(t *testing.T, body []byte, structure string) model.PageResult {
	t.Helper()
	r, err := ExtractWith(body, learntURL, model.PageSelectors{}, Options{Structure: structure})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// The second poll of a search reads the list it learnt on the first (Method
// "learnt"), with the listings a full extraction gives, a new price included.
func TestLearntListIsReadOnTheNextPoll(t *testing.T) {
	first := extractLearnt(t, learntPage(learntBase), "")
	if first.Method != model.MethodCards || len(first.Listings) != 12 || first.Structure == "" {
		t.Fatalf("first poll: method %s, %d listings, structure %q; want cards, 12, learnt", first.Method, len(first.Listings), first.Structure)
	}
	cheaper := learntBase
	cheaper.priceUp = -50
	body := learntPage(cheaper)
	next := extractLearnt(t, body, first.Structure)
	if next.Method != model.MethodLearnt {
		t.Fatalf("next poll: method %s, want %s (the learnt list read directly)", next.Method, model.MethodLearnt)
	}
	full := extractLearnt(t, body, "")
	if !slices.Equal(next.Listings, full.Listings) {
		t.Fatalf("learnt read\n%+v\nfull extraction\n%+v", next.Listings, full.Listings)
	}
	if next.Listings[0].PriceValue != 750 || next.Structure != first.Structure {
		t.Errorf("learnt read: first price %v, structure %q; want 750 and the same structure %q", next.Listings[0].PriceValue, next.Structure, first.Structure)
	}
}

// A layout change goes the full way, and the list found there is learnt: the
// list gone (another class), fewer cards, cards of another shape (the link
// elsewhere in the card, or to URLs of another shape). A structure of the key
// alone (saved by an older version) goes the full way too.
func TestLearntListFallsBackOnALayoutChange(t *testing.T) {
	learnt := extractLearnt(t, learntPage(learntBase), "").Structure
	fewer, moved, reshaped, renamed, more := learntBase, learntBase, learntBase, learntBase, learntBase
	fewer.cards = 11
	moved.titleLink = false
	reshaped.path = "/de/wohnung/expose/"
	renamed.list = "search-results"
	more.cards = 20
	for _, tc := range []struct {
		name      string
		layout    learntLayout
		structure string
		want      string // the method
		relearnt  bool   // a new structure is learnt
	}{
		{"fewer cards", fewer, learnt, model.MethodCards, true},
		{"link moved", moved, learnt, model.MethodCards, true},
		{"other URL shape", reshaped, learnt, model.MethodCards, true},
		{"list gone", renamed, learnt, model.MethodCards, true},
		{"more cards", more, learnt, model.MethodLearnt, true},
		{"older structure", learntBase, learntKey(learnt), model.MethodCards, true},
		{"same page", learntBase, learnt, model.MethodLearnt, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := learntPage(tc.layout)
			r := extractLearnt(t, body, tc.structure)
			if r.Method != tc.want || len(r.Listings) != tc.layout.cards {
				t.Fatalf("method %s, %d listings; want %s, %d", r.Method, len(r.Listings), tc.want, tc.layout.cards)
			}
			if full := extractLearnt(t, body, ""); !slices.Equal(r.Listings, full.Listings) || r.Structure != full.Structure {
				t.Fatalf("read %+v (structure %q), full extraction %+v (structure %q)", r.Listings, r.Structure, full.Listings, full.Structure)
			}
			if (r.Structure != tc.structure) != tc.relearnt {
				t.Errorf("structure %q after %q; relearnt = %v, want %v", r.Structure, tc.structure, r.Structure != tc.structure, tc.relearnt)
			}
			if again := extractLearnt(t, body, r.Structure); again.Method != model.MethodLearnt || !slices.Equal(again.Listings, r.Listings) {
				t.Errorf("the poll after: method %s, %d listings; want the new list read directly", again.Method, len(again.Listings))
			}
		})
	}
}

// A list whose cards leave a price open is read the full way: the page's
// data may fill it.
func TestLearntListNeedsCompleteCards(t *testing.T) {
	body := learntPage(learntBase)
	learnt := extractLearnt(t, body, "").Structure
	open := []byte(strings.Replace(string(body), `<p class="price">800 €</p>`, "", 1))
	if r := extractLearnt(t, open, learnt); r.Method != model.MethodCards {
		t.Errorf("a card without a price: method %s, want %s", r.Method, model.MethodCards)
	}
}

// Over the real pages of ../shared/sites and ../shared/sites2, with profiles
// and without: a page read by the list learnt on it gives exactly the
// listings of the full extraction (ids, URLs, titles, prices, promoted, all
// fields).
func TestLearntListMatchesFullExtractionOnRealPages(t *testing.T) {
	sites := os.Getenv("NOTIFIO_SITES")
	if sites == "" {
		sites = filepath.Join("..", "..", "..", "shared", "sites")
	}
	var missing []string
	for _, dir := range []string{sites, filepath.Join(filepath.Dir(sites), "sites2")} {
		keys, _ := filepath.Glob(filepath.Join(dir, "answers", "*.json"))
		if len(keys) == 0 {
			t.Logf("skipped %s: no answers/*.json there (set NOTIFIO_SITES to the shared/sites folder; sites2 is read beside it)", dir)
			missing = append(missing, dir)
			continue
		}
		read, learntN := 0, 0
		for _, k := range keys {
			name := strings.TrimSuffix(filepath.Base(k), ".json")
			body, u := learntRealPage(t, dir, name)
			if body == nil {
				continue
			}
			for _, opt := range []Options{{}, {NoProfiles: true}} {
				full, err := ExtractWith(body, u, model.PageSelectors{}, opt)
				if err != nil || full.Structure == "" {
					continue
				}
				read++
				opt.Structure = full.Structure
				again, _ := ExtractWith(body, u, model.PageSelectors{}, opt)
				if again.Method == model.MethodLearnt {
					learntN++
				}
				if !slices.Equal(again.Listings, full.Listings) {
					t.Errorf("%s (profiles off %v, method %s): the learnt read differs from the full extraction:\n%+v\n%+v", name, opt.NoProfiles, again.Method, again.Listings, full.Listings)
				}
			}
		}
		t.Logf("%s: %d readings with a learnt list, %d of them read it directly", dir, read, learntN)
		if read > 0 && learntN == 0 {
			t.Errorf("%s: no page was read by its learnt list", dir)
		}
	}
	if len(missing) == 2 {
		t.Skipf("no real pages in %s (set NOTIFIO_SITES to the shared/sites folder; sites2 is read beside it)", strings.Join(missing, " or "))
	}
}

// learntRealPage reads a page and its URL from an answer key (nil for a key
// without a page or URL).
func learntRealPage(t *testing.T, dir, name string) ([]byte, *url.URL) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, "answers", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var key struct {
		BaseURL string `json:"base_url"`
	}
	if err := json.Unmarshal(raw, &key); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	body, err := os.ReadFile(filepath.Join(dir, name+".html"))
	u, uerr := url.Parse(key.BaseURL)
	if err != nil || uerr != nil || !u.IsAbs() {
		return nil, nil
	}
	return body, u
}
