package extract

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

func TestParsePrice(t *testing.T) {
	for _, c := range []struct {
		in   string
		v    float64
		cur  string
		note string
	}{
		{"1.250 €", 1250, "EUR", "German thousands"},
		{"€1,250", 1250, "EUR", "English thousands"},
		{"1.250,50 €", 1250.5, "EUR", "German decimals"},
		{"1,250.50 $", 1250.5, "USD", "English decimals"},
		{"VB", 0, "", "negotiable, no amount"},
		{"auf Anfrage", 0, "", "on request"},
		{"397.000 € VB", 397000, "EUR", "VB kept in the text"},
		{"538,33 €", 538.33, "EUR", "two decimals"},
		{"525,4 €", 525.4, "EUR", "one decimal"},
		{"3.026,00\u00a0€", 3026, "EUR", "no-break space"},
		{"1 250 €", 1250, "EUR", "space grouping"},
		{"CHF 1'250.–", 1250, "CHF", "Swiss"},
		{"1.250.000 €", 1250000, "EUR", "two thousands separators"},
		{"1.450€/mes", 1450, "EUR", "per month"},
		{"ab 520 €", 520, "EUR", "from"},
		{"£950 pcm", 950, "GBP", "pound"},
		{"1250 EUR", 1250, "EUR", "ISO code"},
		{"Europa 5", 5, "", "not a currency word"},
	} {
		v, cur := parsePrice(c.in)
		if v != c.v || cur != c.cur {
			t.Errorf("%s: parsePrice(%q) = %v %q, want %v %q", c.note, c.in, v, cur, c.v, c.cur)
		}
	}
}

func TestFold(t *testing.T) {
	for in, want := range map[string]string{
		"  a \n\t b  ":             "a b",
		"3.026,00\u00a0€":          "3.026,00 €",
		"MÃ¼nchen":                 "München",
		"GroÃŸe Wohnung, KÃ¼che":   "Große Wohnung, Küche",
		"Preis: â‚¬1,250":          "Preis: €1,250",
		"MÃƒÂ¼nchen":               "München",                  // encoded twice over
		"München":                  "München",                  // correct text stays
		"Ärger – Öl, 5 m² · 2 Zi.": "Ärger – Öl, 5 m² · 2 Zi.", // correct Latin-1 text stays
		"So\u00adfa\u200b":         "Sofa",
		"Straße 5 (ca. 5 km)":      "Straße 5 (ca. 5 km)",
		"plain ascii":              "plain ascii",
		"Ã":                        "Ã",
	} {
		if got := fold(in); got != want {
			t.Errorf("fold(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestResolve(t *testing.T) {
	page, _ := url.Parse("https://www.example.de/suche/wohnungen?page=1")
	r := newResolver(page)
	for _, c := range []struct{ href, want string }{
		{"/expose/123", "https://www.example.de/expose/123"},
		{"expose/123", "https://www.example.de/suche/expose/123"},
		{"//img.example.de/x", "https://img.example.de/x"},
		{"https://WWW.Example.DE/a?utm_source=x&id=5&utm_medium=y#frag", "https://www.example.de/a?id=5"},
		{"http://m.example.de/a", "http://m.example.de/a"},
		{"javascript:void(0)", ""},
		{" JavaScript:alert(1)", ""},
		{"data:text/html,hi", ""},
		{"mailto:a@example.de", ""},
		{"https://user:pw@www.example.de/a", ""},
		{"https://www.example.com/a", ""},
		{"https://example.de.evil.com/a", ""},
		{"#top", ""},
		{"", ""},
		{"ftp://www.example.de/a", ""},
	} {
		u, ok := r.resolve(c.href)
		got := ""
		if ok {
			got = u.String()
		}
		if got != c.want {
			t.Errorf("resolve(%q) = %q, want %q", c.href, got, c.want)
		}
	}
}

func TestIDFromURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://www.kleinanzeigen.de/s-anzeige/wohnung/3467325686-203-29962":        "3467325686",
		"https://www.wg-gesucht.de/wg-zimmer-in-Duesseldorf-Derendorf.13793538.html": "13793538",
		"https://www.immobilien.de/wohnen/9739832":                                   "9739832",
		"https://immo.swp.de/immobilien/moebliert-4-zimmer-GZTNQ2":                   "GZTNQ2",
		"https://immo.swp.de/immobilien/tauschwohnung-2-zimmer-GZTKMB":               "",
		"https://www.example.de/details.php?obj=4711":                                "4711",
		"https://www.example.de/expose/schoene-wohnung":                              "",
		"https://www.idealista.com/inmueble/104000001/":                              "104000001",
		"https://www.example.de/wohnungen/berlin-10115/altbau-mit-balkon-7781234/":   "7781234",
	} {
		u, _ := url.Parse(in)
		if got := idFromURL(u); got != want {
			t.Errorf("idFromURL(%s) = %q, want %q", in, got, want)
		}
	}
	if h := hashID("https://www.example.de/a"); len(h) != 16 || h != hashID("https://www.example.de/a") {
		t.Errorf("hashID not 16 stable hex digits: %q", h)
	}
}

func TestExtractErrors(t *testing.T) {
	u, _ := url.Parse("https://www.example.de/suche")
	for _, c := range []struct {
		sel  Selectors
		u    *url.URL
		want string
	}{
		{Selectors{Item: "li["}, u, `the item selector "li[" is not valid CSS: `},
		{Selectors{Item: "li", Price: ".price >"}, u, `the price selector ".price >" is not valid CSS`},
		{Selectors{Title: "h2"}, u, "the title selector needs an item selector"},
		{Selectors{}, nil, "page URL must be absolute"},
		{Selectors{}, &url.URL{Path: "/suche"}, "page URL must be absolute"},
		{Selectors{}, &url.URL{Scheme: "ftp", Host: "example.de"}, "not http or https"},
	} {
		_, err := Extract([]byte("<ul><li>x</li></ul>"), c.u, c.sel)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want it to contain %q", c.sel, err, c.want)
		}
	}
}

