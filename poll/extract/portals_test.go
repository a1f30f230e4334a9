package extract

import (
	"os"
	"path/filepath"
	"testing"

	"notifio/internal/model"
)

// Pages of our own written after the result markup of portals no profile
// knows (testdata/extract/portals: UK, Irish, Dutch, French, Italian, Polish,
// Swedish, Norwegian, Czech, Russian, Swiss, US, Australian and German sites), read by automatic extraction as a page
// nobody tuned for would be. They measure whether the rules are general; the
// ones marked "rule" failed before the rule they name.
func TestPortalPages(t *testing.T) {
	cases := []struct {
		name, url string
		want      []want
	}{
		// rule: the agent's page, linked from the same place in the markup as
		// the listing, does not make a card a container of two listings.
		{"rightmove", "https://www.rightmove.co.uk/property-to-rent/find.html?locationIdentifier=REGION%5E93965", []want{
			{id: "148123456", url: "https://www.rightmove.co.uk/properties/148123456", title: "2 bedroom flat", price: "£2,600", value: 2600, location: "Upper Street, London N1", promoted: true},
			{id: "147998877", url: "https://www.rightmove.co.uk/properties/147998877", title: "1 bedroom apartment", value: 1950},
			{id: "146554433", url: "https://www.rightmove.co.uk/properties/146554433", title: "Studio flat", value: 1400},
			{id: "145000111", url: "https://www.rightmove.co.uk/properties/145000111", title: "3 bedroom maisonette", value: 3250},
		}},
		// rule: "per month" is a rent, not a price per m²; a heading that is
		// the price line is not the title.
		{"daft", "https://www.daft.ie/property-for-rent/dublin-city", []want{
			{id: "5512345", url: "https://www.daft.ie/for-rent/apartment-12-the-grand-canal-dublin-2/5512345", title: "12 The Grand Canal, Dublin 2", price: "€2,450", value: 2450, rooms: "2 Bed", promoted: true}, // its "Featured" callout
			{id: "5509876", title: "4 Oak Road, Rathmines, Dublin 6", value: 3200, rooms: "3 Bed"},
			{id: "5507001", title: "33 Parnell Street, Dublin 1", value: 1650},
			{id: "5505432", title: "7 Harbour View, Ringsend, Dublin 4", value: 2900},
		}},
		// rule: the postcode line inside the heading is the place, not the title.
		{"funda", "https://www.funda.nl/zoeken/huur?selected_area=%5B%22amsterdam%22%5D", []want{
			{id: "43512345", url: "https://www.funda.nl/detail/huur/amsterdam/appartement-kerkstraat-12-a/43512345/", title: "Kerkstraat 12 A", value: 2150, location: "1017 GB Amsterdam", size: "65 m²"},
			{id: "43498765", title: "Van Woustraat 201 2", value: 1795, location: "1074 AJ Amsterdam"},
			{id: "43477001", title: "Jan Steenstraat 8", value: 3400},
			{id: "43460222", title: "Ceintuurbaan 77 H", value: 1650},
		}},
		// rule: a listing's own "subject" is its title, not its owner's "name".
		{"leboncoin", "https://www.leboncoin.fr/recherche?category=10&locations=Paris", []want{
			{id: "2678123456", url: "https://www.leboncoin.fr/ad/locations/2678123456", title: "Appartement 2 pièces 42 m² - Paris 11e", value: 1450, location: "Paris", rooms: "2"},
			{id: "2678100001", title: "Studio meublé proche métro", value: 890},
			{id: "2678099900", title: "Grand 3 pièces avec balcon", value: 2100},
		}},
		{"subito", "https://www.subito.it/annunci-lombardia/affitto/appartamenti/milano/milano/", []want{
			{id: "537123456", url: "https://www.subito.it/appartamenti/bilocale-navigli-arredato-milano-537123456.htm", title: "Bilocale Navigli arredato", price: "1.200 €", value: 1200, rooms: "2 locali"},
			{id: "537100222", title: "Trilocale Città Studi", value: 1650},
			{id: "537088801", title: "Monolocale Porta Romana", value: 850},
		}},
		{"otodom", "https://www.otodom.pl/pl/wyniki/wynajem/mieszkanie/mazowieckie/warszawa", []want{
			{url: "https://www.otodom.pl/pl/oferta/apartament-2-pokoje-mokotow-ID4pQrS", title: "Apartament 2 pokoje Mokotów, balkon", price: "3 500 zł", value: 3500, size: "45 m²", rooms: "2 pokoje"},
			{url: "https://www.otodom.pl/pl/oferta/kawalerka-centrum-ID4pA1b", title: "Kawalerka w centrum, blisko metra", value: 2700},
			{url: "https://www.otodom.pl/pl/oferta/3-pokoje-wola-nowe-ID4pZz9", title: "3 pokoje na Woli, nowe budownictwo", value: 4900},
			{url: "https://www.otodom.pl/pl/oferta/mieszkanie-praga-ID4pYy2", title: "Mieszkanie Praga Północ", price: ""},
		}},
		{"hemnet", "https://www.hemnet.se/bostader?location_ids%5B%5D=18031", []want{
			{id: "21234567", url: "https://www.hemnet.se/bostad/lagenhet-2rum-sodermalm-stockholms-kommun-hornsgatan-48-21234567", title: "Hornsgatan 48", price: "4 250 000 kr", value: 4250000, size: "54 m²", rooms: "2 rum"},
			{id: "21230011", title: "Odengatan 90", value: 2195000},
			{id: "21228800", title: "Fleminggatan 12", value: 6900000},
			{id: "21227777", title: "Karlavägen 5", value: 5495000},
		}},
		{"craigslist", "https://sfbay.craigslist.org/search/apa", []want{
			{id: "7712345678", url: "https://sfbay.craigslist.org/sfc/apa/d/san-francisco-sunny-1br-near-dolores/7712345678.html", title: "Sunny 1BR near Dolores Park, in-unit laundry", price: "$3,150", value: 3150},
			{id: "7712300011", title: "Remodeled 2BR/1BA with parking", value: 4200},
			{id: "7712299900", title: "Studio in Nob Hill - utilities included", value: 2095},
			{id: "7712288877", url: "https://eastbay.craigslist.org/eby/apa/d/oakland-large-bedroom-house-with-yard/7712288877.html", title: "Large 3 bedroom house with yard", value: 3600},
		}},
		{"immowelt", "https://www.immowelt.de/classified-search?distributionTypes=Rent&locations=AD08DE6345", []want{
			{id: "2bnvg5k", url: "https://www.immowelt.de/expose/2bnvg5k", title: "Helle 2-Raum-Wohnung mit Balkon in Gohlis", price: "645 €", value: 645, size: "58 m²", rooms: "2 Zimmer"},
			{id: "2bmk7x4", title: "Sanierte Altbauwohnung nahe Südplatz", value: 890},
			{id: "2bqq1a9", title: "Neubau: 1-Zimmer-Apartment mit EBK", value: 520},
		}},
		// rule: JSON that a script wraps in an HTML comment is read; a
		// record without a title is named by its address; a bare area from the
		// data has no unit (sq ft here, m² elsewhere).
		{"zillow", "https://www.zillow.com/seattle-wa/rentals/", []want{
			{id: "2061234567", url: "https://www.zillow.com/homedetails/1420-E-Pine-St-APT-302-Seattle-WA-98122/2061234567_zpid/", title: "1420 E Pine St APT 302, Seattle, WA 98122", price: "$2,195", value: 2195, size: "640"},
			{id: "2061200011", title: "512 N 36th St, Seattle, WA 98103", value: 3050},
			{id: "2061188800", url: "https://www.zillow.com/homedetails/3308-California-Ave-SW-Seattle-WA-98116/2061188800_zpid/", title: "3308 California Ave SW, Seattle, WA 98116", value: 4400},
		}},
		// rule: a price and the date beside it in the next element are two
		// things ("€ 2.350,00" "28 nov"); correlationId is tracking; "kamers"
		// are rooms.
		{"marktplaats", "https://www.marktplaats.nl/l/huizen-en-kamers/huizen-te-huur/#q:utrecht", []want{
			{id: "2012345678", url: "https://www.marktplaats.nl/v/huizen-en-kamers/huizen-te-huur/m2012345678-ruim-appartement-centrum-utrecht", title: "Ruim appartement centrum Utrecht", price: "€ 1.895,00", value: 1895, size: "85 m²", rooms: "3 kamers", promoted: true},
			{id: "2012300011", title: "Studio Lombok", value: 1150, rooms: "1 kamer"},
			{id: "2012288877", url: "https://www.marktplaats.nl/v/huizen-en-kamers/huizen-te-huur/m2012288877-eengezinswoning-leidsche-rijn", title: "Eengezinswoning Leidsche Rijn", price: "€ 2.350,00", value: 2350},
		}},
		// rule: "2 Beds" and "1 Bath" in elements side by side are two facts.
		{"domain", "https://www.domain.com.au/rent/bondi-nsw-2026/", []want{
			{id: "16512345", url: "https://www.domain.com.au/12-smith-street-bondi-nsw-2026-16512345", title: "12 Smith Street, BONDI NSW 2026", value: 1150, rooms: "2 Beds"},
			{id: "16509876", title: "4/38 Campbell Parade, BONDI BEACH NSW 2026", value: 850, rooms: "1 Bed"},
			{id: "16507001", title: "7 Ocean Street, BONDI NSW 2026", price: "", rooms: "3 Beds"},
		}},
		// rule: an element the card names as its title is the title though it
		// reads like a postcode line ("2204 Rio Grande St"); a range has no value.
		{"apartments", "https://www.apartments.com/austin-tx/", []want{
			{id: "8kl7m2x", url: "https://www.apartments.com/the-bowie-austin-tx/8kl7m2x/", title: "The Bowie", price: "$1,795 - $6,250"},
			{id: "3ab9qz1", title: "Eastside Lofts", price: "$1,420 - $2,980"},
			{id: "zz41k0p", title: "2204 Rio Grande St", value: 1150},
		}},
		// rule: ?reason= is tracking, not part of the listing's URL.
		{"olx", "https://www.olx.pl/nieruchomosci/mieszkania/wynajem/krakow/", []want{
			{id: "891234567", url: "https://www.olx.pl/d/oferta/2-pokoje-kazimierz-balkon-CID3-ID17abcD.html", title: "2 pokoje Kazimierz, balkon", price: "3 200 zł", value: 3200, size: "48 m²", promoted: true}, // its "Wyróżnione" badge
			{id: "891200011", url: "https://www.olx.pl/d/oferta/kawalerka-krowodrza-CID3-ID17xyzE.html", title: "Kawalerka Krowodrza", value: 2100},
			{id: "891188800", title: "3-pokojowe Podgórze", value: 4300},
		}},
		{"immobiliare", "https://www.immobiliare.it/affitto-case/bologna/", []want{
			{id: "112345678", url: "https://www.immobiliare.it/annunci/112345678/", title: "Bilocale via San Vitale 40, Centro Storico, Bologna", price: "€ 1.100", value: 1100, size: "60 m²", rooms: "2 locali", promoted: true},
			{id: "112300011", title: "Trilocale via Mazzini 112, Mazzini, Bologna", value: 1350},
			{id: "112288877", title: "Monolocale via Zamboni 20, Università, Bologna", value: 750},
		}},
		// rule: ₽ is a currency ("85 000 ₽ в месяц").
		{"avito", "https://www.avito.ru/moskva/kvartiry/sdam-ASgBAgICAUSSA8gQ", []want{
			{id: "3712345678", url: "https://www.avito.ru/moskva/kvartiry/2-k._kvartira_54m_512et._3712345678", title: "2-к. квартира, 54 м², 5/12 эт.", price: "85 000 ₽", value: 85000, location: "Хамовники, ул. Льва Толстого, 16"},
			{id: "3712300011", title: "Квартира-студия, 25 м², 3/9 эт.", value: 42000},
			{id: "3712288800", title: "3-к. квартира, 78 м², 7/17 эт.", value: 120000},
		}},
		// rule: ’ groups thousands as ' does, and ".–" ends a whole amount ("CHF 3’450.–").
		{"homegate", "https://www.homegate.ch/mieten/immobilien/ort-zuerich/trefferliste", []want{
			{id: "4001234567", url: "https://www.homegate.ch/mieten/4001234567", title: "Moderne Wohnung mit Seesicht", price: "CHF 3’450.–", value: 3450, location: "Seestrasse 120, 8002 Zürich", size: "82 m²", rooms: "3.5 Zimmer"},
			{id: "4001230011", title: "Charmante Altbauwohnung im Kreis 4", value: 2180},
			{id: "4001228800", title: "Studio nahe ETH", price: "CHF 1'690.–", value: 1690},
		}},
		// rule: a parameter with one value on every card whose path is its own
		// is not part of the listing's URL (?search_identifier=); an <address>
		// is the place.
		{"zoopla", "https://www.zoopla.co.uk/to-rent/property/manchester/", []want{
			{id: "67123456", url: "https://www.zoopla.co.uk/to-rent/details/67123456/", title: "2 bed flat to rent", price: "£1,250", value: 1250, location: "Deansgate, Manchester M3", rooms: "2 beds"},
			{id: "67100011", url: "https://www.zoopla.co.uk/to-rent/details/67100011/", title: "Studio to rent", value: 850, location: "Northern Quarter, Manchester M4"},
			{id: "67088800", url: "https://www.zoopla.co.uk/to-rent/details/67088800/", title: "3 bed semi-detached house to rent", value: 1600},
		}},
		// rule: an element named as a region that holds the price is the card,
		// not its place.
		{"sreality", "https://www.sreality.cz/hledani/pronajem/byty/praha", []want{
			{id: "2112345678", url: "https://www.sreality.cz/detail/pronajem/byt/2+kk/praha-vinohrady-manesova/2112345678", title: "Pronájem bytu 2+kk 54 m²", price: "24 900 Kč", value: 24900, noLocation: true},
			{id: "2112300011", title: "Pronájem bytu 1+kk 32 m²", value: 18500},
			{id: "2112288800", title: "Pronájem bytu 3+1 85 m²", value: 32000},
		}},
		{"finn", "https://www.finn.no/realestate/lettings/search.html?location=0.20061", []want{
			{id: "312345678", url: "https://www.finn.no/realestate/lettings/ad.html?finnkode=312345678", title: "Lys 3-roms med balkong på Grünerløkka", price: "17 500 kr", value: 17500, size: "68 m²"},
			{id: "312300011", title: "Hybel nær Blindern", value: 7900},
			{id: "312288800", title: "Rekkehus med hage, Nordstrand", value: 28000},
		}},
		{"gumtree", "https://www.gumtree.com/property-to-rent/hackney", []want{
			{id: "1471234567", url: "https://www.gumtree.com/p/property-to-rent/bright-2-bed-flat-in-dalston/1471234567", title: "Bright 2 bed flat in Dalston", price: "£1,950", value: 1950, location: "Dalston, London"},
			{id: "1471200011", title: "Double room in shared house, Homerton", value: 240},
			{id: "1471188800", title: "One bed flat, London Fields", value: 1600},
		}},
		// rule: an object whose members are objects is a collection keyed by
		// id (Apollo's or Redux's normalized state), not one listing made of
		// its members' fields.
		{"normalized-state", "https://www.rentnest.ca/toronto/apartments", []want{
			{id: "88123", url: "https://www.rentnest.ca/listings/88123-sunny-1-bedroom-near-trinity-bellwoods", title: "Sunny 1 bedroom near Trinity Bellwoods", value: 2350},
			{id: "88124", title: "Renovated 2 bed townhouse in Leslieville", value: 3400},
			{id: "88125", title: "Studio condo at Yonge and Eglinton", value: 1900},
		}},
		// rule: state given to JSON.parse as a string literal is read.
		{"json-parse-state", "https://www.casavista.es/alquiler/pisos/valencia", []want{
			{id: "VLC-55101", url: "https://www.casavista.es/alquiler/piso/VLC-55101", title: "Piso reformado en Ruzafa", value: 950, location: "Ruzafa, Valencia"},
			{id: "VLC-55102", title: "Ático con terraza en El Carmen", value: 1250},
			{id: "VLC-55103", title: "Estudio junto a la playa", value: 700},
		}},
		// rule: behind one script (a CMS's index.php), a link whose query
		// names another page is a listing, not this list's next page; the
		// plugin's object=4711 is its id, not the CMS's page id=25.
		{"cms-index-php", "https://www.wg-lindenau.de/index.php?id=24", []want{
			{id: "4711", url: "https://www.wg-lindenau.de/index.php?id=25&tx_immo_pi1%5Bobject%5D=4711&cHash=8f1a2b", title: "2-Raum-Wohnung Merseburger Straße 12", price: "325,00 €", value: 325, size: "54,3 m²", rooms: "2 Räume"},
			{id: "4712", title: "3-Raum-Wohnung Lützner Straße 88", value: 412},
			{id: "4715", title: "1-Raum-Wohnung Gießerstraße 3", value: 198, rooms: "1 Raum"},
		}},
		// rule: a table row shows what its column headings say: the currency
		// and the unit written only in "Nutzungsgebühr (€)", "Wohnfläche (m²)".
		{"coop-table", "https://www.bauverein-kiel.de/freie-wohnungen", []want{
			{url: "https://www.bauverein-kiel.de/wohnungen/holtenauer-str-112-eg-links", title: "Holtenauer Str. 112, EG links", price: "498,00 €", value: 498, size: "54,20 m²", rooms: "2"},
			{url: "https://www.bauverein-kiel.de/wohnungen/knooper-weg-45-2og", title: "Knooper Weg 45, 2. OG", value: 655.5},
			{url: "https://www.bauverein-kiel.de/wohnungen/feldstr-9-dg", title: "Feldstraße 9, DG", value: 312},
		}},
		// rule: a card clicked through script (onclick="location.href='…'")
		// leads to its listing; "titel" names a title.
		{"onclick-cards", "https://www.hv-sommer.de/mietangebote.php", []want{
			{id: "2031", url: "https://www.hv-sommer.de/expose.php?objekt=2031", title: "Gemütliche 2-Zimmer-Wohnung mit Balkon", price: "540,00 EUR", value: 540, size: "58 m²", location: "Erfurt-Krämpfervorstadt"},
			{id: "2035", title: "Dachgeschosswohnung nahe Domplatz", value: 690},
			{id: "2040", url: "https://www.hv-sommer.de/expose.php?objekt=2040", title: "Single-Apartment, renoviert", value: 310},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			body, err := os.ReadFile(filepath.Join(fixtureDir, "portals", c.name+".html"))
			if err != nil {
				t.Fatal(err)
			}
			r, err := Extract(body, mustURL(c.url), model.PageSelectors{})
			if err != nil {
				t.Fatal(err)
			}
			checkListings(t, r, c.want)
		})
	}
}
