package extract

import (
	"errors"
	"net/url"
	"strconv"
	"strings"
)

// listingTypes are the schema.org types that stand for one listing.
var listingTypes = map[string]bool{
	"Offer": true, "Product": true, "Residence": true, "Apartment": true, "House": true,
	"SingleFamilyResidence": true, "Accommodation": true, "Room": true, "RealEstateListing": true,
	"ApartmentComplex": true, "GatedResidenceCommunity": true, "Suite": true, "IndividualProduct": true,
	"Vehicle": true, "Car": true, "ClassifiedAd": true,
}

// ldTypesOf returns the @type values of an object whose @type member is v
// (nil when it has none), appended to buf[:0].
func ldTypesOf(v any, buf []string) []string {
	out := buf[:0]
	switch t := v.(type) {
	case jstr:
		return append(out, ldType(t.val()))
	case jarr:
		for _, x := range t.elems() {
			if s, ok := x.(jstr); ok {
				out = append(out, ldType(s.val()))
			}
		}
	}
	return out
}

func ldType(s string) string {
	return strings.TrimPrefix(strings.TrimPrefix(s, "http://schema.org/"), "https://schema.org/")
}

func hasType(m jobj, set map[string]bool) bool {
	switch t := m.get("@type").(type) {
	case jstr:
		return set[ldType(t.val())]
	case jarr:
		for _, x := range t.elems() {
			if s, ok := x.(jstr); ok && set[ldType(s.val())] {
				return true
			}
		}
	}
	return false
}

// noLDType reports whether m has no @type value (ldTypes would be empty).
func noLDType(m jobj) bool {
	switch t := m.get("@type").(type) {
	case jstr:
		return false
	case jarr:
		for _, x := range t.elems() {
			if _, ok := x.(jstr); ok {
				return false
			}
		}
	}
	return true
}

// detach copies the text fields of listings read from a script, which may
// share the script's memory (the JSON reader does not copy strings, and a
// plain absolute URL is its own string), so that a stored listing does not
// keep the page's scripts alive.
func detach(ls []Listing) {
	n := 0
	for i := range ls {
		l := &ls[i]
		n += len(l.ID) + len(l.URL) + len(l.Title) + len(l.Price) + len(l.Currency) + len(l.Location) + len(l.Size) + len(l.Rooms) + len(l.Image)
	}
	if n == 0 {
		return
	}
	// One copy of all the texts, which the fields then share.
	var b strings.Builder
	b.Grow(n)
	for i := range ls {
		l := &ls[i]
		for _, f := range []*string{&l.ID, &l.URL, &l.Title, &l.Price, &l.Currency, &l.Location, &l.Size, &l.Rooms, &l.Image} {
			b.WriteString(*f)
		}
	}
	all := b.String()
	for i := range ls {
		l := &ls[i]
		for _, f := range []*string{&l.ID, &l.URL, &l.Title, &l.Price, &l.Currency, &l.Location, &l.Size, &l.Rooms, &l.Image} {
			k := len(*f)
			*f, all = all[:k], all[k:]
		}
	}
}

// jsonLD collects the listings in the page's schema.org JSON-LD: items of an
// ItemList (ListItem.item, or ListItem with a url), and objects of a listing
// type (Offer, Product, Residence, Apartment, House, …), also inside @graph.
// inList reports whether they came from an ItemList (one is enough then);
// otherwise a single object is a detail page's, not a result list. Their
// prices are not written yet: p.ldPrices holds what writeLDPrices writes
// (after enrichment, which may give the price as the page shows it).
func (p *page) jsonLD() (ls []Listing, inList bool) {
	// The listings are gathered in the page's scratch list and copied out once
	// (not regrown as they come); seen is the page's too.
	found := p.ldList[:0]
	clear(p.ldPrices)
	p.ldPrices = p.ldPrices[:0]
	p.ldSeen.reset()
	for _, s := range p.scripts {
		if !strings.EqualFold(strings.TrimSpace(attr(s, "type")), "application/ld+json") || s.FirstChild == nil {
			continue
		}
		v, ok := p.jr.unmarshalPairs(strings.TrimSpace(s.FirstChild.Data))
		if !ok {
			continue
		}
		p.ldWalk(v, false, &found, &inList, &p.ldSeen, 0)
	}
	p.ldSeen.reset()
	// (A single object outside a list is a detail page's: nil, false.)
	if n := len(found); n > 1 || n == 1 && inList {
		ls = make([]Listing, n)
		copy(ls, found)
	} else {
		clear(p.ldPrices)
		p.ldPrices = p.ldPrices[:0]
	}
	clear(found)
	p.ldList = found[:0]
	detach(ls)
	return ls, inList
}

