package extract

import (
	"encoding/json"
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

// ldTypes returns an object's @type values, appended to buf[:0].
func ldTypes(m jobj, buf []string) []string {
	out := buf[:0]
	switch t := m.get("@type").(type) {
	case string:
		return append(out, ldType(t))
	case []any:
		for _, x := range t {
			if s, ok := x.(string); ok {
				out = append(out, ldType(s))
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
	case string:
		return set[ldType(t)]
	case []any:
		for _, x := range t {
			if s, ok := x.(string); ok && set[ldType(s)] {
				return true
			}
		}
	}
	return false
}

// noLDType reports whether m has no @type value (ldTypes would be empty).
func noLDType(m jobj) bool {
	switch t := m.get("@type").(type) {
	case string:
		return false
	case []any:
		for _, x := range t {
			if _, ok := x.(string); ok {
				return false
			}
		}
	}
	return true
}

// detach copies the text fields of listings read from a script, which may
// share the script's memory (the JSON reader does not copy strings), so that a
// stored listing does not keep the page's scripts alive. (URL and Image are
// built by url.URL.String, never shared.)
func detach(ls []Listing) {
	n := 0
	for i := range ls {
		l := &ls[i]
		n += len(l.ID) + len(l.Title) + len(l.Price) + len(l.Currency) + len(l.Location) + len(l.Size) + len(l.Rooms)
	}
	if n == 0 {
		return
	}
	// One copy of all the texts, which the fields then share.
	var b strings.Builder
	b.Grow(n)
	for i := range ls {
		l := &ls[i]
		for _, f := range []*string{&l.ID, &l.Title, &l.Price, &l.Currency, &l.Location, &l.Size, &l.Rooms} {
			b.WriteString(*f)
		}
	}
	all := b.String()
	for i := range ls {
		l := &ls[i]
		for _, f := range []*string{&l.ID, &l.Title, &l.Price, &l.Currency, &l.Location, &l.Size, &l.Rooms} {
			k := len(*f)
			*f, all = all[:k], all[k:]
		}
	}
}

// jsonLD collects the listings in the page's schema.org JSON-LD: items of an
// ItemList (ListItem.item, or ListItem with a url), and objects of a listing
// type (Offer, Product, Residence, Apartment, House, …), also inside @graph.
// inList reports whether they came from an ItemList (one is enough then);
// otherwise a single object is a detail page's, not a result list.
func (p *page) jsonLD() (ls []Listing, inList bool) {
	// The listings are gathered in the page's scratch list and copied out once
	// (not regrown as they come); seen is the page's too.
	found := p.ldList[:0]
	if p.ldSeen == nil {
		p.ldSeen = make(map[string]bool)
	}
	for _, s := range p.scripts {
		if !strings.EqualFold(strings.TrimSpace(attr(s, "type")), "application/ld+json") || s.FirstChild == nil {
			continue
		}
		v, ok := p.jr.unmarshalPairs(strings.TrimSpace(s.FirstChild.Data))
		if !ok {
			continue
		}
		p.ldWalk(v, false, &found, &inList, p.ldSeen, 0)
	}
	clear(p.ldSeen)
	// (A single object outside a list is a detail page's: nil, false.)
	if n := len(found); n > 1 || n == 1 && inList {
		ls = make([]Listing, n)
		copy(ls, found)
	}
	clear(found)
	p.ldList = found[:0]
	detach(ls)
	return ls, inList
}

func (p *page) ldWalk(v any, listCtx bool, out *[]Listing, inList *bool, seen map[string]bool, depth int) {
	if depth > 12 {
		return
	}
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			p.ldWalk(e, listCtx, out, inList, seen, depth+1)
		}
	case jobj:
		var buf [4]string
		types := ldTypes(x, buf[:])
		isList := false
		for _, t := range types {
			if t == "BreadcrumbList" || t == "SiteNavigationElement" || t == "WebSite" || t == "Organization" {
				return
			}
			if t == "ItemList" || t == "OfferCatalog" || t == "SearchResultsPage" || t == "CollectionPage" {
				isList = true
			}
		}
		if g, ok := x.lookup("@graph"); ok {
			p.ldWalk(g, listCtx, out, inList, seen, depth+1)
		}
		for _, t := range types {
			if t == "ListItem" {
				listCtx = true
				if item, ok := x.lookup("item"); ok {
					switch it := item.(type) {
					case string:
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
		if hasType(x, listingTypes) && !isList {
			if p.ldAdd(x, listCtx, out, inList, seen) {
				return
			}
		}
		for _, k := range []string{"itemListElement", "mainEntity", "about", "hasPart", "offers", "itemOffered"} {
			if c, ok := x.lookup(k); ok {
				p.ldWalk(c, listCtx || isList || k == "itemListElement", out, inList, seen, depth+1)
			}
		}
	}
}

// ldAdd adds one JSON-LD object as a listing if it has a URL on the page's site
// other than the page itself; reports whether it did.
func (p *page) ldAdd(m jobj, fromList bool, out *[]Listing, inList *bool, seen map[string]bool) bool {
	href := str(m.get("url"))
	if href == "" {
		if id := str(m.get("@id")); strings.HasPrefix(id, "http") || strings.HasPrefix(id, "/") {
			href = id
		}
	}
	if href == "" {
		if off, ok := m.get("offers").(jobj); ok {
			href = str(off.get("url"))
		}
	}
	u, ok := p.res.resolve(href)
	if !ok || p.selfLink(u) {
		return false
	}
	c := u.String()
	if seen[c] {
		return true
	}
	seen[c] = true
	if fromList {
		*inList = true
	}
	l := Listing{URL: c}
	for _, k := range []string{"sku", "productID", "identifier", "mpn"} {
		if s := str(m.get(k)); s != "" && isIDToken(s) {
			l.ID = s
			break
		}
	}
	if l.ID == "" {
		l.ID = idFromURL(u)
	}
	l.Title = fold(str(m.get("name")))
	if l.Title == "" {
		l.Title = fold(str(m.get("headline")))
	}
	// The thing offered may carry the details.
	obj := m
	if io, ok := m.get("itemOffered").(jobj); ok {
		obj = io
		if l.Title == "" {
			l.Title = fold(str(io.get("name")))
		}
	}
	l.PriceValue, l.Currency, l.Price = ldPrice(m)
	l.Location = ldAddress(obj.get("address"))
	if l.Location == "" {
		l.Location = ldAddress(m.get("address"))
	}
	l.Size = ldQuantity(obj.get("floorSize"))
	if r := ldNumber(obj.get("numberOfRooms")); r != "" {
		l.Rooms = r
	}
	l.Image = p.ldImage(m.get("image"))
	if l.Image == "" {
		l.Image = p.ldImage(obj.get("image"))
	}
	*out = append(*out, l)
	return true
}

// ldPrice reads price, priceCurrency (also in offers / priceSpecification).
func ldPrice(m jobj) (float64, string, string) {
	for _, src := range []any{m, m.get("offers"), m.get("priceSpecification")} {
		var o jobj
		switch x := src.(type) {
		case jobj:
			o = x
		case []any:
			if len(x) > 0 {
				o, _ = x[0].(jobj)
			}
		}
		if o.d == nil {
			continue
		}
		pv := o.get("price")
		if pv == nil {
			pv = o.get("lowPrice")
		}
		if pv == nil {
			if ps, ok := o.get("priceSpecification").(jobj); ok {
				o = ps
				pv = o.get("price")
			}
		}
		cur := str(o.get("priceCurrency"))
		switch x := pv.(type) {
		case float64:
			return x, cur, formatPrice(x, cur)
		case string:
			if x == "" {
				continue
			}
			v, c := parsePrice(x)
			if f, err := strconv.ParseFloat(x, 64); err == nil {
				v = f
			}
			if cur == "" {
				cur = c
			}
			return v, cur, formatPrice(v, cur)
		}
	}
	return 0, "", ""
}

// formatPrice shows a machine price as "1250 EUR" (the page shows no text for it).
func formatPrice(v float64, cur string) string {
	s := strconv.FormatFloat(v, 'f', -1, 64)
	if cur != "" {
		s += " " + cur
	}
	return s
}

func ldAddress(v any) string {
	switch x := v.(type) {
	case string:
		return fold(x)
	case jobj:
		var parts []string
		if s := str(x.get("streetAddress")); s != "" {
			parts = append(parts, s)
		}
		loc := strings.TrimSpace(str(x.get("postalCode")) + " " + str(x.get("addressLocality")))
		if loc != "" {
			parts = append(parts, loc)
		}
		return fold(strings.Join(parts, ", "))
	}
	return ""
}

func ldQuantity(v any) string {
	switch x := v.(type) {
	case jobj:
		n := ldNumber(x.get("value"))
		if n == "" {
			return ""
		}
		switch u := str(x.get("unitCode")) + str(x.get("unitText")); u {
		case "MTK", "m²", "m2", "sqm", "MTKm²":
			return n + " m²"
		case "":
			return n + " m²"
		default:
			return n + " " + u
		}
	case float64, string:
		if n := ldNumber(x); n != "" {
			return n + " m²"
		}
	}
	return ""
}

func ldNumber(v any) string {
	switch x := v.(type) {
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case string:
		return strings.TrimSpace(x)
	case jobj:
		return ldNumber(x.get("value"))
	}
	return ""
}

func (p *page) ldImage(v any) string {
	switch x := v.(type) {
	case string:
		return p.res.resolveAny(x)
	case []any:
		for _, e := range x {
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

// str returns v as a string (numbers formatted), "" for other kinds.
func str(v any) string {
	switch x := v.(type) {
	case string:
		return strings.TrimSpace(x)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case json.Number:
		return x.String()
	}
	return ""
}
