package extract

import "strings"

// generic extracts from a page no profile knows: schema.org JSON-LD first, then
// embedded app state, then the repeated-card heuristic. Listings from JSON-LD or
// app state are enriched from the matching cards (same URL), which carry what the
// page shows (the price as shown, the site's id in a data attribute).
func (p *page) generic() Result {
	p.scan()
	var r Result
	if ls, inList := p.jsonLD(); len(ls) >= 2 || len(ls) == 1 && inList {
		r.Method, r.Listings = p.withCards(ls, MethodJSONLD, true)
	} else if ls, m := p.appState(); len(ls) >= 2 {
		r.Method, r.Listings = p.withCards(ls, m, false)
	} else if cs := p.cards(); len(cs) > 0 {
		r.Method, r.Listings = MethodCards, cs
	}
	r.Container = len(r.Listings) > 0
	return r
}

// withCards settles listings from structured data against the page's cards:
// the cards when they supersede it, else the listings enriched from them.
// Cards that only enrich are read for the fields enrich can use (the id,
// promotion, and what some listing lacks or may take: a price shown with its
// currency when the listing's is not); read in full only when they win.
func (p *page) withCards(ls []Listing, method string, idFromCard bool) (string, []Listing) {
	want := wantID | wantPromoted
	for i := range ls {
		l := &ls[i]
		if l.Price == "" || l.PriceValue == 0 || !currencyShown(l.Price) { // (see enrich)
			want |= wantPrice
		}
		if l.Title == "" {
			want |= wantTitle
		}
		if l.Location == "" {
			want |= wantLocation
		}
		if l.Size == "" || l.Rooms == "" {
			want |= wantSizeRooms
		}
		if l.Image == "" {
			want |= wantImage
		}
	}
	cs, c := p.cardsWanting(want)
	if supersedes(cs, ls) {
		if want != wantAll {
			cs = p.buildCards(c, wantAll)
		}
		return MethodCards, cs
	}
	return method, enrich(ls, cs, idFromCard)
}

// supersedes reports whether the cards show more listings than the structured
// data lists and include (nearly) all of them: structured data that covers only
// the first few results (an SEO snippet) must not hide the rest.
func supersedes(cards, ls []Listing) bool {
	if len(cards) <= len(ls) {
		return false
	}
	urls := make(map[string]bool, len(cards))
	for _, c := range cards {
		urls[c.URL] = true
	}
	in := 0
	for _, l := range ls {
		if urls[l.URL] {
			in++
		}
	}
	return in*10 >= len(ls)*8
}

// enrich fills each listing's empty fields from the card with the same URL.
// idFromCard lets the card's id replace one derived from the URL only (JSON-LD
// rarely carries the site's id; app state always does).
func enrich(ls, cards []Listing, idFromCard bool) []Listing {
	if len(cards) == 0 {
		return ls
	}
	cardOf := indexCards(cards, len(cards) > fewCards)
	for i := range ls {
		l := &ls[i]
		c := cardOf.of(l)
		if c == nil {
			continue
		}
		if idFromCard && c.ID != "" {
			l.ID = c.ID
		}
		if c.Price != "" { // prefer the price as the page shows it, when it agrees
			v, cur := parsePrice(c.Price)
			if l.Price == "" || l.PriceValue == 0 || v == l.PriceValue && !currencyShown(l.Price) {
				if cur == "" {
					cur = l.Currency
				}
				l.Price, l.PriceValue, l.Currency = c.Price, v, cur
			}
		}
		for _, f := range []struct {
			dst *string
			src string
		}{{&l.Title, c.Title}, {&l.Location, c.Location}, {&l.Size, c.Size}, {&l.Rooms, c.Rooms}, {&l.Image, c.Image}} {
			if *f.dst == "" {
				*f.dst = f.src
			}
		}
		l.Promoted = l.Promoted || c.Promoted
	}
	return ls
}

// fewCards is the most cards enrich searches rather than hashes.
const fewCards = 16

// cardIndex finds the card a listing is enriched from: the last card with
// its URL, else the last with its id (as maps filled in order give them).
type cardIndex struct {
	cards       []Listing
	byURL, byID map[string]*Listing // (when hashed)
}

func indexCards(cards []Listing, hashed bool) cardIndex {
	x := cardIndex{cards: cards}
	if hashed {
		x.byURL = make(map[string]*Listing, len(cards))
		x.byID = make(map[string]*Listing, len(cards))
		for i := range cards {
			x.byURL[cards[i].URL] = &cards[i]
			if cards[i].ID != "" {
				x.byID[cards[i].ID] = &cards[i]
			}
		}
	}
	return x
}

// of is l's card, nil if none.
func (x *cardIndex) of(l *Listing) *Listing {
	if x.byURL != nil {
		if c := x.byURL[l.URL]; c != nil || l.ID == "" {
			return c
		}
		return x.byID[l.ID]
	}
	for i := len(x.cards) - 1; i >= 0; i-- {
		if x.cards[i].URL == l.URL {
			return &x.cards[i]
		}
	}
	if l.ID != "" {
		for i := len(x.cards) - 1; i >= 0; i-- {
			if x.cards[i].ID == l.ID {
				return &x.cards[i]
			}
		}
	}
	return nil
}

// currencyShown reports whether a price text shows a currency sign (is
// formatted for people, not "1250 EUR" made from a machine value).
func currencyShown(s string) bool {
	// (strings.ContainsAny(s, "€$£") by bytes: a sign's first byte is a
	// lead byte, so where its bytes stand, the character stands. One pass:
	// a search for each sign cost more than the short prices they look at.)
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '$':
			return true
		case 0xE2: // € is E2 82 AC
			if i+2 < len(s) && s[i+1] == 0x82 && s[i+2] == 0xAC {
				return true
			}
		case 0xC2: // £ is C2 A3
			if i+1 < len(s) && s[i+1] == 0xA3 {
				return true
			}
		case 'C':
			if strings.HasPrefix(s[i:], "CHF ") {
				return true
			}
		case 'z': // ł is C5 82
			if i+2 < len(s) && s[i+1] == 0xC5 && s[i+2] == 0x82 {
				return true
			}
		}
	}
	return false
}