// TestDedupAndDrop: listings are de-duplicated by id; a listing whose only link
// goes to another site is dropped.
func TestDedupAndDrop(t *testing.T) {
	page := `<ul>
	<li class="c"><h3><a href="/expose/1001">Eins</a></h3><span>500 €</span></li>
	<li class="c"><h3><a href="/expose/1001?utm_source=x">Eins again</a></h3><span>500 €</span></li>
	<li class="c"><h3><a href="https://other.example.com/expose/1002">Fremd</a></h3><span>600 €</span></li>
	<li class="c"><h3><a href="/expose/1003">Drei</a></h3><span>700 €</span></li>
	</ul>`
	u, _ := url.Parse("https://www.example.de/suche")
	r, err := Extract([]byte(page), u, Selectors{Item: "li.c"})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, l := range r.Listings {
		ids = append(ids, l.ID)
	}
	if got := strings.Join(ids, ","); got != "1001,1003" {
		t.Errorf("ids %s, want 1001,1003", got)
	}
}

func TestProfileDispatch(t *testing.T) {
	for host, want := range map[string]string{
		"www.kleinanzeigen.de":     "kleinanzeigen.de",
		"m.kleinanzeigen.de":       "kleinanzeigen.de",
		"www.wg-gesucht.de":        "wg-gesucht.de",
		"immo.swp.de":              "immo.swp.de",
		"www.swp.de":               "",
		"schwarzesbrett.bremen.de": "schwarzesbrett.bremen.de",
		"www.bremen.de":            "",
		"www.idealista.it":         "idealista",
		"www.immobilienscout24.de": "immobilienscout24.de",
		"www.example.de":           "",
		"127.0.0.1":                "",
	} {
		got := ""
		if p := profileFor(host); p != nil {
			got = p.name
		}
		if got != want {
			t.Errorf("profileFor(%q) = %q, want %q", host, got, want)
		}
		// The page's own lookup (from its resolver) finds the same, also
		// for the host in capitals or with a trailing dot.
		for _, h := range []string{host, strings.ToUpper(host), host + ".", "WWW." + host} {
			pg := newPage(&html.Node{Type: html.DocumentNode}, mustURL("https://"+h+"/suche"))
			if got, want := pg.profile(), profileFor(h); got != want {
				t.Errorf("page %s: profile %v, profileFor %v", h, got, want)
			}
			pg.release()
		}
	}
}

