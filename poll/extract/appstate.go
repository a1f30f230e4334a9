package extract

import (
	"encoding/json"
	"net/url"
	"slices"
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
		var rootBuf [2]any
		roots := rootBuf[:0]
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
	stateCurKeys   = []string{"currency", "priceCurrency", "currencyCode"}
	stateImgKeys   = []string{"image", "imageUrl", "imageURL", "thumbnail", "thumbnailUrl", "picture", "photo", "mainImage", "previewImage", "images", "pictures", "photos"}
)

// The fields a listing object's keys name, in stateLists' order.
const (
	fID = iota
	fURL
	fTitle
	fPrice
	fLoc
	fSize
	fRooms
	fImg
	fCur // the listing's currency, beside its price (statePrice)
	nStateFields
)

// stateLists are the key lists of the fields, and stateSubKeys the nested
// objects first looks into.
var (
	stateLists   = [nStateFields][]string{stateIDKeys, stateURLKeys, stateTitleKeys, statePriceKeys, stateLocKeys, stateSizeKeys, stateRoomKeys, stateImgKeys, stateCurKeys}
	stateSubKeys = [...]string{"attributes", "data", "listing", "item", "node", "property", "realEstate", "ad"}
)

// stateKeyRanks maps each key of stateLists and stateSubKeys to its place
// (from 1; 0 where it is not) in each list, and in stateSubKeys last.
var stateKeyRanks = func() map[string]*[nStateFields + 1]uint8 {
	m := make(map[string]*[nStateFields + 1]uint8)
	add := func(list []string, i int) {
		for r, k := range list {
			if m[k] == nil {
				m[k] = new([nStateFields + 1]uint8)
			}
			m[k][i] = uint8(r + 1)
		}
	}
	for i, list := range stateLists {
		add(list, i)
	}
	add(stateSubKeys[:], nStateFields)
	return m
}()

// stateKeyTable holds stateKeyRanks in an open-addressing table with a hash
// of a few bytes (a map's string hashing was most of stateFields' cost, one
// lookup per member of every object in an array).
var stateKeyTable = func() (t [stateKeyTableSize]struct {
	k string
	r *[nStateFields + 1]uint8
}) {
	for k, r := range stateKeyRanks {
		i := stateKeyHash(k)
		for t[i].r != nil {
			i = (i + 1) % stateKeyTableSize
		}
		t[i].k, t[i].r = k, r
	}
	return t
}()

// stateKeyHash is k's place in stateKeyTable (k not empty).
func stateKeyHash(k string) uint {
	return (uint(len(k))*131 + uint(k[0])*31 + uint(k[len(k)/2])*7 + uint(k[len(k)-1])) % stateKeyTableSize
}

// stateKeyTableSize leaves most of the table empty (about 80 keys), so that
// probes are short and a key not in it soon meets an empty slot.
const stateKeyTableSize = 256

// stateKeyRank is stateKeyRanks[k], looked up in stateKeyTable.
func stateKeyRank(k string) *[nStateFields + 1]uint8 {
	if k == "" {
		return nil
	}
	for i := stateKeyHash(k); ; i = (i + 1) % stateKeyTableSize {
		e := &stateKeyTable[i]
		if e.r == nil || e.k == k {
			return e.r
		}
	}
}

// stateFields returns first(m, stateLists[f]) for every field f, in one pass
// over m's members (and over those of its nested objects for the fields m
// lacks): looking up each list's keys in turn, for every object of every
// array and again for the listings, was a quarter of extraction on app-state
// pages. (The key with the lowest place among those present is the first
// found, a key being in an object once.) TestStateFieldsMatchFirst holds it
// to first.
func stateFields(m jobj) (out [nStateFields]any) {
	var rank [nStateFields]uint8     // place of out[f]'s key in its list
	var subs [len(stateSubKeys)]jobj // the nested objects by place in stateSubKeys
	for _, p := range m.members() {
		r := stateKeyRank(p.k)
		if r == nil {
			continue
		}
		if s := r[nStateFields]; s > 0 {
			if o, ok := p.v.(jobj); ok {
				subs[s-1] = o
			}
		}
		if !present(p.v) {
			continue
		}
		for f := range nStateFields {
			if r[f] > 0 && (rank[f] == 0 || r[f] < rank[f]) {
				rank[f], out[f] = r[f], p.v
			}
		}
	}
	missing := false
	for f := range nStateFields {
		missing = missing || rank[f] == 0
	}
	if !missing {
		return out
	}
	for _, sub := range subs {
		if sub.d == nil {
			continue
		}
		var subRank [nStateFields]uint8
		var subOut [nStateFields]any
		for _, p := range sub.members() {
			r := stateKeyRank(p.k)
			if r == nil || !present(p.v) {
				continue
			}
			for f := range nStateFields {
				if rank[f] == 0 && r[f] > 0 && (subRank[f] == 0 || r[f] < subRank[f]) {
					subRank[f], subOut[f] = r[f], p.v
				}
			}
		}
		for f := range nStateFields {
			if subRank[f] > 0 {
				rank[f], out[f] = subRank[f], subOut[f]
			}
		}
	}
	return out
}

