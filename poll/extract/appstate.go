package extract

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// stateAssignments returns the offsets just after the '=' (and any
// "JSON.parse(") of app-state assignments in an inline script:
// window.__INITIAL_STATE__ = {…}, window.__PRELOADED_STATE__ = …, var appData = [, …
// The name must look like state: __NAME__, or ending in State/Data/Store/Props.
// A linear scan, not a regexp: inline scripts can be large bundles.
func stateAssignments(src string, limit int) []int {
	var out []int
	for i := 0; i < len(src) && len(out) < limit; i++ {
		j := strings.IndexByte(src[i:], '=')
		if j < 0 {
			break
		}
		i += j
		if i+1 < len(src) && (src[i+1] == '=' || src[i+1] == '>') || i > 0 && strings.IndexByte("=!<>+-*/%&|^?", src[i-1]) >= 0 {
			continue
		}
		k := i + 1
		for k < len(src) && (src[k] == ' ' || src[k] == '\t' || src[k] == '\n' || src[k] == '\r') {
			k++
		}
		if strings.HasPrefix(src[k:], "JSON.parse(") {
			k += len("JSON.parse(")
		} else if k >= len(src) || src[k] != '{' && src[k] != '[' {
			continue
		}
		// the name before '='
		e := i
		for e > 0 && (src[e-1] == ' ' || src[e-1] == '\t') {
			e--
		}
		b := e
		for b > 0 && (alnum(src[b-1]) || src[b-1] == '_' || src[b-1] == '$') {
			b--
		}
		if stateName(src[b:e]) {
			out = append(out, k)
		}
	}
	return out
}

// stateName reports whether an identifier names app state.
func stateName(n string) bool {
	if len(n) < 4 {
		return false
	}
	if strings.HasPrefix(n, "__") && strings.HasSuffix(n, "__") {
		return true
	}
	for _, suf := range []string{"STATE", "State", "state", "DATA", "Data", "Store", "STORE", "PROPS", "Props"} {
		if strings.HasSuffix(n, suf) {
			return true
		}
	}
	return false
}

// appState finds listings in embedded application state: Next.js __NEXT_DATA__,
// other application/json scripts, and window.__INITIAL_STATE__-style
// assignments. It picks the best array of objects that have an id and a
// url/title/price. method is MethodNextData or MethodAppState.
func (p *page) appState() (ls []Listing, method string) {
	bestScore := 0.0
	for _, s := range p.scripts {
		if s.FirstChild == nil {
			continue
		}
		typ := strings.ToLower(strings.TrimSpace(attr(s, "type")))
		src := s.FirstChild.Data
		var roots []any
		m := MethodAppState
		switch {
		case typ == "application/ld+json":
			continue
		case attr(s, "id") == "__NEXT_DATA__":
			m = MethodNextData
			if v, ok := p.jr.decodeFirstPairs(src); ok {
				roots = append(roots, v)
			}
		case typ == "application/json":
			if v, ok := p.jr.decodeFirstPairs(src); ok {
				roots = append(roots, v)
			}
		case typ == "" || strings.Contains(typ, "javascript") || typ == "module":
			if len(src) < 40 {
				continue
			}
			for _, at := range stateAssignments(src, 8) {
				rest := strings.TrimLeft(src[at:], " \t\r\n")
				if strings.HasPrefix(rest, "'") || strings.HasPrefix(rest, `"`) { // JSON.parse("…")
					var js string
					if err := json.NewDecoder(strings.NewReader(rest)).Decode(&js); err == nil {
						rest = js
					}
				}
				if rest == "" || rest[0] != '{' && rest[0] != '[' {
					continue
				}
				if v, ok := p.jr.decodeFirstPairs(rest); ok {
					roots = append(roots, v)
				}
			}
		default:
			continue
		}
		for _, v := range roots {
			arr, score := bestArray(v, 0)
			if score > bestScore {
				if out := p.stateListings(arr); len(out) >= 2 {
					ls, method, bestScore = out, m, score
				}
			}
		}
	}
	detach(ls)
	return ls, method
}

