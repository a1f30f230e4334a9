package extract

import (
	"net/url"
	"strings"

	"github.com/andybalholm/cascadia"
	"golang.org/x/net/html"
)

// profile is what we know of one site's result pages.
type profile struct {
	name string // Result.Site, and "profile:<name>" is Result.Method
	// hosts: exact hosts this profile is for (host-specific: the registrable
	// domain also serves other things); a "www." prefix is accepted too.
	hosts []string
	// domains: registrable domains this profile is for.
	domains   []string
	container cascadia.Selector // the results container (may be empty)
	items     cascadia.Selector // the result cards, matched from the document root
	// listing reads one card; false drops it (ad slots, paid placements outside
	// the results, cards without an id).
	listing func(p *page, card *html.Node) (Listing, bool)
	// noResultsSel, when it matches, marks a no-results page (checked always);
	// noResults phrases (lower case) are looked for only when no card was found.
	noResultsSel cascadia.Selector
	noResults    []string
}

var sel = cascadia.MustCompile

// q returns the first descendant of n matching m, nil if none.
func q(n *html.Node, m cascadia.Selector) *html.Node {
	if n == nil {
		return nil
	}
	return cascadia.Query(n, m)
}

// qa returns the descendants of n matching m.
func qa(n *html.Node, m cascadia.Selector) []*html.Node {
	if n == nil {
		return nil
	}
	return cascadia.QueryAll(n, m)
}

// profiles, host-specific ones first.
var profiles []*profile

func init() {
	profiles = []*profile{immoSWP, schwarzesBrett, kleinanzeigen, wgGesucht, immobilienDE, idealista, immoscout24}
}

// profileFor returns the profile for a page host, nil if there is none.
func profileFor(host string) *profile {
	return profileOf(strings.ToLower(strings.TrimSuffix(host, ".")), registrable(host))
}

// profile is profileFor the page's host, from what its resolver knows of it
// (the host in lower case, its registrable domain).
func (p *page) profile() *profile {
	return profileOf(strings.TrimSuffix(p.res.host, "."), p.res.domain)
}

// profileOf is the profile for host (lower case, no trailing dot) on
// registrable domain d.
func profileOf(host, d string) *profile {
	for _, p := range profiles {
		for _, h := range p.hosts {
			if host == h || len(host) == len(h)+4 && host[:4] == "www." && host[4:] == h { // (host == "www."+h, not built)
				return p
			}
		}
	}
	for _, p := range profiles {
		for _, pd := range p.domains {
			if d == pd {
				return p
			}
		}
	}
	return nil
}

// byProfile extracts with a site profile.
func (p *page) byProfile(prof *profile) Result {
	r := Result{Site: prof.name, Method: "profile:" + prof.name}
	if prof.container != nil {
		r.Container = q(p.root, prof.container) != nil
	}
	for _, card := range qa(p.root, prof.items) {
		if l, ok := prof.listing(p, card); ok {
			r.Listings = append(r.Listings, l)
		}
	}
	if len(r.Listings) > 0 {
		r.Container = true
	}
	if prof.noResultsSel != nil && q(p.root, prof.noResultsSel) != nil {
		r.NoResults = true
	}
	return r
}

// linkListing fills URL (canonical, on the page's site) from href; false if the
// link is unusable.
func (p *page) linkListing(l *Listing, href string) bool {
	var u url.URL // (on the stack: only its string is kept)
	if !p.res.resolveTo(href, &u) {
		return false
	}
	l.URL = urlString(&u)
	if l.ID == "" {
		l.ID = idFromURL(&u)
	}
	return true
}

// splitFacts sorts short facts ("70 m²", "2 Zi.") into size and rooms.
func splitFacts(l *Listing, parts ...string) {
	for _, t := range parts {
		t = fold(t)
		switch {
		case t == "":
		case l.Size == "" && mayBeSize(t) && findSize(t) != "":
			l.Size = t
		case l.Rooms == "" && mayBeRooms(t) && findRooms(t) != "":
			l.Rooms = t
		}
	}
}

// hasAncestorClass reports whether an ancestor of n has class c.
func hasAncestorClass(n *html.Node, c string) bool {
	for x := n.Parent; x != nil; x = x.Parent {
		if hasClass(x, c) {
			return true
		}
	}
	return false
}

// ---- kleinanzeigen.de ----

var (
	kaArticle  = sel("article.aditem[data-adid]")
	kaTitle    = sel("h2 a")
	kaH2       = sel("h2")
	kaPrice    = sel(".aditem-main--middle--price-shipping--price")
	kaLocation = sel(".aditem-main--top--left")
	kaTags     = sel(".aditem-main--middle--tags")
	kaImage    = sel(".aditem-image img")
)

