package extract

import (
	"fmt"
	"strings"
	"testing"
)

// ldPage is a result page whose JSON-LD ItemList holds one Apartment for
// each of urls (named after ldNames, no price, no size), with body as its markup.
func ldPage(body string, urls ...string) []byte {
	var items []string
	for i, u := range urls {
		items = append(items, fmt.Sprintf(`{"@type":"ListItem","position":%d,"item":{"@type":"Apartment","name":%q,"url":%q}}`, i+1, ldNames[i], u))
	}
	return []byte(`<!DOCTYPE html><html><head><title>Mieten in Kiel</title>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"ItemList","itemListElement":[` + strings.Join(items, ",") + `]}</script>
</head><body>` + body + `</body></html>`)
}

// ldNames are the listings' names (without digits: a short text with one
// beside a price is read as part of the price).
var ldNames = []string{"Am Hafen", "In der Wik", "Gaarden Ost", "Hassee", "Ellerbek", "Elmschenhagen"}

// TestListingsEnrichedFromTheirOwnCards: a listing from structured data takes
// what it lacks from its own card — the member, of the list that links to the
// most of the listings, that links to it — not from whichever list the card
// search would pick, and not from a card that links to two listings or is
// marked as an ad. Cards still replace the structured data when they show
// more listings and include it.
func TestListingsEnrichedFromTheirOwnCards(t *testing.T) {
	const site = "https://www.nordhaus.de"
	u := mustURL(site + "/mieten/kiel")
	a, b, c := site+"/angebot/wohnung-4101", site+"/angebot/wohnung-4102", site+"/angebot/wohnung-4103"
	type want struct{ price, size, title string }
	cases := []struct {
		name   string
		page   []byte
		method string
		want   []want // the listings' price, size and title, in order
	}{
		{
			name: "a list of bare links gives what it shows (the card search rejects it as a menu)",
			page: []byte(`<html><head><title>Kiel</title><script type="application/ld+json">{"@type":"ItemList","itemListElement":[
{"@type":"ListItem","item":{"@type":"Apartment","url":"/angebot/wohnung-4101","offers":{"price":"700","priceCurrency":"EUR"}}},
{"@type":"ListItem","item":{"@type":"Apartment","url":"/angebot/wohnung-4102","offers":{"price":"800","priceCurrency":"EUR"}}}]}</script></head>
<body><div><a href="/angebot/wohnung-4101">Zwei Zimmer am Hafen</a></div><div><a href="/angebot/wohnung-4102">Altbau in der Wik</a></div></body></html>`),
			method: MethodJSONLD,
			want:   []want{{"700 EUR", "", "Zwei Zimmer am Hafen"}, {"800 EUR", "", "Altbau in der Wik"}},
		},
		{
			name: "a card's price replaces the structured one only when it agrees, and when that shows no currency sign",
			page: []byte(`<html><head><title>Kiel</title><script type="application/ld+json">{"@type":"ItemList","itemListElement":[
{"@type":"ListItem","item":{"@type":"Apartment","name":"Am Hafen","url":"/angebot/wohnung-4101","offers":{"price":"700","priceCurrency":"EUR"}}},
{"@type":"ListItem","item":{"@type":"Apartment","name":"In der Wik","url":"/angebot/wohnung-4102","offers":{"price":800,"priceCurrency":"EUR"}}},
{"@type":"ListItem","item":{"@type":"Apartment","name":"Gaarden Ost","url":"/angebot/wohnung-4103","offers":{"price":"900","priceCurrency":"€"}}}]}</script></head>
<body><ul><li><a href="/angebot/wohnung-4101">Am Hafen</a> <span>700 € kalt</span></li><li><a href="/angebot/wohnung-4102">In der Wik</a> <span>850 € warm</span></li>
<li><a href="/angebot/wohnung-4103">Gaarden Ost</a> <span>900 € kalt</span></li></ul></body></html>`),
			method: MethodJSONLD,
			want:   []want{{"700 € kalt", "", "Am Hafen"}, {"800 EUR", "", "In der Wik"}, {"900 €", "", "Gaarden Ost"}},
		},
		{
			name: "the list that links to the listings, not a richer list of other flats",
			page: ldPage(`<section class="results"><ul>
<li><a href="/angebot/wohnung-4101">Am Hafen</a> <span>710 €</span> <span>51 m²</span></li>
<li><a href="/angebot/wohnung-4102">In der Wik</a> <span>720 €</span> <span>52 m²</span></li>
<li><a href="/angebot/wohnung-4103">Gaarden Ost</a> <span>730 €</span> <span>53 m²</span></li>
</ul></section>
<section><div class="grid">
<article><h3><a href="/angebot/wohnung-9901">Penthouse mit Fördeblick und Dachterrasse</a></h3><img src="/img/9901.jpg"><p>2.990 € · 160 m² · 5 Zimmer</p></article>
<article><h3><a href="/angebot/wohnung-9902">Villa am Düsternbrook mit Garten</a></h3><img src="/img/9902.jpg"><p>3.500 € · 210 m² · 7 Zimmer</p></article>
<article><h3><a href="/angebot/wohnung-9903">Loft im Wissenschaftspark</a></h3><img src="/img/9903.jpg"><p>1.990 € · 120 m² · 3 Zimmer</p></article>
</div></section>`, a, b, c),
			method: MethodJSONLD,
			want:   []want{{"710 €", "51 m²", "Am Hafen"}, {"720 €", "52 m²", "In der Wik"}, {"730 €", "53 m²", "Gaarden Ost"}},
		},
		{
			name: "a link without the feed's parameters is the listing's by the id in its URL",
			page: ldPage(`<ul>
<li><a href="/angebot/wohnung-4101">Am Hafen</a> <span>710 €</span></li>
<li><a href="/angebot/wohnung-4102">In der Wik</a> <span>720 €</span></li>
</ul>`, a+"?ref=list", b+"?ref=list"),
			method: MethodJSONLD,
			want:   []want{{"710 €", "", "Am Hafen"}, {"720 €", "", "In der Wik"}},
		},
		{
			name: "rows that each link to two listings are not cards",
			page: ldPage(`<div class="rows">
<div class="row"><a href="/angebot/wohnung-4101">Am Hafen</a> <span>710 €</span> <p><a href="/angebot/wohnung-4102">In der Wik</a></p></div>
<div class="row"><a href="/angebot/wohnung-4103">Gaarden Ost</a> <span>730 €</span> <p><a href="/angebot/wohnung-4104">Hassee</a></p></div>
<div class="row"><a href="/angebot/wohnung-4105">Ellerbek</a> <span>750 €</span> <p><a href="/angebot/wohnung-4106">Elmschenhagen</a></p></div>
</div>`, a, b, c, site+"/angebot/wohnung-4104", site+"/angebot/wohnung-4105", site+"/angebot/wohnung-4106"),
			method: MethodJSONLD,
			want: []want{{"", "", "Am Hafen"}, {"", "", "In der Wik"}, {"", "", "Gaarden Ost"}, {"", "", "Hassee"},
				{"", "", "Ellerbek"}, {"", "", "Elmschenhagen"}},
		},
		{
			name: "a list that links to one listing three times covers one listing",
			page: ldPage(`<div class="gallery">
<figure><a href="/angebot/wohnung-4101"><img src="/img/1a.jpg"></a> <figcaption><b>Blick vom Balkon</b> auf die Förde</figcaption></figure>
<figure><a href="/angebot/wohnung-4101"><img src="/img/1b.jpg"></a> <figcaption><b>Die Küche</b> mit Fenster zum Hof</figcaption></figure>
<figure><a href="/angebot/wohnung-4101"><img src="/img/1c.jpg"></a> <figcaption><b>Das Bad</b> mit Wanne und Fenster</figcaption></figure>
</div>
<ul><li><a href="/angebot/wohnung-4101">Am Hafen</a> <span>710 €</span></li><li><a href="/angebot/wohnung-4102">In der Wik</a> <span>720 €</span></li></ul>`, a, b),
			method: MethodJSONLD,
			want:   []want{{"710 €", "", "Am Hafen"}, {"720 €", "", "In der Wik"}},
		},
		{
			name: "of two lists that link to as many listings, the one the card search ranks first",
			page: ldPage(`<ul class="results">
<li><a href="/angebot/wohnung-4101">Am Hafen</a> <span class="price">710 €</span> <span>mit Balkon und Einbauküche</span></li>
<li><a href="/angebot/wohnung-4102">In der Wik</a> <span class="price">720 €</span> <span>ruhig gelegen, nahe Kanal</span></li>
</ul>
<ol><li><a href="/angebot/wohnung-4101">Am Hafen</a> <span>711 €</span></li><li><a href="/angebot/wohnung-4103">Gaarden Ost</a> <span>731 €</span></li></ol>`, a, b, c),
			method: MethodJSONLD,
			want:   []want{{"710 €", "", "Am Hafen"}, {"720 €", "", "In der Wik"}, {"", "", "Gaarden Ost"}},
		},
		{
			name: "a card marked as an ad gives nothing; the first card of a listing gives",
			page: ldPage(`<ul>
<li class="is-topad"><a href="/angebot/wohnung-4101">Am Hafen</a> <span>999 €</span></li>
<li><a href="/angebot/wohnung-4102">In der Wik</a> <span>720 €</span></li>
<li><a href="/angebot/wohnung-4103">Gaarden Ost</a> <span>730 €</span></li>
<li><a href="/angebot/wohnung-4103">Gaarden Ost</a> <span>735 €</span></li>
</ul>`, a, b, c),
			method: MethodJSONLD,
			want:   []want{{"", "", "Am Hafen"}, {"720 €", "", "In der Wik"}, {"730 €", "", "Gaarden Ost"}},
		},
		{
			name: "a card whose first link is an ad is no listing's card",
			page: ldPage(`<ul>
<li><a class="advert" href="/werbung/77">Anzeige</a> <a href="/angebot/wohnung-4101">Am Hafen</a> <span>999 €</span></li>
<li><a href="/angebot/wohnung-4102">In der Wik</a> <span>720 €</span></li>
<li><a href="/angebot/wohnung-4103">Gaarden Ost</a> <span>730 €</span></li>
</ul>`, a, b, c),
			method: MethodJSONLD,
			want:   []want{{"", "", "Am Hafen"}, {"720 €", "", "In der Wik"}, {"730 €", "", "Gaarden Ost"}},
		},
		{
			name:   "one listing of a list, one card",
			page:   ldPage(`<ul><li><a href="/angebot/wohnung-4101">Am Hafen</a> <span>710 €</span></li><li><a href="/hilfe">Hilfe</a></li></ul>`, a),
			method: MethodJSONLD,
			want:   []want{{"710 €", "", "Am Hafen"}},
		},
		{
			name: "cards that show more listings and include the structured ones replace them",
			page: ldPage(`<ul>
<li><a href="/angebot/wohnung-4101">Erste</a> <span>710 €</span></li>
<li><a href="/angebot/wohnung-4102">Zweite</a> <span>720 €</span></li>
<li><a href="/angebot/wohnung-4103">Dritte</a> <span>730 €</span></li>
<li><a href="/angebot/wohnung-4104">Vierte</a> <span>740 €</span></li>
</ul>`, a, b),
			method: MethodCards,
			want:   []want{{"710 €", "", "Erste"}, {"720 €", "", "Zweite"}, {"730 €", "", "Dritte"}, {"740 €", "", "Vierte"}},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Extract(tc.page, u, Selectors{})
			if err != nil {
				t.Fatal(err)
			}
			var got []want
			for _, l := range r.Listings {
				got = append(got, want{l.Price, l.Size, l.Title})
			}
			if r.Method != tc.method || fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Fatalf("method %s, listings (price, size, title) %v;\nwant %s, %v", r.Method, got, tc.method, tc.want)
			}
		})
	}
}
