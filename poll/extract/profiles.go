package extract

import (
	"strings"

	"notifio/internal/model"
)

// Profile is what we know of one site's result pages, as selectors (data, not
// code). Fields left empty are read the way automatic extraction reads them.
type Profile struct {
	Name    string   // Result.Site; "profile:<Name>" is Result.Method
	Hosts   []string // exact hosts (a "www." prefix is accepted too): the domain serves other things
	Domains []string // registrable domains
	// Container is the results list; Item one result inside the page; Link the
	// element inside an item that leads to the listing ("" = the item's first
	// link, or the item's own data-href).
	Container, Item, Link string
	Fields                fieldSel
	Exclude               string   // items that are paid placements, not results
	NoResults             string   // an element only a no-results page has
	NoResultsText         []string // phrases (lower case) of the site's no-results page
}

// profiles are the sites whose pages we know; host-specific ones first.
// idealista and immobilienscout24 are written from public knowledge of their
// markup and pinned by our own fixtures only.
var profiles = []*Profile{
	{
		Name: "immo.swp.de", Hosts: []string{"immo.swp.de"},
		Container: ".item-list-serp", Item: ".js-serp-item", Link: "a.js-item-title-link",
		Fields:        fieldSel{Title: "a.js-item-title-link"},
		NoResultsText: []string{"0 ergebnisse", "keine ergebnisse", "keine passenden", "keine treffer"},
	},
	{
		Name: "schwarzesbrett.bremen.de", Hosts: []string{"schwarzesbrett.bremen.de"},
		Container: "#results", Item: "#results > div", Link: `h3 a[href*="/show/"]`,
		Fields:        fieldSel{Price: "span.fa-circle-euro + span", Location: "span.fa-location-pin + span"},
		NoResultsText: []string{"keine anzeigen", "keine einträge", "keine ergebnisse", "nichts gefunden"},
	},
	{
		Name: "kleinanzeigen.de", Domains: []string{"kleinanzeigen.de", "ebay-kleinanzeigen.de"},
		Container: "#srchrslt-adtable", Item: "#srchrslt-adtable > li:has(article.aditem[data-adid])", Link: "h2 a",
		Fields:        fieldSel{Title: "h2", Price: ".aditem-main--middle--price-shipping--price", Location: ".aditem-main--top--left", Promoted: ".is-highlight"},
		Exclude:       ".is-topad",
		NoResultsText: []string{"es wurden leider keine anzeigen", "keine anzeigen gefunden", "leider keine ergebnisse", "keine ergebnisse gefunden"},
	},
	{
		Name: "wg-gesucht.de", Domains: []string{"wg-gesucht.de"},
		Container: "#main_column", Item: "div.wgg_card.offer_list_item[data-id]", Link: "h2.truncate_title a",
		Fields:        fieldSel{Title: "h2.truncate_title a", Price: ".middle .col-xs-3", Size: ".middle .text-right", Location: ".col-xs-11 > span", LocationAfter: "|"},
		Exclude:       "[data-campaign_type=premium_ads], :has(a.premium_sticky_asset), :has(a[data-campaign_type=premium_ads])",
		NoResultsText: []string{"keine passenden angebote", "leider keine angebote", "keine angebote gefunden", "keine anzeigen gefunden"},
	},
	{
		Name: "immobilien.de", Domains: []string{"immobilien.de"},
		Container: ".lr-results, .lr-grid", Item: "a.lr-card",
		Fields:        fieldSel{Title: ".lr-card__title", Price: ".lr-card__price-amount", Location: ".lr-card__address span", Promoted: ".lr-card--premium"},
		NoResultsText: []string{"0 aktuelle angebote", "keine angebote gefunden", "keine passenden angebote", "keine ergebnisse"},
	},
	{
		Name: "idealista", Domains: []string{"idealista.com", "idealista.it", "idealista.pt"},
		Container: "main.listing-items, section.items-container, div.items-container, .items-list", Item: "article.item", Link: "a.item-link",
		Fields:        fieldSel{Title: "a.item-link", Price: ".item-price"},
		NoResults:     ".zero-results, #zero-results",
		NoResultsText: []string{"no hay anuncios", "nessun annuncio", "não há anúncios", "no results", "ningún anuncio"},
	},
	{
		Name: "immobilienscout24.de", Domains: []string{"immobilienscout24.de"},
		Container: `#resultListItems, [data-testid="result-list"], .result-list`,
		Item:      `li.result-list__listing, div.listing-card[data-obid], [data-testid="result-list-item"]`, Link: `a[href*="/expose/"]`,
		Fields:        fieldSel{Title: `.result-list-entry__brand-title, [data-testid="headline"], h2, h3, h5`, Location: `.result-list-entry__address, [data-testid="hybridViewAddress"], .result-list-entry__map-link`},
		NoResultsText: []string{"keine passenden angebote", "leider haben wir keine", "0 angebote", "keine treffer", "keine ergebnisse"},
	},
}

// profileFor returns the profile for a page host, nil if there is none.
func profileFor(host string) *Profile {
	h := strings.TrimPrefix(strings.TrimSuffix(strings.ToLower(host), "."), "www.")
	for _, p := range profiles {
		for _, ph := range p.Hosts {
			if h == ph {
				return p
			}
		}
	}
	site := model.SiteOf(host)
	for _, p := range profiles {
		for _, d := range p.Domains {
			if site == d {
				return p
			}
		}
	}
	return nil
}

// byProfile reads a page with a site's profile.
func (pg *page) byProfile(p *Profile) model.PageResult {
	r := model.PageResult{Site: p.Name, Method: "profile:" + p.Name}
	if p.NoResults != "" && pg.doc.FindMatcher(matcher(p.NoResults)).Length() > 0 {
		r.NoResults = true
		return r
	}
	r.Container = p.Container != "" && pg.doc.FindMatcher(matcher(p.Container)).Length() > 0
	items := pg.doc.FindMatcher(matcher(p.Item))
	if p.Exclude != "" {
		items = items.NotMatcher(matcher(p.Exclude))
	}
	cards := pg.itemCards(items, p.Link)
	r.Listings = pg.readCards(cards, p.Fields)
	r.Container = r.Container || len(cards) > 0
	if len(r.Listings) == 0 {
		r.NoResults = pg.saysNoResults(p.NoResultsText)
	}
	return r
}