// kleinanzeigen: #srchrslt-adtable > li.ad-listitem > article.aditem[data-adid].
// li.is-topad (TOP-Anzeigen above the results) are paid placements, not results;
// li.is-highlight is a highlighted result (promoted). Empty li are ad slots.
var kleinanzeigen = &profile{
	name:      "kleinanzeigen.de",
	domains:   []string{"kleinanzeigen.de", "ebay-kleinanzeigen.de"},
	container: sel("#srchrslt-adtable"),
	items:     sel("#srchrslt-adtable > li"),
	listing: func(p *page, li *html.Node) (Listing, bool) {
		art := q(li, kaArticle)
		if art == nil || hasClass(li, "is-topad") {
			return Listing{}, false
		}
		l := Listing{ID: attr(art, "data-adid"), Promoted: hasClass(li, "is-highlight")}
		href := attr(art, "data-href")
		a := q(art, kaTitle)
		if href == "" {
			href = attr(a, "href")
		}
		if !p.linkListing(&l, href) {
			return Listing{}, false
		}
		if a != nil {
			l.Title = text(a)
		} else {
			l.Title = text(q(art, kaH2))
		}
		l.Price = text(q(art, kaPrice)) // text() leaves out the struck-through old price
		l.Location = dropDistance(text(q(art, kaLocation)))
		splitFacts(&l, strings.Split(text(q(art, kaTags)), "·")...)
		if img := q(art, kaImage); img != nil {
			l.Image = p.imageOf(img)
		}
		return l, true
	},
	noResults: []string{"es wurden leider keine anzeigen", "keine anzeigen gefunden", "leider keine ergebnisse", "keine ergebnisse gefunden"},
}

// ---- wg-gesucht.de ----

var (
	wgPaid     = sel("a.premium_sticky_asset, a[data-campaign_type=premium_ads]")
	wgTitle    = sel("h2.truncate_title a")
	wgPrice    = sel(".middle .col-xs-3")
	wgSize     = sel(".middle .text-right")
	wgLocation = sel(".col-xs-11 > span")
	wgImage    = sel(".card_image img")
)

// wg-gesucht: div.wgg_card.offer_list_item[data-id]. Excluded: cards whose links
// are premium ads (the sticky card in the list, and the premium_user_extra_list
// block "Weitere Angebote von verifizierten Anbietern" below it). Partner ads and
// the promo card have no data-id. Every card repeats itself in a hidden
// .printonly block, so fields are read from their own elements only.
var wgGesucht = &profile{
	name:      "wg-gesucht.de",
	domains:   []string{"wg-gesucht.de"},
	container: sel("#main_column, .wgg_card.offer_list_item"),
	items:     sel("div.wgg_card.offer_list_item[data-id]"),
	listing: func(p *page, card *html.Node) (Listing, bool) {
		if hasAncestorClass(card, "premium_user_extra_list") || q(card, wgPaid) != nil {
			return Listing{}, false
		}
		l := Listing{ID: attr(card, "data-id")}
		a := q(card, wgTitle)
		if a == nil || !p.linkListing(&l, attr(a, "href")) {
			return Listing{}, false
		}
		l.Title = text(a)
		l.Price = text(q(card, wgPrice))
		l.Size = text(q(card, wgSize))
		// "3er WG | Düsseldorf Derendorf | Jülicher Straße 96": the first part is
		// the flat share's size, not a room count.
		if _, loc, ok := strings.Cut(text(q(card, wgLocation)), "|"); ok {
			l.Location = strings.TrimSpace(loc)
		}
		if img := q(card, wgImage); img != nil {
			l.Image = p.imageOf(img)
		}
		return l, true
	},
	noResults: []string{"keine passenden angebote", "leider keine angebote", "keine angebote gefunden", "keine anzeigen gefunden",
		"0 wg-zimmer", "0 wohnungen", "0 1-zimmer-wohnungen", "0 häuser"},
}

// ---- immobilien.de ----

var (
	idTitle     = sel(".lr-card__title")
	idPrice     = sel(".lr-card__price-amount")
	idAddress   = sel(".lr-card__address span")
	idFact      = sel(".lr-card__fact")
	idFactLabel = sel(".lr-card__fact-label")
	idFactValue = sel(".lr-card__fact-value")
	idImage     = sel("img.lr-card__gallery-img")
)