func (p *page) ldWalk(v any, listCtx bool, out *[]Listing, inList *bool, seen *strSet, depth int) {
	if depth > 12 {
		return
	}
	switch x := v.(type) {
	case jarr:
		for _, e := range x.elems() {
			p.ldWalk(e, listCtx, out, inList, seen, depth+1)
		}
	case jobj:
		// The members ldWalk reads, found in one pass (a lookup each went
		// along the members again, for every object of every script).
		var ks [nLDWalkKeys]any
		var has [nLDWalkKeys]bool
		for _, m := range x.members() {
			if k := ldWalkKey(m.k); k >= 0 {
				ks[k], has[k] = m.v, true
			}
		}
		var buf [4]string
		types := ldTypesOf(ks[ldkType], buf[:])
		isList := false
		for _, t := range types {
			if t == "BreadcrumbList" || t == "SiteNavigationElement" || t == "WebSite" || t == "Organization" {
				return
			}
			if t == "ItemList" || t == "OfferCatalog" || t == "SearchResultsPage" || t == "CollectionPage" {
				isList = true
			}
		}
		if has[ldkGraph] {
			p.ldWalk(ks[ldkGraph], listCtx, out, inList, seen, depth+1)
		}
		for _, t := range types {
			if t == "ListItem" {
				listCtx = true
				if has[ldkItem] {
					switch it := ks[ldkItem].(type) {
					case jstr:
						p.ldAdd(newJobj(jpair{"url", it}, jpair{"name", x.get("name")}), true, out, inList, seen)
					case jobj:
						if hasType(it, listingTypes) || noLDType(it) {
							p.ldAdd(it, true, out, inList, seen)
						} else {
							p.ldWalk(it, true, out, inList, seen, depth+1)
						}
					}
					return
				}
				p.ldAdd(x, true, out, inList, seen)
				return
			}
		}
		// (hasType(x, listingTypes): types are x's @type values.)
		listing := false
		for _, t := range types {
			listing = listing || listingTypes[t]
		}
		if listing && !isList {
			if p.ldAdd(x, listCtx, out, inList, seen) {
				return
			}
		}
		for k := ldkItemListElement; k < nLDWalkKeys; k++ {
			if has[k] {
				p.ldWalk(ks[k], listCtx || isList || k == ldkItemListElement, out, inList, seen, depth+1)
			}
		}
	}
}

// The members ldWalk reads: @type, @graph, a ListItem's item, and the ones
// that may hold listings, in the order they are walked.
const (
	ldkType = iota
	ldkGraph
	ldkItem
	ldkItemListElement // (the first of the ones walked: itemListElement,
	ldkMainEntity      // mainEntity, about, hasPart, offers, itemOffered)
	ldkAbout
	ldkHasPart
	ldkOffers
	ldkItemOffered
	nLDWalkKeys
)

// ldWalkKey is k's place among the members ldWalk reads, or -1.
func ldWalkKey(k string) int {
	switch k {
	case "@type":
		return ldkType
	case "@graph":
		return ldkGraph
	case "item":
		return ldkItem
	case "itemListElement":
		return ldkItemListElement
	case "mainEntity":
		return ldkMainEntity
	case "about":
		return ldkAbout
	case "hasPart":
		return ldkHasPart
	case "offers":
		return ldkOffers
	case "itemOffered":
		return ldkItemOffered
	}
	return -1
}

