package extract

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"notifio/internal/model"
)

// The rules every page is read by (issue 17), one small page of our own each,
// in testdata/extract/rules. Each case names the rule it holds.

func readRule(t *testing.T, name, pageURL string, opt Options) model.PageResult {
	t.Helper()
	body, err := os.ReadFile(filepath.Join(fixtureDir, "rules", name+".html"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := ExtractWith(body, mustURL(pageURL), model.PageSelectors{}, opt)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// want is what a case asks of one listing; empty fields are not checked.
type want struct {
	id, url, title, price string
	location, size, rooms string
	noLocation            bool // the listing must have no location
	value                 float64
	promoted              bool
}

func checkListings(t *testing.T, r model.PageResult, ws []want) {
	t.Helper()
	if len(r.Listings) != len(ws) {
		t.Errorf("%d listings (method %s), want %d:", len(r.Listings), r.Method, len(ws))
		for _, l := range r.Listings {
			t.Logf("  %s %s %q %q", l.ID, l.URL, l.Title, l.Price)
		}
		return
	}
	for i, w := range ws {
		l := r.Listings[i]
		for _, f := range []struct{ name, got, want string }{
			{"id", l.ID, w.id}, {"url", l.URL, w.url}, {"title", l.Title, w.title}, {"price", l.Price, w.price},
			{"location", l.Location, w.location}, {"size", l.Size, w.size}, {"rooms", l.Rooms, w.rooms},
		} {
			if f.want != "" && f.got != f.want {
				t.Errorf("listing %d %s = %q, want %q", i, f.name, f.got, f.want)
			}
		}
		if w.noLocation && l.Location != "" {
			t.Errorf("listing %d location = %q, want none", i, l.Location)
		}
		if w.value != 0 && l.PriceValue != w.value {
			t.Errorf("listing %d price value = %v, want %v", i, l.PriceValue, w.value)
		}
		if l.Promoted != w.promoted {
			t.Errorf("listing %d promoted = %v, want %v", i, l.Promoted, w.promoted)
		}
	}
}

// Rule 1: the same page served with other tracking parameters gives the same
// ids and URLs, also for listings whose URL has no id of the site's own.
func TestRuleIdentityIgnoresTracking(t *testing.T) {
	a := readRule(t, "tracking-a", "https://www.wohnen-kassel.de/mieten/kassel", Options{})
	b := readRule(t, "tracking-b", "https://www.wohnen-kassel.de/mieten/kassel", Options{})
	checkListings(t, a, []want{
		{url: "https://www.wohnen-kassel.de/wohnung/helle-altbauwohnung-am-park", title: "Helle Altbauwohnung am Park"},
		{url: "https://www.wohnen-kassel.de/wohnung/dachgeschoss-mit-blick", title: "Dachgeschoss mit Blick", promoted: true}, // its link says search_reason=promoted
		{id: "4711", url: "https://www.wohnen-kassel.de/anzeige/4711", title: "Zimmer in WG"},
	})
	if len(a.Listings) != len(b.Listings) {
		t.Fatalf("%d and %d listings", len(a.Listings), len(b.Listings))
	}
	for i := range a.Listings {
		if a.Listings[i].ID != b.Listings[i].ID || a.Listings[i].URL != b.Listings[i].URL {
			t.Errorf("listing %d: %s %s vs %s %s", i, a.Listings[i].ID, a.Listings[i].URL, b.Listings[i].ID, b.Listings[i].URL)
		}
	}
}

// Rule 2: links of the result list are listings wherever they point; the id
// is the portal's own; a javascript: link is nothing.
func TestRulePartnerLinks(t *testing.T) {
	r := readRule(t, "partner-links", "https://www.wohnen-in-ulm.de/angebote", Options{})
	checkListings(t, r, []want{
		{id: "2101", url: "https://www.uws-ulm.de/mieten/objekt/55-1203.html?t=portal", title: "2-Zimmer-Wohnung am Donauufer", price: "612,00 €", value: 612},
		{id: "2102", url: "https://www.ulmer-heimstaette.de/angebote/7731", title: "Familienwohnung mit Garten", value: 980},
		{id: "2103", url: "https://www.bgs-ulm.de/wohnen/?obj=a-19", title: "Seniorenwohnung, barrierefrei", value: 455.5},
	})
}

// Rule 3: an app state's navigation and SEO arrays do not win over the results.
func TestRuleAppStateResultsNotNavigation(t *testing.T) {
	r := readRule(t, "appstate-nav", "https://www.leipzig-mieten.de/mieten/leipzig", Options{})
	checkListings(t, r, []want{
		{id: "LE-88120", url: "https://www.leipzig-mieten.de/expose/LE-88120", title: "Altbau mit Stuck in Gohlis", value: 745},
		{id: "LE-88121", url: "https://www.leipzig-mieten.de/expose/LE-88121", title: "Neubau-Penthouse am Auensee", value: 1390},
	})
	if r.Method != model.MethodNextData {
		t.Errorf("method %s, want %s", r.Method, model.MethodNextData)
	}
}

// Rule 4: a card without an <a> to its listing gives the URL in its data-url
// or data-href; the promo block between the cards is not a listing.
func TestRuleURLInDataAttribute(t *testing.T) {
	r := readRule(t, "data-url", "https://www.haus-nord.de/rostock/kaufen/haus/", Options{})
	checkListings(t, r, []want{
		{id: "551201", url: "https://www.haus-nord.de/rostock/kaufen/haus/551201/", title: "Reihenhaus in Dierkow", value: 329000},
		{id: "551202", url: "https://www.haus-nord.de/warnemuende/kaufen/haus/551202/", title: "Einfamilienhaus mit Garten", value: 489000},
		{id: "551203", url: "https://www.haus-nord.de/rostock/kaufen/haus/551203/", title: "Doppelhaushälfte", value: 298500},
	})
}

// Rule 5: the listing's own heading — not the description, an image counter,
// a hidden or mobile-only duplicate, a link's title attribute, an agency or a
// postcode line; the aria-label when it is the only title.
func TestRuleTitles(t *testing.T) {
	r := readRule(t, "titles", "https://www.bremen-wohnen.de/suche", Options{})
	checkListings(t, r, []want{
		{id: "9001", title: "Sonnige 3-Zimmer-Wohnung in Findorff", value: 890},
		{id: "9002", title: "Altbauwohnung im Viertel", value: 1120},
		{id: "9003", title: "Kleines Apartment nahe Uni", value: 520},
		{id: "9004", title: "Maisonette mit Dachterrasse", value: 1480},
	})
}

// Rule 6: the main amount with a label beside it, never a discount in the
// title nor a struck-through old price; a range kept as shown without a value.
func TestRulePrices(t *testing.T) {
	r := readRule(t, "prices", "https://www.ogloszenia-przyklad.pl/mieszkania", Options{})
	checkListings(t, r, []want{
		{price: "1 500 zł", value: 1500},
		{title: "DJI Mavic 3 – $900 OFF this week", price: "$1,299", value: 1299},
		{price: "2 100 zł", value: 2100},
		{price: "505.900 - 999.900 €"},
		{price: "Preis auf Anfrage"},
	})
	for _, l := range r.Listings[3:] {
		if l.PriceValue != 0 {
			t.Errorf("%q: price value %v, want none", l.Price, l.PriceValue)
		}
	}
	if len(r.Listings) > 0 && r.Listings[0].Currency != "PLN" {
		t.Errorf("currency %q, want PLN", r.Listings[0].Currency)
	}
}

// Rule 6, the amounts as sites write them: ",-" after a whole amount, and
// millions written as a word (a max-price filter must not read "€ 1,2 Mio" as
// 1.2); what is not understood has no value rather than a wrong one.
func TestRulePriceForms(t *testing.T) {
	for _, c := range []struct {
		text, price string
		value       float64
	}{
		{"1.200,- €", "1.200,- €", 1200},
		{"Kaltmiete 850,-€ zzgl. NK", "850,-€", 850},
		{"CHF 3’450.–", "CHF 3’450.–", 3450},
		{"Kaufpreis: € 1,2 Mio", "€ 1,2 Mio", 1200000},
		{"$1.5M", "$1.5M", 1500000},
		{"$1,250 Monthly", "$1,250", 1250},
		// issue 34: currency words with a dot, multipliers, thin spaces
		{"12 500 грн.", "12 500 грн.", 12500},
		{"45 000 руб.", "45 000 руб.", 45000},
		{"1 200 лв.", "1 200 лв.", 1200},
		{"15 000 Kč", "15 000 Kč", 15000},
		{"8.5万円", "8.5万円", 85000},
		{"賃料 12万円", "12万円", 120000},
		{"₹ 45 lakh", "₹ 45 lakh", 4500000},
		{"₹1.2 crore", "₹1.2 crore", 12000000},
		{"12 тис. грн", "12 тис. грн", 12000},
		{"2k €", "2k €", 2000},
		{"1,2 Mio. €", "1,2 Mio. €", 1200000},
		{"1\u2009250 €", "1\u2009250 €", 1250},
		{"1\u202f250\u00a0zł", "1\u202f250\u00a0zł", 1250},
		{"from $2,225+", "$2,225", 2225},
	} {
		p := findPrice(c.text)
		v, _ := priceValue(p)
		if p != c.price || v != c.value {
			t.Errorf("%q: price %q value %v, want %q %v", c.text, p, v, c.price, c.value)
		}
	}
}

// Rule 11: a place has letters (a map marker's number is none); it is an
// address line with its postcode, or a town with its state code, district or
// street, after the facts a line starts with; features alone name no place.
func TestRulePlaces(t *testing.T) {
	r := readRule(t, "places", "https://www.leipzig-wohnen.de/suche", Options{})
	checkListings(t, r, []want{
		{id: "3101", location: "Leipzig Gohlis | Lindenthaler Straße", rooms: "2-Zimmer-Wohnung"},
		{id: "3102", location: "Am Stadtpark 4, 04109 Leipzig"},
		{id: "3103", location: "Portland, OR"},
		{id: "3104", title: "Loft an der Weißen Elster", location: "Leipzig / Plagwitz"},
		{id: "3105", noLocation: true},
	})
}

// Rule 12: a size keeps the label word written after it; a fact shown on its
// own counts even when the title mentions it; an aria-label that words a fact
// is read when the text glues label and value; a room count keeps its word;
// a line of facts ("50 m² · 2,5 Zi.") beats a description's figures.
func TestRuleSizesAndRooms(t *testing.T) {
	r := readRule(t, "facts", "https://www.hannover-wohnen.de/suche", Options{})
	checkListings(t, r, []want{
		{id: "4201", size: "68 m² Wohnfläche", rooms: "3 Zimmer"},
		{id: "4202", size: "95 m²", rooms: "4"},
		{id: "4203", size: "54 m² Wohnfl.", rooms: "2,5-Zimmer-Wohnung"},
		{id: "4204", size: "50 m²", rooms: "2,5 Zi."},
	})
}

// Rule 7: paid placements outside the results are not results; a featured
// or sponsored result in the list is one, promoted (the user's
// --hide-promoted holds it back, issue 35).
func TestRulePaidPlacements(t *testing.T) {
	r := readRule(t, "paid", "https://www.leie-eksempel.no/leiligheter", Options{})
	checkListings(t, r, []want{
		{id: "700001", title: "Sponset: Stor leilighet i sentrum", promoted: true},
		{id: "700002", title: "2-roms på Grünerløkka", value: 16500},
		{id: "700003", title: "Lys 3-roms med balkong", promoted: true},
		{id: "700004", title: "Hybel nær Blindern"},
	})
}

// Rule 7, links: a result whose link's query value says the site placed it
// as a paid highlight, in any of the paid rules' words, is promoted; a
// parameter's name or a sort order is not such a mark. (The olx-only form,
// "promoted" or "featured" anywhere in the query, missed 1001, 1003 and
// 1006 and marked 1004.)
func TestRulePromotedLinks(t *testing.T) {
	r := readRule(t, "promoted-links", "https://www.byty-praha.cz/pronajem", Options{})
	checkListings(t, r, []want{
		{id: "1001", url: "https://www.byty-praha.cz/inzerat/1001", title: "Byt 2+kk na Žižkově", value: 18500, promoted: true},
		{id: "1002", url: "https://www.byty-praha.cz/inzerat/1002", title: "Byt 1+1 ve Vršovicích"},
		{id: "1003", url: "https://www.byty-praha.cz/inzerat/1003", title: "Byt 3+kk v Karlíně", promoted: true},
		{id: "1004", title: "Garsoniéra na Smíchově"},
		{id: "1005", title: "Byt 2+1 v Libni"},
		{id: "1006", url: "https://www.byty-praha.cz/inzerat/1006", title: "Byt 4+kk na Vinohradech", promoted: true},
		{id: "1007", title: "Byt 1+kk v Holešovicích"},
	})
}

// Rule 8: a profile that finds nothing falls back to automatic extraction, and
// says so.
func TestRuleProfileFallsBack(t *testing.T) {
	r := readRule(t, "profile-changed", "https://www.kleinanzeigen.de/s-wohnung-mieten/koeln/c203l945", Options{})
	checkListings(t, r, []want{
		{id: "3300000001", title: "Helle 2-Zimmer-Wohnung", value: 890},
		{id: "3300000002", title: "Altbau in Ehrenfeld", price: "1.150 € VB", value: 1150},
	})
	if r.Fallback != "kleinanzeigen.de" || r.Note == "" || r.Method != model.MethodCards {
		t.Errorf("method %s, fallback %q, note %q: want cards, the profile named, a note", r.Method, r.Fallback, r.Note)
	}
	if !strings.HasPrefix(r.Note, "The kleinanzeigen.de profile found nothing") {
		t.Errorf("note %q, want it to name the profile that found nothing", r.Note)
	}
}

// Rule 9: a page with exactly one listing is results, in cards or in data.
func TestRuleOneListing(t *testing.T) {
	r := readRule(t, "one-listing", "https://www.freiburg-wohnen.de/suche?ort=vauban&max=900", Options{})
	checkListings(t, r, []want{{id: "66120", url: "https://www.freiburg-wohnen.de/expose/66120", title: "Passivhaus-Wohnung mit Balkon", value: 860}})
	if !r.Container || r.NoResults {
		t.Errorf("Container=%v NoResults=%v, want a results page", r.Container, r.NoResults)
	}
	r = readRule(t, "one-jsonld", "https://www.wohnen-nord.de/suche", Options{})
	checkListings(t, r, []want{{id: "2231", title: "Ruhige 2-Zimmer-Wohnung", value: 940}})
}

// Rule 10: a page on an international domain whose links are in punycode.
func TestRuleInternationalDomain(t *testing.T) {
	r := readRule(t, "idn", "https://www.müller-immobilien.de/angebote", Options{})
	checkListings(t, r, []want{
		{id: "3101", url: "https://www.xn--mller-immobilien-jzb.de/objekt/3101", title: "Stadtwohnung am Markt", value: 249000},
		{id: "3102", title: "Bungalow am Waldrand", value: 415000},
	})
	if r.Site != "xn--mller-immobilien-jzb.de" {
		t.Errorf("site %q, want the punycode registrable domain", r.Site)
	}
}

// Rule 9, learnt: a search whose own list shrinks to one result keeps reading
// that list — not the longer list of similar offers beside it — once an
// earlier poll found it (Result.Structure passed back as Options.Structure).
func TestRuleLearnsTheSearchsList(t *testing.T) {
	const u = "https://www.koeln-wohnen.de/suche/lindenthal?max=1400"
	before := readRule(t, "similar-3", u, Options{})
	checkListings(t, before, []want{{id: "5101"}, {id: "5102"}, {id: "5103"}})
	if before.Structure == "" {
		t.Fatal("no structure to learn from")
	}
	after := readRule(t, "similar-1", u, Options{Structure: before.Structure})
	checkListings(t, after, []want{{id: "5104", title: "Helle Wohnung am Decksteiner Weiher", value: 1080}})
	// A list under "Ähnliche Angebote" is never read as the results by itself.
	if none := readRule(t, "similar-none", u, Options{}); len(none.Listings) != 0 {
		t.Errorf("a page of recommendations only: %d listings read as results", len(none.Listings))
	}
}

// A search's saved selectors that no longer fit fall back like a profile.
func TestSavedSelectorsFallBack(t *testing.T) {
	body, err := os.ReadFile(filepath.Join(fixtureDir, "rules", "titles.html"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := Extract(body, mustURL("https://www.bremen-wohnen.de/suche"), model.PageSelectors{Item: "li.old-result"})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Listings) != 4 || r.Fallback != model.MethodSelectors || !strings.Contains(r.Note, "selectors") {
		t.Errorf("%d listings, fallback %q, note %q", len(r.Listings), r.Fallback, r.Note)
	}
}

// App state assigned late in a long script is found: a script is searched for
// up to 20 assignments of an object or array, and `var n = 1;` is not one.
func TestRuleAppStateAfterManyAssignments(t *testing.T) {
	var js strings.Builder
	for i := range 25 {
		fmt.Fprintf(&js, "var setting%d = %d; ", i, i)
	}
	js.WriteString(`window.__STATE__ = {"results":[` +
		`{"id":"7001","title":"Zwei Zimmer am Park","url":"/expose/7001","price":"850 €","rooms":2},` +
		`{"id":"7002","title":"Dachgeschoss mit Blick","url":"/expose/7002","price":"1.120 €","rooms":3}]};`)
	page := "<html><head><script>" + js.String() + "</script></head><body><div id=app></div></body></html>"
	r, err := ExtractWith([]byte(page), mustURL("https://www.stadt-wohnen.de/suche"), model.PageSelectors{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkListings(t, r, []want{
		{id: "7001", url: "https://www.stadt-wohnen.de/expose/7001", title: "Zwei Zimmer am Park", value: 850},
		{id: "7002", url: "https://www.stadt-wohnen.de/expose/7002", title: "Dachgeschoss mit Blick", value: 1120},
	})
}

// A numeric id longer than a float64 holds stays digit for digit: two
// listings whose ids differ in the last digits are two listings, not one.
func TestRuleLongNumericIDsStayWhole(t *testing.T) {
	page := `<html><body><script id="__NEXT_DATA__" type="application/json">{"props":{"results":[` +
		`{"id":1234567890123456789,"title":"Altbau mit Balkon","url":"/expose/a","price":"900 €"},` +
		`{"id":1234567890123456788,"title":"Neubau am Kanal","url":"/expose/b","price":"1.050 €"}]}}</script></body></html>`
	r, err := ExtractWith([]byte(page), mustURL("https://www.stadt-wohnen.de/suche"), model.PageSelectors{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkListings(t, r, []want{
		{id: "1234567890123456789", url: "https://www.stadt-wohnen.de/expose/a", title: "Altbau mit Balkon", value: 900},
		{id: "1234567890123456788", url: "https://www.stadt-wohnen.de/expose/b", title: "Neubau am Kanal", value: 1050},
	})
}

// A state assignment is `name = {…}`: a comparison (`a == {`) or an arrow
// (`=> {`) before the real state is not read as one.
func TestRuleStateAssignmentNeedsAName(t *testing.T) {
	page := `<html><head><script>if (x == {"id":"1","title":"Kein Inserat","url":"/expose/1","price":"1 €"}) {}
var f = () => {"id":"2"}; window.__STATE__ = {"list":[` +
		`{"id":"7003","title":"Loft im Hof","url":"/expose/7003","price":"990 €"},` +
		`{"id":"7004","title":"Wohnung am Markt","url":"/expose/7004","price":"760 €"}]};</script></head><body></body></html>`
	r, err := ExtractWith([]byte(page), mustURL("https://www.stadt-wohnen.de/suche"), model.PageSelectors{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkListings(t, r, []want{
		{id: "7003", url: "https://www.stadt-wohnen.de/expose/7003", title: "Loft im Hof", value: 990},
		{id: "7004", url: "https://www.stadt-wohnen.de/expose/7004", title: "Wohnung am Markt", value: 760},
	})
}

// Rule: blocks set apart. A block the page marks as top ads (a data value
// "promo_top_ads", like "premium_ads") and a card labelled as a paid
// placement are not results; a banner of another host and shape inside the
// list is not a listing; a highlighted card of the list's own shape is one,
// promoted.
func TestRuleBlocksSetApart(t *testing.T) {
	r := readRule(t, "blocks-apart", "https://www.mieszkania-przyklad.pl/wynajem/mieszkanie/gdansk/", Options{})
	checkListings(t, r, []want{
		{title: "3 pokoje w Oliwie", value: 3400},
		{title: "Kawalerka na Przymorzu", value: 1750},
		{title: "Loft na Dolnym Mieście", value: 3900, promoted: true},
	})
}

// Rule: a price beside its rate per m² in one element ("2.474.300 € 4.651
// €/m²") is the price; a rate alone is not. A card with no heading, whose
// link's title attribute joins title, town, price and size, is titled by the
// attribute's title part (or the card line that begins with it), and the
// price there counts when the card shows none.
func TestRuleTitleAttribute(t *testing.T) {
	r := readRule(t, "title-attribute", "https://www.immo-beispiel.de/classified-search?locations=AD08DE2350", Options{})
	checkListings(t, r, []want{
		{title: "Mehrfamilienhaus zum Kauf · als Kapitalanlage geeignet", price: "2.474.300 €", value: 2474300},
		{title: "Einfamilienhaus zum Kauf", price: "418.000 €", value: 418000},
		{title: "Wohnung zum Kauf · Balkon und Stellplatz", price: "259.000 €", value: 259000},
	})
}

// Rule: what a page shows on phones only (Bootstrap's visible-xs-block,
// Tailwind's md:hidden) is not read: a size or price written for phones at
// the start of the heading is not part of the title.
func TestRulePhoneOnlyText(t *testing.T) {
	r := readRule(t, "phone-only", "https://www.mieszkania-przyklad.pl/wynajem/mieszkanie/gdansk/", Options{})
	checkListings(t, r, []want{
		{title: "Duże mieszkanie na Siedlcach", value: 2000, size: "72 m²"},
		{title: "Dwupoziomowe mieszkanie, Suchanino", value: 3200, size: "82 m²"},
		{title: "Kawalerka w Oliwie", value: 1450, size: "28 m²"},
	})
}

// Rule: an element named as the title that also holds the card's facts in
// short lines of their own (type, beds, baths) gives its first line.
func TestRuleNamedTitleWithFacts(t *testing.T) {
	r := readRule(t, "named-title", "https://www.property-example.co.uk/property-for-sale/find.html?locationIdentifier=OUTCODE%5E2517", Options{})
	checkListings(t, r, []want{
		{title: "Snarsgate Street, London, W10", value: 725000},
		{title: "Dalgarno Gardens, London, W10", value: 1150000},
		{title: "Portobello Road, London, W10", value: 495000},
	})
}

// Rule: a line that says when the listing was posted ("…, dodane:
// 27-10-2017", "14 mins ago · Brockton") is not its title; a short code
// with one letter ("P.255/50/19", "K9-2") is.
func TestRuleMetaLinesAreNotTitles(t *testing.T) {
	r := readRule(t, "meta-lines", "https://www.ogloszenia-przyklad.pl/szukaj", Options{})
	checkListings(t, r, []want{
		{title: "Szczecin, Pogodno, Grzegorza z Sanoka", value: 2200},
		{title: "Szczecin, Pogodno, Jodłowa", value: 2500},
		{title: "Szczecin, Pogodno, Kasprowicza", value: 2700},
	})
	r = readRule(t, "meta-lines-codes", "https://boston.posts-example.org/search/sss", Options{})
	checkListings(t, r, []want{
		{title: "P.255/50/19", value: 400},
		{title: "K9-2", value: 150},
		{title: "Q-7", value: 150},
	})
}

// Rule: a control's caption ("Travel time", "Save", "Map"), even in an
// element named as a title, and a badge are not titles; a card with no title
// of its own is titled by its address line. A "Premium" badge that only some
// cards show marks a highlight, promoted.
func TestRuleControlsAndAddressTitles(t *testing.T) {
	r := readRule(t, "controls-address", "https://www.homes-example.ch/rent/real-estate/city-lausanne/matching-list", Options{})
	checkListings(t, r, []want{
		{title: "Bel appartement lumineux près du centre", value: 2160, promoted: true}, // its "Premium" badge
		{title: "Rue Neuve 9, 1003 Lausanne", value: 1890},
		{title: "Avenue de Cour 21, 1007 Lausanne", value: 3050},
	})
}

// Rule: prices as people write them, on cards (see TestRulePriceForms for
// the forms alone).
func TestRulePricesAsWritten(t *testing.T) {
	r := readRule(t, "prices-written", "https://www.ogoloshennya-pryklad.ua/nedvizhimost/", Options{})
	checkListings(t, r, []want{
		{price: "12 500 грн.", value: 12500},
		{price: "1 200 лв.", value: 1200},
		{price: "8.5万円", value: 85000},
		{price: "₹ 45 lakh", value: 4500000},
		{price: "2k €", value: 2000},
		{price: "1,2 Mio. €", value: 1200000},
		{price: "3 250 zł", value: 3250}, // the spaces folded as the page shows them
		{price: "$2,225", value: 2225},
	})
	for i, cur := range []string{"UAH", "BGN", "JPY", "INR", "EUR", "EUR", "PLN", "USD"} {
		if i < len(r.Listings) && r.Listings[i].Currency != cur {
			t.Errorf("listing %d currency %q, want %q", i, r.Listings[i].Currency, cur)
		}
	}
}

// Rule: a card with several links (its photo gallery, its agent, a map)
// leads to the listing by the link around its heading; the photo count is
// neither the title nor the price.
func TestRuleSeveralLinksPerCard(t *testing.T) {
	r := readRule(t, "several-links", "https://www.wohnen-beispiel.de/mieten/koeln", Options{})
	checkListings(t, r, []want{
		{url: "https://www.wohnen-beispiel.de/objekt/81001", title: "Helle 3-Zimmer-Wohnung mit Balkon", value: 1150},
		{url: "https://www.wohnen-beispiel.de/objekt/81002", title: "Altbau in Sülz, ruhige Lage", value: 980},
		{url: "https://www.wohnen-beispiel.de/objekt/81003", title: "Penthouse am Rheinufer", value: 2400},
	})
}

// Rule: when the page draws 9 cards and leaves the other slots empty, and
// its data holds 36 results with the same ids, the data is the list.
func TestRuleDataHoldsMoreThanDrawn(t *testing.T) {
	r := readRule(t, "data-holds-more", "https://www.wohnen-wien-beispiel.at/suche", Options{})
	if len(r.Listings) != 36 {
		t.Fatalf("%d listings (method %s), want the 36 of the data", len(r.Listings), r.Method)
	}
	for i, l := range r.Listings {
		if want := fmt.Sprintf("https://www.wohnen-wien-beispiel.at/expose/%d", 4100+i); l.URL != want || l.Title == "" || l.PriceValue != float64(900+10*i) {
			t.Errorf("listing %d = %s %q %v, want %s, a title, %d", i, l.URL, l.Title, l.PriceValue, want, 900+10*i)
		}
	}
}

// Rule: grouped listings. A building's card holding a table of its units
// (floor, rent, layout and size, a link each) gives one listing per unit,
// titled by the building's name with the unit's facts.
func TestRuleGroupedUnits(t *testing.T) {
	r := readRule(t, "grouped-units", "https://suumo-beispiel.jp/chintai/tokyo/sc_shibuya/", Options{})
	checkListings(t, r, []want{
		{url: "https://suumo-beispiel.jp/chintai/jnc_000100011/", title: "パークハウス渋谷 · 3階 · 1LDK 45.2m²", price: "12.5万円", value: 125000},
		{title: "パークハウス渋谷 · 5階 · 1LDK 47.0m²", value: 138000},
		{title: "パークハウス渋谷 · 8階 · 2LDK 68.4m²", value: 210000},
		{title: "グランドメゾン目黒 · 2階 · 1K 25.1m²", value: 98000},
		{title: "グランドメゾン目黒 · 6階 · 1K 25.1m²", value: 102000},
		{title: "シティハイツ中野 · 4階 · 1DK 30.5m²", value: 84000},
		{url: "https://suumo-beispiel.jp/chintai/jnc_000100032/", title: "シティハイツ中野 · 7階 · 1DK 30.5m²", value: 89000},
	})
}