var (
	stateIDKeys    = []string{"id", "adId", "ad_id", "listingId", "listing_id", "exposeId", "expose_id", "objectId", "itemId", "uuid", "_id", "guid", "propertyId", "offerId", "realEstateId"}
	stateURLKeys   = []string{"url", "href", "link", "permalink", "detailUrl", "detailURL", "detailsUrl", "canonicalUrl", "shareUrl", "webUrl", "exposeUrl", "path", "slug", "seoUrl"}
	stateTitleKeys = []string{"title", "name", "headline", "heading", "subject", "displayTitle"}
	statePriceKeys = []string{"price", "priceFormatted", "formattedPrice", "displayPrice", "priceText", "rent", "coldRent", "baseRent", "totalRent", "warmRent", "amount", "cost"}
	stateLocKeys   = []string{"address", "location", "locationText", "city", "district", "locality", "place", "region"}
	stateSizeKeys  = []string{"livingSpace", "livingArea", "size", "area", "sqm", "squareMeters", "surface", "floorSize", "space"}
	stateRoomKeys  = []string{"rooms", "numberOfRooms", "roomCount", "noRooms", "roomsCount"}
	stateImgKeys   = []string{"image", "imageUrl", "imageURL", "thumbnail", "thumbnailUrl", "picture", "photo", "mainImage", "previewImage", "images", "pictures", "photos"}
)

// first returns the first of keys present in m (also one level down in nested
// objects such as "attributes" or "data").
func first(m jobj, keys []string) any {
	for _, k := range keys {
		if v, ok := m.lookup(k); ok && v != nil && v != "" {
			return v
		}
	}
	for _, k := range []string{"attributes", "data", "listing", "item", "node", "property", "realEstate", "ad"} {
		if sub, ok := m.get(k).(jobj); ok {
			for _, kk := range keys {
				if v, ok := sub.lookup(kk); ok && v != nil && v != "" {
					return v
				}
			}
		}
	}
	return nil
}

// bestArray finds the array of objects that looks most like a result list.
func bestArray(v any, depth int) ([]any, float64) {
	if depth > 16 {
		return nil, 0
	}
	var best []any
	bestScore := 0.0
	switch x := v.(type) {
	case jobj:
		// (In document order: a map's order is unspecified, and on a tie the
		// first array visited was kept.)
		for _, c := range x.members() {
			if a, s := bestArray(c.v, depth+1); s > bestScore {
				best, bestScore = a, s
			}
		}
	case []any:
		if s := scoreArray(x); s > bestScore {
			best, bestScore = x, s
		}
		for _, c := range x {
			if a, s := bestArray(c, depth+1); s > bestScore {
				best, bestScore = a, s
			}
		}
	}
	return best, bestScore
}

// scoreArray scores an array as a result list: objects with an id and a
// title or price, more for URLs and details.
func scoreArray(a []any) float64 {
	if len(a) < 2 {
		return 0
	}
	score, good := 0.0, 0
	for _, e := range a {
		m, ok := e.(jobj)
		if !ok {
			continue
		}
		if first(m, stateIDKeys) == nil {
			continue
		}
		hasTitle, hasPrice := first(m, stateTitleKeys) != nil, first(m, statePriceKeys) != nil
		if !hasTitle && !hasPrice {
			continue
		}
		good++
		s := 1.0
		if hasTitle {
			s++
		}
		if hasPrice {
			s += 1.5
		}
		if first(m, stateURLKeys) != nil {
			s++
		}
		if first(m, stateLocKeys) != nil || first(m, stateSizeKeys) != nil || first(m, stateRoomKeys) != nil {
			s += 0.5
		}
		score += s
	}
	if good < 2 || good*2 < len(a) {
		return 0
	}
	return score
}

// stateListings turns the chosen array's objects into listings. An object
// without a usable URL gets the page link whose URL carries its id, if any.
func (p *page) stateListings(a []any) []Listing {
	var out []Listing
	for _, e := range a {
		m, ok := e.(jobj)
		if !ok {
			continue
		}
		id := scalar(first(m, stateIDKeys))
		if id == "" {
			continue
		}
		l := Listing{ID: id}
		if href := scalar(first(m, stateURLKeys)); href != "" {
			if u, ok := p.res.resolve(href); ok && !p.selfLink(u) {
				l.URL = u.String()
			}
		}
		if l.URL == "" {
			l.URL = p.linkWithToken(id)
		}
		if l.URL == "" {
			continue
		}
		l.Title = fold(scalar(first(m, stateTitleKeys)))
		l.Price, l.PriceValue, l.Currency = statePrice(first(m, statePriceKeys), m)
		l.Location = stateText(first(m, stateLocKeys))
		l.Size = scalar(first(m, stateSizeKeys))
		if l.Size != "" && hasDigit(l.Size) && !strings.ContainsAny(l.Size, "mq") {
			l.Size += " m²"
		}
		l.Rooms = scalar(first(m, stateRoomKeys))
		l.Image = p.stateImage(first(m, stateImgKeys))
		out = append(out, l)
	}
	return out
}