// ldAdd adds one JSON-LD object as a listing if it has a URL on the page's site
// other than the page itself; reports whether it did.
func (p *page) ldAdd(m jobj, fromList bool, out *[]Listing, inList *bool, seen *strSet) bool {
	// The members read here, found in one pass (a lookup each went along
	// the members again: fourteen of them, most absent).
	var f [nLDAddKeys]any
	for _, mb := range m.members() {
		if k := ldAddKey(mb.k); k >= 0 {
			f[k] = mb.v
		}
	}
	href := str(f[ldaURL])
	if href == "" {
		if id := str(f[ldaID]); strings.HasPrefix(id, "http") || strings.HasPrefix(id, "/") {
			href = id
		}
	}
	if href == "" {
		if off, ok := f[ldaOffers].(jobj); ok {
			href = str(off.get("url"))
		}
	}
	var u url.URL // (read here only: the listing keeps its string)
	c, ok := p.res.resolveCanon(href, &u)
	if !ok || p.selfLink(&u) {
		return false
	}
	if !seen.add(c) {
		return true
	}
	if fromList {
		*inList = true
	}
	l := Listing{URL: c}
	for _, k := range [...]int{ldaSKU, ldaProductID, ldaIdentifier, ldaMPN} {
		if s := str(f[k]); s != "" && isIDToken(s) {
			l.ID = s
			break
		}
	}
	if l.ID == "" {
		l.ID = idFromURL(&u)
	}
	l.Title = fold(str(f[ldaName]))
	if l.Title == "" {
		l.Title = fold(str(f[ldaHeadline]))
	}
	// The thing offered may carry the details.
	address, floorSize, rooms, image := f[ldaAddress], f[ldaFloorSize], f[ldaRooms], f[ldaImage]
	if io, ok := f[ldaItemOffered].(jobj); ok {
		address, floorSize, rooms, image = io.get("address"), io.get("floorSize"), io.get("numberOfRooms"), io.get("image")
		if l.Title == "" {
			l.Title = fold(str(io.get("name")))
		}
	}
	// The price is written out last (writeLDPrices): most listings of a
	// page with cards take the price as the page shows it instead.
	v, cur, lit, priced := ldPriceParts(ldPriceMembers{f[ldaPrice], f[ldaLowPrice], f[ldaPriceSpec], f[ldaCurrency]}, f[ldaOffers])
	l.PriceValue, l.Currency = v, cur
	l.Location = ldAddress(address)
	if l.Location == "" {
		l.Location = ldAddress(f[ldaAddress])
	}
	l.Size = ldQuantity(floorSize)
	if r := ldNumber(rooms); r != "" {
		l.Rooms = r
	}
	l.Image = p.ldImage(f[ldaImage])
	if l.Image == "" {
		l.Image = p.ldImage(image)
	}
	*out = append(*out, l)
	p.ldPrices = append(p.ldPrices, ldPendingPrice{lit: lit, set: priced})
	return true
}

// The members of a listing object ldAdd reads.
const (
	ldaURL = iota
	ldaID
	ldaOffers
	ldaSKU       // (the ids, in the order they are tried: sku, productID,
	ldaProductID // identifier, mpn)
	ldaIdentifier
	ldaMPN
	ldaName
	ldaHeadline
	ldaItemOffered
	ldaAddress
	ldaFloorSize
	ldaRooms
	ldaImage
	ldaPrice // (the members ldPrice reads)
	ldaLowPrice
	ldaPriceSpec
	ldaCurrency
	nLDAddKeys
)

// ldAddKey is k's place among the members ldAdd reads, or -1.
func ldAddKey(k string) int {
	switch k {
	case "url":
		return ldaURL
	case "@id":
		return ldaID
	case "offers":
		return ldaOffers
	case "sku":
		return ldaSKU
	case "productID":
		return ldaProductID
	case "identifier":
		return ldaIdentifier
	case "mpn":
		return ldaMPN
	case "name":
		return ldaName
	case "headline":
		return ldaHeadline
	case "itemOffered":
		return ldaItemOffered
	case "address":
		return ldaAddress
	case "floorSize":
		return ldaFloorSize
	case "numberOfRooms":
		return ldaRooms
	case "image":
		return ldaImage
	case "price":
		return ldaPrice
	case "lowPrice":
		return ldaLowPrice
	case "priceSpecification":
		return ldaPriceSpec
	case "priceCurrency":
		return ldaCurrency
	}
	return -1
}

// ldPrice reads price, priceCurrency (also in offers / priceSpecification).
func ldPrice(m jobj) (float64, string, string) {
	return ldPriceFrom(ldPriceMembersOf(m), m.get("offers"))
}

// ldPriceMembers are the members of an object ldPrice reads.
type ldPriceMembers struct{ price, lowPrice, spec, currency any }

// ldPriceMembersOf finds o's price members in one pass (a lookup each went
// along the members again).
func ldPriceMembersOf(o jobj) (pm ldPriceMembers) {
	for _, mb := range o.members() {
		switch mb.k {
		case "price":
			pm.price = mb.v
		case "lowPrice":
			pm.lowPrice = mb.v
		case "priceSpecification":
			pm.spec = mb.v
		case "priceCurrency":
			pm.currency = mb.v
		}
	}
	return pm
}

// ldPriceFrom is ldPrice of an object with the price members mm and the
// offers member offers.
func ldPriceFrom(mm ldPriceMembers, offers any) (float64, string, string) {
	v, cur, lit, ok := ldPriceParts(mm, offers)
	if !ok {
		return 0, "", ""
	}
	return v, cur, formatPrice(lit, v, cur)
}