func TestJSONAndRender(t *testing.T) {
	r := Result{Site: "example.de", Method: MethodCards}
	b, err := json.Marshal(JSON(r))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"site":"example.de","method":"cards","listings":[],"no_results":false}`; string(b) != want {
		t.Errorf("JSON = %s, want %s", b, want)
	}
	r.Listings = []Listing{{ID: "1", URL: "https://www.example.de/expose/1", Title: "Helle Wohnung", Price: "850 €", PriceValue: 850, Currency: "EUR", Size: "60 m²", Rooms: "2 Zi.", Location: "Köln", Promoted: true}}
	b, _ = json.Marshal(JSON(r))
	for _, k := range []string{`"id"`, `"url"`, `"title"`, `"price"`, `"price_value"`, `"currency"`, `"location"`, `"size"`, `"rooms"`, `"image"`, `"promoted"`} {
		if !bytes.Contains(b, []byte(k)) {
			t.Errorf("JSON lacks %s: %s", k, b)
		}
	}
	var out bytes.Buffer
	if err := Render(&out, r); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"example.de: 1 listing", "TITLE", "★ Helle Wohnung", "850 €", "60 m² · 2 Zi.", "Köln", "https://www.example.de/expose/1"} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("Render output lacks %q:\n%s", s, out.String())
		}
	}
	out.Reset()
	_ = Render(&out, Result{Site: "immobilienscout24.de", Method: "profile:immobilienscout24.de", Blocked: `title "Ich bin kein Roboter"`})
	if !strings.Contains(out.String(), "bot check") {
		t.Errorf("Render of a blocked page does not say so:\n%s", out.String())
	}
}

// TestCardsPickTheListingLink: a seller link before the title link in every card
// (repeating or not) does not become the listing URL.
func TestCardsPickTheListingLink(t *testing.T) {
	u, _ := url.Parse("https://www.example.de/suche")
	for _, sellers := range []int{2, 5} {
		page := `<ul>`
		for i := range 5 {
			page += fmt.Sprintf(`<li><a href="/haendler/%d">Immobilien Müller GmbH</a><h3><a href="/expose/%d">Schöne Wohnung Nummer %d</a></h3><span>%d €</span></li>`, 500+i%sellers, 9000+i, i, 700+i)
		}
		page += `</ul>`
		r, err := Extract([]byte(page), u, Selectors{})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Listings) != 5 || r.Listings[0].URL != "https://www.example.de/expose/9000" || r.Listings[0].ID != "9000" || r.Listings[0].Title != "Schöne Wohnung Nummer 0" {
			t.Errorf("%d sellers: got %+v", sellers, r.Listings)
		}
	}
}

// TestCardsPreferResultsOverSuggestions: a longer list headed "Ähnliche
// Angebote" does not win over the results.
func TestCardsPreferResultsOverSuggestions(t *testing.T) {
	u, _ := url.Parse("https://www.example.de/suche")
	page := `<h1>3 Treffer</h1><ul>`
	for i := range 3 {
		page += fmt.Sprintf(`<li><h3><a href="/expose/%d">Treffer %d mit Balkon</a></h3><span>%d €</span></li>`, 1000+i, i, 700+i)
	}
	page += `</ul><section><h2>Ähnliche Angebote in der Umgebung</h2><div>`
	for i := range 6 {
		page += fmt.Sprintf(`<div><h3><a href="/expose/%d">Vorschlag %d mit Garten</a></h3><span>%d €</span></div>`, 2000+i, i, 800+i)
	}
	page += `</div></section>`
	r, err := Extract([]byte(page), u, Selectors{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Listings) != 3 || r.Listings[0].ID != "1000" {
		t.Errorf("got %+v, want the 3 results", r.Listings)
	}
}

// TestBlockedByTitle: the title that tells a bot check is the first <title>
// with a text (not an SVG's), read when the page gives no listings.
func TestBlockedByTitle(t *testing.T) {
	u := mustURL("https://www.nordhaus.de/mieten/kiel")
	for page, want := range map[string]string{
		`<html><head><title>Just a moment...</title></head><body><p>Checking your browser</p></body></html>`:                                                       `title "Just a moment..."`,
		`<html><head><title> </title></head><body><title>Just a moment...</title><p>Checking</p></body></html>`:                                                    `title "Just a moment..."`,
		`<html><head><title>Wohnungen in Kiel</title></head><body><title>Just a moment...</title><p>Keine</p></body></html>`:                                       ``,
		`<html><head></head><body><svg><title>Captcha</title></svg><p>Nichts gefunden</p></body></html>`:                                                           ``,
		`<html><head><title>Access denied</title></head><body><ul><li><a href="/a/1001">A</a> 500 €</li><li><a href="/a/1002">B</a> 600 €</li></ul></body></html>`: ``,
	} {
		r, err := Extract([]byte(page), u, Selectors{})
		if err != nil {
			t.Fatal(err)
		}
		if r.Blocked != want {
			t.Errorf("%s: blocked %q, want %q (%d listings)", page, r.Blocked, want, len(r.Listings))
		}
	}
}

// TestTrimExtMatchesSearchingAll: trimExt, which looks for the dot among
// the last five bytes only, drops what searching the whole segment for its
// last dot drops.
func TestTrimExtMatchesSearchingAll(t *testing.T) {
	ref := func(seg string) string {
		if i := strings.LastIndexByte(seg, '.'); i > 0 {
			switch strings.ToLower(seg[i+1:]) {
			case "html", "htm", "php", "aspx", "asp", "jsp", "cfm":
				return seg[:i]
			}
		}
		return seg
	}
	var segs []string
	for _, head := range []string{"", "a", ".", "ab.", "wohnung-1", "x.y", "expose.123", "a.html."} {
		for _, ext := range []string{"", ".", ".html", ".HTML", ".htm", ".php", ".aspx", ".asp", ".jsp", ".cfm", ".htmlx", ".xhtml", ".jspx", ".h", ".json", "html", ".pHp", "..html"} {
			for _, tail := range []string{"", ".", "x", ".html"} {
				segs = append(segs, head+ext+tail)
			}
		}
	}
	for _, seg := range segs {
		if got, want := trimExt(seg), ref(seg); got != want {
			t.Errorf("trimExt(%q) = %q, want %q", seg, got, want)
		}
	}
}

// TestMayHoldFactSepMatchesContains: mayHoldFactSep is true exactly when the
// text contains one of pricePart's separators, on texts built from their
// pieces and their neighbours (the euro sign shares the bullet's lead byte).
func TestMayHoldFactSepMatchesContains(t *testing.T) {
	pieces := []string{"-", " ", "|", "·", "•", "€", "\xe2", "\xe2\x80", "\xc2", "a", "1", " - ", "–", "\xb7", "\xa2"}
	var texts []string
	for _, a := range pieces {
		for _, b := range pieces {
			for _, c := range pieces {
				texts = append(texts, a+b+c, "890 "+a+b+c+" kalt")
			}
		}
	}
	for _, s := range texts {
		want := false
		for _, sep := range []string{"·", "|", " - ", "•"} {
			want = want || strings.Contains(s, sep)
		}
		if got := mayHoldFactSep(s); got != want {
			t.Errorf("mayHoldFactSep(%q) = %v, want %v", s, got, want)
		}
	}
}