// linkWithToken returns the first same-site link on the page whose URL carries
// token (an id) as a whole word.
func (p *page) linkWithToken(tok string) string {
	if len(tok) < 3 {
		return ""
	}
	for i := range p.anchors {
		if !strings.Contains(p.anchors[i].href, tok) {
			continue
		}
		a := p.link(i)
		if a.ok && tokenInURL(a.u, tok) {
			return a.canon
		}
	}
	return ""
}

// scalar returns strings and numbers as text.
func scalar(v any) string {
	switch x := v.(type) {
	case string:
		return strings.TrimSpace(x)
	case json.Number:
		return x.String()
	case float64:
		return fmt.Sprint(x)
	case bool:
		return ""
	}
	return ""
}

// stateText flattens a string or an address-like object.
func stateText(v any) string {
	switch x := v.(type) {
	case jobj:
		var parts []string
		for _, k := range []string{"street", "streetAddress", "address", "line1"} {
			if s := scalar(x.get(k)); s != "" {
				parts = append(parts, s)
				break
			}
		}
		city := strings.TrimSpace(scalar(first(x, []string{"zip", "zipCode", "postalCode", "postcode", "plz"})) + " " +
			scalar(first(x, []string{"city", "addressLocality", "town", "locality", "name"})))
		if city != "" {
			parts = append(parts, city)
		}
		if d := scalar(x.get("district")); d != "" && len(parts) == 0 {
			parts = append(parts, d)
		}
		return fold(strings.Join(parts, ", "))
	default:
		return fold(scalar(v))
	}
}

// statePrice reads a price that may be a number, a string or an object
// {amount|value, currency, formatted}.
func statePrice(v any, m jobj) (shown string, value float64, cur string) {
	cur = scalar(first(m, []string{"currency", "priceCurrency", "currencyCode"}))
	switch x := v.(type) {
	case jobj:
		cur2 := scalar(first(x, []string{"currency", "currencyCode", "priceCurrency"}))
		if cur2 != "" {
			cur = cur2
		}
		if f := scalar(first(x, []string{"formatted", "formattedValue", "text", "display", "label"})); f != "" {
			shown = fold(f)
		}
		if n := scalar(first(x, []string{"amount", "value", "price", "raw"})); n != "" {
			if shown == "" {
				shown = n
				if cur != "" {
					shown += " " + cur
				}
			}
			if f, err := strconv.ParseFloat(n, 64); err == nil {
				value = f
			} else {
				value, _ = parsePrice(n)
			}
		}
	default:
		s := scalar(v)
		if s == "" {
			return "", 0, cur
		}
		if isPlainNumber(s) {
			value, _ = strconv.ParseFloat(s, 64)
			shown = s
			if cur != "" {
				shown += " " + cur
			}
			return shown, value, cur
		}
		shown = fold(s)
		var c string
		value, c = parsePrice(shown)
		if cur == "" {
			cur = c
		}
	}
	if cur == "" && shown != "" {
		cur = currencyOf(shown)
	}
	return shown, value, cur
}

// isPlainNumber reports a machine number: no thousands separators, at most two
// decimals (the regexp ^\d+(?:\.\d{1,2})?$).
func isPlainNumber(s string) bool {
	i := digitsAt(s, 0)
	if i == 0 {
		return false
	}
	if i == len(s) {
		return true
	}
	if s[i] != '.' {
		return false
	}
	n := digitsAt(s, i+1) - (i + 1)
	return (n == 1 || n == 2) && i+1+n == len(s)
}

// digitsAt returns the end of the run of ASCII digits that starts at s[i].
func digitsAt(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

func (p *page) stateImage(v any) string {
	switch x := v.(type) {
	case string:
		return p.res.resolveAny(x)
	case []any:
		if len(x) > 0 {
			return p.stateImage(x[0])
		}
	case jobj:
		return p.res.resolveAny(scalar(first(x, []string{"url", "src", "href", "uri", "large", "medium", "small"})))
	}
	return ""
}