// ldPriceParts is ldPriceFrom before the price is written out: its value,
// currency and literal (formatPrice's lit); ok when there is a price.
func ldPriceParts(mm ldPriceMembers, offers any) (v float64, cur, lit string, ok bool) {
	for i := range 3 {
		// The object, then its offers, then its priceSpecification: each
		// read only when the one before gives no price (most give one).
		pm := mm
		if i > 0 {
			src := offers
			if i == 2 {
				src = mm.spec
			}
			var o jobj
			switch x := src.(type) {
			case jobj:
				o = x
			case jarr:
				if es := x.elems(); len(es) > 0 {
					o, _ = es[0].(jobj)
				}
			}
			if o.d == nil {
				continue
			}
			pm = ldPriceMembersOf(o)
		}
		pv, cv := pm.price, pm.currency
		if pv == nil {
			pv = pm.lowPrice
		}
		if pv == nil {
			if ps, ok := pm.spec.(jobj); ok {
				psm := ldPriceMembersOf(ps)
				pv, cv = psm.price, psm.currency
			}
		}
		cur := str(cv)
		switch x := pv.(type) {
		case jnum:
			return x.float(), cur, x.lit(), true
		case jstr:
			t := x.val()
			if t == "" {
				continue
			}
			// A machine number is its value (then the text is parsed for
			// its currency only, if need be); else the price as shown.
			// (parsePrice's currency is currencyOf(t) either way.)
			v, err := 0.0, errNotFloat
			if smallInt(t) {
				v, err = smallIntValue(t), nil
			} else if mayBeFloat(t) {
				v, err = strconv.ParseFloat(t, 64)
			}
			lit := t // (v's literal, when t is a machine number)
			if err != nil {
				var c string
				v, c = parsePrice(t)
				if cur == "" {
					cur = c
				}
				lit = ""
			} else if cur == "" {
				cur = currencyOf(t)
			}
			return v, cur, lit, true
		}
	}
	return 0, "", "", false
}

// errNotFloat stands for ParseFloat's error on text mayBeFloat rejects.
var errNotFloat = errors.New("not a float")

// mayBeFloat reports whether strconv.ParseFloat could accept s: false when s
// holds a byte no float syntax has (decimal, hex, "Inf", "NaN"), such as a
// space, a comma or a currency sign, which ParseFloat would reject with an
// allocated error.
func mayBeFloat(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i] | 0x20; { // (lower case for letters)
		case s[i] >= '0' && s[i] <= '9', s[i] == '.', s[i] == '+', s[i] == '-', s[i] == '_':
		case c >= 'a' && c <= 'f', c == 'i', c == 'n', c == 't', c == 'y', c == 'x', c == 'p':
		default:
			return false
		}
	}
	return true
}

// formatPrice shows a machine price as "1250 EUR" (the page shows no text for
// it), built in one allocation; lit is v's literal, if known (see
// appendFloat).
func formatPrice(lit string, v float64, cur string) string {
	var buf [48]byte
	b := appendFloat(buf[:0], lit, v)
	if cur != "" {
		b = append(append(b, ' '), cur...)
	}
	return string(b)
}

func ldAddress(v any) string {
	switch x := v.(type) {
	case jstr:
		return fold(x.val())
	case jobj:
		// "street, postcode locality", without the parts that are empty
		// (each str is trimmed), built in one buffer.
		street, code, town := str(x.get("streetAddress")), str(x.get("postalCode")), str(x.get("addressLocality"))
		if only, ok := onlyOne(street, code, town); ok {
			return fold(only) // (no copy)
		}
		var buf [128]byte
		return fold(string(appendAddress(buf[:0], street, code, town)))
	}
	return ""
}

// appendAddress appends "street, postcode town" to b, without the parts that
// are empty and the separators they would need.
func appendAddress(b []byte, street, code, town string) []byte {
	b = append(b, street...)
	if street != "" && (code != "" || town != "") {
		b = append(b, ", "...)
	}
	b = append(b, code...)
	if code != "" && town != "" {
		b = append(b, ' ')
	}
	return append(b, town...)
}

// onlyOne returns the one of a, b and c that is not empty, if there is
// exactly one.
func onlyOne(a, b, c string) (string, bool) {
	switch {
	case b == "" && c == "":
		return a, a != ""
	case a == "" && c == "":
		return b, true
	case a == "" && b == "":
		return c, true
	}
	return "", false
}