// first returns the first of keys present in m (also one level down in nested
// objects such as "attributes" or "data"), with a value that is neither null
// nor "".
func first(m jobj, keys []string) any {
	for _, k := range keys {
		if v, ok := m.lookup(k); ok && present(v) {
			return v
		}
	}
	for _, k := range stateSubKeys {
		if sub, ok := m.get(k).(jobj); ok {
			for _, kk := range keys {
				if v, ok := sub.lookup(kk); ok && present(v) {
					return v
				}
			}
		}
	}
	return nil
}

// present reports a value other than null and "".
func present(v any) bool {
	s, isStr := v.(jstr)
	return v != nil && (!isStr || s.val() != "")
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
	case jarr:
		es := x.elems()
		if s := scoreArray(es); s > bestScore {
			best, bestScore = es, s
		}
		for _, c := range es {
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
		fs := stateFields(m)
		if fs[fID] == nil {
			continue
		}
		hasTitle, hasPrice := fs[fTitle] != nil, fs[fPrice] != nil
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
		if fs[fURL] != nil {
			s++
		}
		if fs[fLoc] != nil || fs[fSize] != nil || fs[fRooms] != nil {
			s += 0.5
		}
		score += s
	}
	if good < 2 || good*2 < len(a) {
		return 0
	}
	return score
}

// stateListings turns the chosen array's objects into listings (nil when
// fewer than two). An object without a usable URL gets the page link whose
// URL carries its id, if any.
//
// The listings are gathered in the page's scratch list (p.ldList, which
// jsonLD is done with) and copied out when there are at least two (fewer are
// no result list).
func (p *page) stateListings(a []any) []Listing {
	out := p.ldList[:0]
	for _, e := range a {
		m, ok := e.(jobj)
		if !ok {
			continue
		}
		fs := stateFields(m)
		id := scalar(fs[fID])
		if id == "" {
			continue
		}
		l := Listing{ID: id}
		if href := scalar(fs[fURL]); href != "" {
			var u url.URL // (read here only)
			if p.res.resolveTo(href, &u) && !p.selfLink(&u) {
				l.URL = urlString(&u)
			}
		}
		if l.URL == "" {
			l.URL = p.linkWithToken(id)
		}
		if l.URL == "" {
			continue
		}
		l.Title = fold(scalar(fs[fTitle]))
		l.Price, l.PriceValue, l.Currency = statePrice(fs[fPrice], fs[fCur])
		l.Location = stateText(fs[fLoc])
		l.Size = scalar(fs[fSize])
		if l.Size != "" && hasDigit(l.Size) && !strings.ContainsAny(l.Size, "mq") {
			l.Size += " m²"
		}
		l.Rooms = scalar(fs[fRooms])
		l.Image = p.stateImage(fs[fImg])
		out = append(out, l)
	}
	var ls []Listing
	if len(out) >= 2 {
		ls = slices.Clone(out)
	}
	clear(out)
	p.ldList = out[:0]
	return ls
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
	case jstr:
		return strings.TrimSpace(x.val())
	case jnum:
		return x.lit() // (read as json.Number)
	}
	return ""
}

// stateText flattens a string or an address-like object.
func stateText(v any) string {
	switch x := v.(type) {
	case jobj:
		// "street, zip city" without the parts that are empty (each
		// scalar is trimmed), else the district; built in one buffer.
		street := ""
		for _, k := range []string{"street", "streetAddress", "address", "line1"} {
			if street = scalar(x.get(k)); street != "" {
				break
			}
		}
		zip := scalar(first(x, []string{"zip", "zipCode", "postalCode", "postcode", "plz"}))
		town := scalar(first(x, []string{"city", "addressLocality", "town", "locality", "name"}))
		if only, ok := onlyOne(street, zip, town); ok {
			return fold(only) // (no copy)
		}
		var buf [128]byte
		b := appendAddress(buf[:0], street, zip, town)
		if len(b) == 0 {
			b = append(b, scalar(x.get("district"))...)
		}
		return fold(string(b))
	default:
		return fold(scalar(v))
	}
}

// statePrice reads a price that may be a number, a string or an object
// {amount|value, currency, formatted}; curV is the listing's currency
// (first(m, stateCurKeys) of the listing m).
func statePrice(v, curV any) (shown string, value float64, cur string) {
	cur = scalar(curV)
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
	case jstr:
		return p.res.resolveAny(x.val())
	case jarr:
		if es := x.elems(); len(es) > 0 {
			return p.stateImage(es[0])
		}
	case jobj:
		return p.res.resolveAny(scalar(first(x, []string{"url", "src", "href", "uri", "large", "medium", "small"})))
	}
	return ""
}
