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
		if r.Method, r.Listings = p.withCards(ls, MethodJSONLD, true, p.ldPrices); r.Method == MethodJSONLD {
			writeLDPrices(r.Listings, p.ldPrices)
		}
	} else if ls, m := p.appState(); len(ls) >= 2 {
		r.Method, r.Listings = p.withCards(ls, m, false, nil)
	} else if cs := p.cards(); len(cs) > 0 {
		r.Method, r.Listings = MethodCards, cs
	}
	r.Container = len(r.Listings) > 0
	return r
}

// withCards settles listings from structured data against the page's cards.
// The cards supersede the structured data when they show more listings and
// include (nearly) all of them (supersedes). That takes a list with more
// members than there are listings, so the card search runs only on a page
// that has one, reading what decides it (the cards' links and ids) and what
// the listings lack (in full when they win). Otherwise each listing is
// enriched from its own card (listingCards), read only for the fields that
// listing lacks or may take.
// pending, when not nil, holds the prices of ls not written out yet (see
// jsonLD): such a listing has a price, shown as formatPrice will show it.
func (p *page) withCards(ls []Listing, method string, idFromCard bool, pending []ldPendingPrice) (string, []Listing) {
	gs := p.cardGroups()
	if mayOutnumber(gs, len(ls)) {
		// The cards are read for what the listings lack too: when they
		// supersede listings that lack everything (an SEO snippet of
		// links), they are read once.
		want := wantID
		for i := range ls {
			want |= enrichWant(&ls[i], idFromCard, pending != nil && pending[i].set)
		}
		if cs, c := p.bestCards(gs, want); supersedes(cs, ls) {
			if want != wantAll {
				cs = p.buildCards(c, wantAll)
			}
			return MethodCards, cs
		}
	}
	for _, pr := range p.listingCards(gs, ls) {
		l := &ls[pr.listing]
		priced := pending != nil && pending[pr.listing].set
		c := p.cardFields(gs[pr.group].members[pr.member].n, p.link(pr.anchor), enrichWant(l, idFromCard, priced))
		enrichOne(l, &c, idFromCard, priced)
	}
	return method, ls
}