func ldQuantity(v any) string {
	switch x := v.(type) {
	case jobj:
		var buf [64]byte
		n := appendLDNumber(buf[:0], x.get("value"))
		if len(n) == 0 {
			return ""
		}
		code, text := str(x.get("unitCode")), str(x.get("unitText"))
		switch code + text {
		case "MTK", "m²", "m2", "sqm", "MTKm²", "":
			return string(append(n, " m²"...))
		default:
			return string(append(append(append(n, ' '), code...), text...))
		}
	case jnum, jstr:
		var buf [64]byte
		if n := appendLDNumber(buf[:0], x); len(n) > 0 {
			return string(append(n, " m²"...))
		}
	}
	return ""
}

func ldNumber(v any) string {
	switch x := v.(type) {
	case jnum:
		return formatFloat(x.lit(), x.float())
	case jstr:
		return strings.TrimSpace(x.val())
	case jobj:
		return ldNumber(x.get("value"))
	}
	return ""
}

// appendLDNumber appends ldNumber(v) to b (so that a size is built in one
// allocation).
func appendLDNumber(b []byte, v any) []byte {
	switch x := v.(type) {
	case jnum:
		return appendFloat(b, x.lit(), x.float())
	case jstr:
		return append(b, strings.TrimSpace(x.val())...)
	case jobj:
		return appendLDNumber(b, x.get("value"))
	}
	return b
}

func (p *page) ldImage(v any) string {
	switch x := v.(type) {
	case jstr:
		return p.res.resolveAny(x.val())
	case jarr:
		for _, e := range x.elems() {
			if s := p.ldImage(e); s != "" {
				return s
			}
		}
	case jobj:
		if s := str(x.get("url")); s != "" {
			return p.res.resolveAny(s)
		}
		return p.res.resolveAny(str(x.get("contentUrl")))
	}
	return ""
}

// str returns v as a string (numbers formatted as the float64s they are to
// json.Unmarshal), "" for other kinds.
func str(v any) string {
	switch x := v.(type) {
	case jstr:
		return strings.TrimSpace(x.val())
	case jnum:
		return formatFloat(x.lit(), x.float())
	}
	return ""
}

// appendFloat is strconv.AppendFloat(b, v, 'f', -1, 64), where lit is v's
// literal or "": an integer literal of at most 15 digits without a leading
// zero is v's shortest form as it is (v holds it exactly, and every integer
// below 2^53 is a float64 of its own), so the most common prices, sizes and
// rooms are copied rather than formatted. TestAppendFloatMatchesStrconv
// holds it to strconv.
func appendFloat(b []byte, lit string, v float64) []byte {
	if smallInt(lit) {
		return append(b, lit...)
	}
	if in, frac, ok := shortDecimal(lit); ok {
		b = append(b, in...)
		if frac != "" {
			b = append(append(b, '.'), frac...)
		}
		return b
	}
	return strconv.AppendFloat(b, v, 'f', -1, 64)
}

// shortDecimal splits a decimal literal of at most 15 digits ("1950.00",
// "415.5", "0.25"; no sign, no exponent, no leading zero but a lone one) into
// its integer part and its fraction without trailing zeros: they are v's
// shortest form. (On the grid of numbers of 15 significant digits, two
// neighbours lie more than a float64's two ulps apart, and a number below
// 10^15 and at least 10^-15 is no subnormal: the literal is the only
// decimal of at most 15 digits that reads as v, so no shorter one does.)
func shortDecimal(lit string) (in, frac string, ok bool) {
	in, frac, found := strings.Cut(lit, ".")
	if !found || in == "" || frac == "" || len(in)+len(frac) > 15 || in[0] == '0' && len(in) > 1 {
		return "", "", false
	}
	for _, part := range [2]string{in, frac} {
		for i := 0; i < len(part); i++ {
			if part[i] < '0' || part[i] > '9' {
				return "", "", false
			}
		}
	}
	return in, strings.TrimRight(frac, "0"), true
}

// formatFloat is appendFloat as a string (lit itself when it is a small
// integer: no allocation).
func formatFloat(lit string, v float64) string {
	if smallInt(lit) {
		return lit
	}
	if in, frac, ok := shortDecimal(lit); ok && frac == "" {
		return in
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// ldPendingPrice is a price jsonLD read and has not written out yet: its
// literal (formatPrice's lit); set when the listing has one.
type ldPendingPrice struct {
	lit string
	set bool
}

// writeLDPrices writes out the prices of ls (as jsonLD gave them, in order)
// that no card gave: "1250 EUR" (formatPrice).
func writeLDPrices(ls []Listing, prices []ldPendingPrice) {
	for i := range ls {
		if l := &ls[i]; prices[i].set && l.Price == "" {
			l.Price = formatPrice(prices[i].lit, l.PriceValue, l.Currency)
		}
	}
}