// immobilien.de: each card is one a.lr-card href="/wohnen/<id>" with schema.org
// microdata; lr-card--premium is an in-list paid highlight (promoted).
var immobilienDE = &profile{
	name:      "immobilien.de",
	domains:   []string{"immobilien.de"},
	container: sel(".lr-results, .lr-grid"),
	items:     sel("a.lr-card"),
	listing: func(p *page, a *html.Node) (Listing, bool) {
		l := Listing{Promoted: hasClass(a, "lr-card--premium")}
		if !p.linkListing(&l, attr(a, "href")) || l.ID == "" {
			return Listing{}, false
		}
		l.Title = text(q(a, idTitle))
		l.Price = text(q(a, idPrice))
		l.Location = text(q(a, idAddress))
		for _, f := range qa(a, idFact) {
			switch v := text(q(f, idFactValue)); strings.ToLower(text(q(f, idFactLabel))) {
			case "fläche", "wohnfläche":
				l.Size = v
			case "zimmer":
				l.Rooms = v
			}
		}
		if img := q(a, idImage); img != nil {
			l.Image = p.imageOf(img)
		}
		return l, true
	},
	noResults: []string{"0 aktuelle angebote", "keine angebote gefunden", "keine passenden angebote", "keine ergebnisse"},
}

// ---- immo.swp.de ----

var (
	swpBookmark = sel("button.js-bookmark-btn[data-id]")
	swpTitle    = sel("a.js-item-title-link")
	swpFacts    = sel(".d-flex.align-items-start > div")
	swpImage    = sel(".item__img-wrap img")
	swpMarker   = sel(".cmicon-map-marker")
)

// immo.swp.de (host-specific: swp.de serves other things): div.js-serp-item in
// div.item-list-serp; id = the bookmark button's data-id (alphanumeric, also the
// URL's last '-' token). The Google ad slots (div.banner-serp-results) are not
// cards. The "Top"/"Premium"/"Neu" badges are in every card (shown by CSS), so
// they mark nothing.
var immoSWP = &profile{
	name:      "immo.swp.de",
	hosts:     []string{"immo.swp.de"},
	container: sel(".item-list-serp"),
	items:     sel(".js-serp-item"),
	listing: func(p *page, card *html.Node) (Listing, bool) {
		bm := q(card, swpBookmark)
		l := Listing{ID: attr(bm, "data-id")}
		a := q(card, swpTitle)
		href := attr(a, "href")
		if href == "" {
			href = attr(bm, "data-url")
		}
		if !p.linkListing(&l, href) {
			return Listing{}, false
		}
		l.Title = text(a)
		if l.Title == "" {
			l.Title = fold(attr(a, "title"))
		}
		for i, f := range qa(card, swpFacts) {
			t := text(f)
			switch {
			case l.Price == "" && (looksLikePrice(t) || i == 0 && findSize(t) == "" && findRooms(t) == ""):
				l.Price = t // the first fact is the price, also "Preis auf Anfrage"
			default:
				splitFacts(&l, t)
			}
		}
		l.Location = fold(attr(bm, "data-address"))
		if l.Location == "" {
			if m := q(card, swpMarker); m != nil {
				l.Location = text(m.Parent)
			}
		}
		if img := q(card, swpImage); img != nil {
			l.Image = p.imageOf(img)
		}
		return l, true
	},
	noResults: []string{"0 ergebnisse", "keine ergebnisse", "keine passenden", "keine treffer"},
}

// ---- schwarzesbrett.bremen.de ----

var (
	sbLink  = sel(`h3 a[href*="/show/"]`)
	sbEuro  = sel("span.fa-circle-euro")
	sbPin   = sel("span.fa-location-pin")
	sbImage = sel("img")
)

// schwarzesbrett.bremen.de (host-specific): Tailwind markup with no semantic
// classes; cards are the children of #results, id = /show/<id>. The card image
// is the category's icon, not a photo.
var schwarzesBrett = &profile{
	name:      "schwarzesbrett.bremen.de",
	hosts:     []string{"schwarzesbrett.bremen.de"},
	container: sel("#results"),
	items:     sel("#results > div"),
	listing: func(p *page, card *html.Node) (Listing, bool) {
		a := q(card, sbLink)
		var l Listing
		if a == nil || !p.linkListing(&l, attr(a, "href")) || l.ID == "" {
			return Listing{}, false
		}
		l.Title = text(a)
		if e := q(card, sbEuro); e != nil {
			l.Price = text(nextElement(e))
		}
		if pin := q(card, sbPin); pin != nil {
			l.Location = text(nextElement(pin))
		}
		if img := q(card, sbImage); img != nil && !strings.Contains(attr(img, "src"), "/icons/") {
			l.Image = p.imageOf(img)
		}
		return l, true
	},
	noResults: []string{"keine anzeigen", "keine einträge", "keine ergebnisse", "nichts gefunden"},
}

// ---- idealista (UNVERIFIED) ----

var (
	ilLink   = sel("a.item-link")
	ilPrice  = sel(".item-price")
	ilDetail = sel(".item-detail")
	ilImage  = sel("img")
)