// mayOutnumber reports whether one of the lists the card search examines has
// more members than there are listings (n): only then can its cards
// supersede the structured data.
func mayOutnumber(gs []*group, n int) bool {
	for _, g := range gs {
		if len(g.members) > n {
			return true
		}
	}
	return false
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

// cardPair is a listing (its index in the listings) and its card: member
// member of group group (indexes in the card search's groups), and the
// card's link to the listing (an index in page.anchors).
type cardPair struct {
	listing, group, member, anchor int
}

// listingCards finds each listing's card: of the lists the card search
// examines, the one whose members link to the most of the listings (on a
// tie, the one it ranks first), and in it the first member that links to
// the listing — by its URL, or by the id in the link's URL (a link without
// the feed's tracking parameters). A member that links to two listings is a
// row of a grid, not a card; a member the site marks as an ad is not a
// listing's card. Fewer than two cards (one for a single listing) are not a
// list: none.
//
// (Before, the listings were enriched from the cards of the list the card
// search picked, by URL: a list of bare links, which the search rejects as a
// menu, enriched nothing, and a card whose URL differs only by tracking
// parameters could be given another listing's card by its data-id.)
func (p *page) listingCards(gs []*group, ls []Listing) []cardPair {
	x := newListingIndex(ls)
	best, cur := p.cardPairs[:0], p.cardPairsCur[:0]
	defer func() { p.cardPairs, p.cardPairsCur = best[:0], cur[:0] }()
	taken := p.pairTaken[:0]
	defer func() { p.pairTaken = taken[:0] }()
	for range (len(ls) + 63) / 64 {
		taken = append(taken, 0)
	}
	for gi, g := range gs {
		if len(g.members) <= len(best) {
			continue // cannot link to more listings than the best
		}
		cur = cur[:0]
		clear(taken)
		for mi, m := range g.members {
			li, ai := p.memberListing(m, &x)
			if li < 0 || taken[li/64]&(1<<(li%64)) != 0 {
				continue
			}
			if p.adMarked(m.n) || p.adMarked(p.anchors[ai].n) || ai != m.firstAnchor && p.adMarked(p.anchors[m.firstAnchor].n) {
				continue
			}
			taken[li/64] |= 1 << (li % 64)
			cur = append(cur, cardPair{listing: li, group: gi, member: mi, anchor: ai})
		}
		if len(cur) > len(best) {
			best, cur = cur, best
			if len(best) == len(ls) {
				break // (no list can link to more)
			}
		}
	}
	if len(best) < min(2, len(ls)) {
		return nil
	}
	return best
}

// memberListing is the listing a list member links to (its index in the
// listings) and the member's first link to it (an index in page.anchors);
// -1 if it links to none or to two.
func (p *page) memberListing(m childRec, x *listingIndex) (li, ai int) {
	li, ai = -1, -1
	end := min(m.firstAnchor+m.anchors, m.firstAnchor+60) // (as the card search)
	for i := m.firstAnchor; i < end; i++ {
		a := p.link(i)
		if !a.ok {
			continue
		}
		k := x.byURL(a.canon)
		if k < 0 {
			if id := p.idOf(i); id != "" {
				k = x.byID(id)
			}
		}
		switch {
		case k < 0:
		case li < 0:
			li, ai = k, i
		case k != li:
			return -1, -1
		}
	}
	return li, ai
}

// listingIndex finds a listing by its URL or its id: along the list while
// short, in maps once longer.
type listingIndex struct {
	ls        []Listing
	urls, ids map[string]int
}

func newListingIndex(ls []Listing) listingIndex {
	x := listingIndex{ls: ls}
	if len(ls) > 16 {
		x.urls, x.ids = make(map[string]int, len(ls)), make(map[string]int, len(ls))
		for i := len(ls) - 1; i >= 0; i-- { // (the first listing with a key)
			x.urls[ls[i].URL] = i
			if ls[i].ID != "" {
				x.ids[ls[i].ID] = i
			}
		}
	}
	return x
}

// byURL is the first listing with URL u, -1 if none.
func (x *listingIndex) byURL(u string) int { return x.find(u, false) }

// byID is the first listing with id id, -1 if none.
func (x *listingIndex) byID(id string) int { return x.find(id, true) }

// find is the first listing whose URL (with id, whose id) is k, -1 if none.
func (x *listingIndex) find(k string, id bool) int {
	if m := x.urls; m != nil {
		if id {
			m = x.ids
		}
		if i, ok := m[k]; ok {
			return i
		}
		return -1
	}
	for i := range x.ls {
		v := x.ls[i].URL
		if id {
			v = x.ls[i].ID
		}
		if v == k {
			return i
		}
	}
	return -1
}

// enrichWant is what enrichOne can take from a card for l: its id (with
// idFromCard), its promotion, its fields l lacks, and a price shown with its
// currency when l's is not (priced: l has a price not written out yet).
func enrichWant(l *Listing, idFromCard, priced bool) cardWant {
	want := wantPromoted
	if idFromCard {
		want |= wantID
	}
	if !hasPrice(l, priced) || l.PriceValue == 0 || !priceShowsCurrency(l, priced) { // (see enrichOne)
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
	return want
}

// enrichOne fills l's empty fields from its card c. idFromCard lets the
// card's id replace one derived from the URL only (JSON-LD rarely carries the
// site's id; app state always does). priced: l has a price not written out
// yet (see jsonLD).
func enrichOne(l, c *Listing, idFromCard, priced bool) {
	if idFromCard && c.ID != "" {
		l.ID = c.ID
	}
	if c.Price != "" { // prefer the price as the page shows it, when it agrees
		v, cur := parsePrice(c.Price)
		if !hasPrice(l, priced) || l.PriceValue == 0 || v == l.PriceValue && !priceShowsCurrency(l, priced) {
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

// hasPrice reports whether l has a price, written out or not (priced).
func hasPrice(l *Listing, priced bool) bool {
	return l.Price != "" || priced
}

// priceShowsCurrency is currencyShown of l's price; of the price formatPrice
// will write when it is not written yet (priced): a number, a space and the
// currency, of which only the currency can show a sign.
func priceShowsCurrency(l *Listing, priced bool) bool {
	if l.Price == "" && priced {
		return currencyShown(l.Currency)
	}
	return currencyShown(l.Price)
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