// idealista.com/.it/.pt — UNVERIFIED: written from the publicly known markup
// (article.item[data-element-id] with a.item-link, .item-price, .item-detail;
// article.adv are ads), not checked against a captured page.
var idealista = &profile{
	name:      "idealista",
	domains:   []string{"idealista.com", "idealista.it", "idealista.pt"},
	container: sel("main.listing-items, section.items-container, div.items-container, .items-list"),
	items:     sel("article.item"),
	listing: func(p *page, art *html.Node) (Listing, bool) {
		if hasClass(art, "adv") || adMarked(art) {
			return Listing{}, false
		}
		l := Listing{ID: attr(art, "data-element-id"), Promoted: promotedMarked(art)}
		if l.ID == "" {
			l.ID = attr(art, "data-adid")
		}
		a := q(art, ilLink)
		if a == nil || !p.linkListing(&l, attr(a, "href")) {
			return Listing{}, false
		}
		l.Title = fold(attr(a, "title"))
		if l.Title == "" {
			l.Title = text(a)
		}
		l.Price = text(q(art, ilPrice))
		for _, d := range qa(art, ilDetail) {
			splitFacts(&l, text(d))
		}
		if img := q(art, ilImage); img != nil {
			l.Image = p.imageOf(img)
		}
		p.fillFromCard(&l, art)
		return l, true
	},
	noResultsSel: sel(".zero-results, #zero-results"),
	noResults:    []string{"no hay anuncios", "nessun annuncio", "não há anúncios", "no results", "ningún anuncio"},
}

// ---- immobilienscout24.de (UNVERIFIED) ----

var (
	isLink     = sel(`a[href*="/expose/"]`)
	isTitle    = sel(`.result-list-entry__brand-title, [data-testid="headline"], h2, h3, h5`)
	isCriteria = sel(`dl`)
	isDT       = sel(`dt`)
	isDD       = sel(`dd`)
	isAddress  = sel(`.result-list-entry__address, [data-testid="hybridViewAddress"], .result-list-entry__map-link`)
)

// immobilienscout24.de — UNVERIFIED: written from the publicly known markup
// (#resultListItems > li.result-list__listing[data-id] with /expose/<id> links
// and dl criteria "Kaltmiete / Wohnfläche / Zimmer"; the newer listing-card
// layout with data-obid), not checked against a captured results page (the one
// capture we have is a captcha page, which Result.Blocked reports).
var immoscout24 = &profile{
	name:      "immobilienscout24.de",
	domains:   []string{"immobilienscout24.de"},
	container: sel(`#resultListItems, [data-testid="result-list"], .result-list`),
	items:     sel(`li.result-list__listing, div.listing-card[data-obid], [data-testid="result-list-item"]`),
	listing: func(p *page, card *html.Node) (Listing, bool) {
		if adMarked(card) {
			return Listing{}, false
		}
		l := Listing{ID: attr(card, "data-id"), Promoted: promotedMarked(card)}
		if l.ID == "" {
			l.ID = attr(card, "data-obid")
		}
		a := q(card, isLink)
		if a == nil || !p.linkListing(&l, attr(a, "href")) {
			return Listing{}, false
		}
		if t := q(card, isTitle); t != nil {
			l.Title = strings.TrimPrefix(text(t), "NEU ")
		}
		for _, dl := range qa(card, isCriteria) {
			label := strings.ToLower(text(q(dl, isDT)))
			v := text(q(dl, isDD))
			switch {
			case strings.Contains(label, "miete") || strings.Contains(label, "preis"):
				if l.Price == "" {
					l.Price = v
				}
			case strings.Contains(label, "fläche"):
				l.Size = v
			case strings.Contains(label, "zimmer") || strings.HasPrefix(label, "zi"):
				l.Rooms = v
			}
		}
		l.Location = text(q(card, isAddress))
		p.fillFromCard(&l, card)
		return l, true
	},
	noResults: []string{"keine passenden angebote", "leider haben wir keine", "0 angebote", "keine treffer", "keine ergebnisse"},
}

// fillFromCard fills the fields an unverified profile did not find with the
// generic card reading.
func (p *page) fillFromCard(l *Listing, card *html.Node) {
	if l.Title != "" && l.Price != "" && l.Location != "" && l.Size != "" && l.Rooms != "" && l.Image != "" {
		return
	}
	var want cardWant
	for _, f := range []struct {
		have string
		want cardWant
	}{{l.Title, wantTitle}, {l.Price, wantPrice}, {l.Location, wantLocation}, {l.Size, wantSizeRooms}, {l.Rooms, wantSizeRooms}, {l.Image, wantImage}} {
		if f.have == "" {
			want |= f.want
		}
	}
	g := p.cardFields(card, &anchor{n: card, canon: l.URL}, want)
	for _, f := range []struct {
		dst *string
		src string
	}{
		{&l.Title, g.Title}, {&l.Price, g.Price}, {&l.Location, g.Location}, {&l.Size, g.Size}, {&l.Rooms, g.Rooms}, {&l.Image, g.Image},
	} {
		if *f.dst == "" {
			*f.dst = f.src
		}
	}
}
