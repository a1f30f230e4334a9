package extract

import (
	"encoding/json"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"
)

// This file reads listings a page carries as data: schema.org JSON-LD, a
// framework's app state (__NEXT_DATA__, application/json scripts,
// window.__STATE__ = {…}) and JSON in attributes (Livewire's wire:snapshot).
// The result list is the array whose members look most like listings (an id
// or link, a title, and a price, size or rooms): arrays of navigation, SEO
// links or breadcrumbs have no prices and never win.

// jsonDoc is one JSON value found on the page, and what kind of source held it.
type jsonDoc struct {
	method string // MethodJSONLD, MethodNextData or MethodAppState
	value  any
}

// reAssign finds `name = {` or `name = [` (JSON.parse( allowed between); the
// match ends with the bracket that starts the value. Only such assignments
// count towards the 20 a script is searched for.
var reAssign = regexp.MustCompile(`(?:window\.|self\.)?[A-Za-z_$][\w$.]*\s*=\s*(?:JSON\.parse\()?[\[{]`)

// jsonDocs decodes every JSON source of the page with encoding/json.
func jsonDocs(doc *goquery.Document) []jsonDoc {
	var out []jsonDoc
	doc.FindMatcher(matcher("script")).Each(func(_ int, s *goquery.Selection) {
		typ := strings.ToLower(s.AttrOr("type", ""))
		body := strings.TrimSpace(s.Text())
		if body == "" {
			return
		}
		switch {
		case strings.Contains(typ, "ld+json"):
			if v, ok := decodeJSON(body); ok {
				out = append(out, jsonDoc{MethodJSONLD, v})
			}
		case s.AttrOr("id", "") == "__NEXT_DATA__":
			if v, ok := decodeJSON(body); ok {
				out = append(out, jsonDoc{MethodNextData, v})
			}
		case strings.Contains(typ, "json"):
			if v, ok := decodeJSON(body); ok {
				out = append(out, jsonDoc{MethodAppState, v})
			}
		case typ == "" || strings.Contains(typ, "javascript"):
			out = append(out, assignments(body)...)
		}
	})
	doc.FindMatcher(matcher("*")).Each(func(_ int, s *goquery.Selection) {
		for _, a := range s.Get(0).Attr {
			if v := strings.TrimSpace(a.Val); len(v) > 20 && v[0] == '{' && strings.Contains(v, `"`) {
				if j, ok := decodeJSON(v); ok {
					out = append(out, jsonDoc{MethodAppState, j})
				}
			}
		}
	})
	return out
}

// assignments reads `name = {…}` state assignments of an inline script.
func assignments(body string) []jsonDoc {
	var out []jsonDoc
	for _, loc := range reAssign.FindAllStringIndex(body, 20) {
		rest := body[loc[1]-1:]
		var v any
		if err := json.NewDecoder(strings.NewReader(rest)).Decode(&v); err == nil {
			out = append(out, jsonDoc{MethodAppState, v})
		}
	}
	return out
}

func decodeJSON(s string) (any, bool) {
	var v any
	if err := json.NewDecoder(strings.NewReader(s)).Decode(&v); err != nil {
		return nil, false
	}
	return v, true
}

// jsonArray is the members of arrays found at one path (merged over sources
// of one kind: every card's ld+json object, or every card's snapshot).
type jsonArray struct {
	method string
	path   string
	items  []map[string]any
}

// arraysOf collects the arrays of objects in the docs by path; a document
// that is one object counts as an array of one at its root.
func arraysOf(docs []jsonDoc) []*jsonArray {
	byKey := map[string]*jsonArray{}
	var order []*jsonArray
	add := func(method, path string, items []map[string]any) {
		key := method + " " + path
		a := byKey[key]
		if a == nil {
			a = &jsonArray{method: method, path: path}
			byKey[key] = a
			order = append(order, a)
		}
		a.items = append(a.items, items...)
	}
	var walk func(method string, v any, path string, depth int)
	walk = func(method string, v any, path string, depth int) {
		if depth > 14 {
			return
		}
		switch t := v.(type) {
		case map[string]any:
			if depth == 0 {
				add(method, "", []map[string]any{t})
			}
			for k, c := range t {
				walk(method, c, path+"."+k, depth+1)
			}
		case []any:
			var objs []map[string]any
			for _, c := range t {
				if o, ok := c.(map[string]any); ok && len(o) >= 2 {
					objs = append(objs, o)
				}
			}
			if len(objs) > 0 {
				add(method, path+"[]", objs)
			}
			for _, c := range t {
				walk(method, c, path+"[]", depth+1)
			}
		}
	}
	for _, d := range docs {
		walk(d.method, d.value, "", 0)
	}
	return order
}

// record is a JSON object read as a listing, before its URL is resolved.
type record struct {
	id, url, title, price, currency, location, size, rooms, image string
	priceNum                                                      float64
	typed                                                         bool // a schema.org type of a listing (Apartment, Offer, Product …)
}

// listingLike: an id or a link, a title, and something only a listing has
// (a price, a size, rooms, or a schema.org type that says so).
func (r record) listingLike() bool {
	return (r.id != "" || r.url != "") && r.title != "" && (r.price != "" || r.priceNum > 0 || r.size != "" || r.rooms != "" || r.typed)
}

// listingTypes are schema.org types of a listing.
var listingTypes = map[string]bool{
	"product": true, "offer": true, "residence": true, "apartment": true, "house": true, "singlefamilyresidence": true,
	"accommodation": true, "room": true, "realestatelisting": true, "apartmentcomplex": true, "vehicle": true, "car": true,
}

// bestRecords returns the array whose members look most like listings.
func bestRecords(docs []jsonDoc) ([]record, string) {
	var best []record
	method, bestScore := "", 0
	for _, a := range arraysOf(docs) {
		if !anyListingLike(a.items) {
			continue
		}
		var recs []record
		for _, o := range a.items {
			if r := recordOf(o); r.listingLike() {
				recs = append(recs, r)
			}
		}
		if len(recs)*2 < len(a.items) || len(recs) <= bestScore {
			continue
		}
		best, method, bestScore = recs, a.method, len(recs)
	}
	return best, method
}

// anyListingLike: one of the first members of an array reads as a listing
// (a quick look before the whole array is read).
func anyListingLike(items []map[string]any) bool {
	for _, o := range items[:min(3, len(items))] {
		if recordOf(o).listingLike() {
			return true
		}
	}
	return false
}

// fields flattens an object for reading: its own members, then those of the
// objects inside it (shallower first), and name/value lists as members;
// keys lower case without "_", "-" and spaces.
func fields(o map[string]any) map[string]any {
	out := map[string]any{}
	var add func(o map[string]any, depth int)
	add = func(o map[string]any, depth int) {
		var nested []map[string]any
		for k, v := range o {
			nk := normKey(k)
			if _, ok := out[nk]; !ok {
				out[nk] = v
			}
			switch t := v.(type) {
			case map[string]any:
				nested = append(nested, t)
			case []any:
				nameValues(t, out)
			}
		}
		if depth < 3 {
			for _, n := range nested {
				add(n, depth+1)
			}
		}
	}
	add(o, 0)
	return out
}

// nameValues reads [{"name":"HEADING","values":["…"]}, …] into out.
func nameValues(list []any, out map[string]any) {
	for _, e := range list {
		o, ok := e.(map[string]any)
		if !ok {
			return
		}
		name, _ := o["name"].(string)
		if name == "" {
			name, _ = o["key"].(string)
		}
		if name == "" {
			return
		}
		v := o["value"]
		if vs, ok := o["values"].([]any); ok && len(vs) > 0 {
			v = vs[0]
		}
		for _, part := range strings.Split(name, "/") {
			if nk := normKey(part); nk != "" {
				if _, ok := out[nk]; !ok {
					out[nk] = v
				}
			}
		}
	}
}

var keyPunct = strings.NewReplacer("_", "", "-", "", " ", "", "@", "")

func normKey(k string) string { return keyPunct.Replace(strings.ToLower(k)) }

var (
	idKeys       = []string{"id", "adid", "listingid", "estateid", "objectid", "advertid", "exposeid", "propertyid", "uuid", "sku", "productid", "guid", "identifier"}
	urlKeys      = []string{"url", "deeplink", "detailurl", "seourl", "permalink", "canonicalurl", "link", "href", "exposeurl", "weburl", "shareurl"}
	titleKeys    = []string{"title", "headline", "heading", "name", "subject"}
	shownPrice   = []string{"pricefordisplay", "formattedprice", "displayprice", "pricetext", "priceformatted", "pricelabel", "pricestring"}
	numericPrice = []string{"price", "rentnet", "netrent", "coldrent", "kaltmiete", "rent", "purchaseprice", "baseprice", "pricevalue", "totalprice", "amount", "lowprice"}
	currencyKeys = []string{"pricecurrency", "currency", "currencycode"}
	sizeKeys     = []string{"livingarea", "livingspace", "floorsize", "estatesize", "wohnflaeche", "area", "size", "space", "surface", "sqm", "squaremeters"}
	roomKeys     = []string{"numberofrooms", "rooms", "roomcount", "noofrooms", "zimmer", "numberofroomstotal"}
	placeKeys    = []string{"location", "address", "district", "city", "locality", "addresslocality"}
	imageKeys    = []string{"image", "imageurl", "mainimageurl", "thumbnail", "thumbnailurl", "picture", "photo"}
)

// typedListing reports whether o, or an object in it, has a listing's @type.
func typedListing(o map[string]any, depth int) bool {
	if t, ok := o["@type"].(string); ok && listingTypes[strings.ToLower(t)] {
		return true
	}
	if depth < 2 {
		for _, v := range o {
			if c, ok := v.(map[string]any); ok && typedListing(c, depth+1) {
				return true
			}
		}
	}
	return false
}

// recordOf reads one JSON object as a listing.
func recordOf(o map[string]any) record {
	f := fields(o)
	r := record{
		id:       scalar(first(f, idKeys)),
		url:      scalar(first(f, urlKeys)),
		title:    clean(scalar(first(f, titleKeys))),
		price:    clean(scalar(first(f, shownPrice))),
		currency: scalar(first(f, currencyKeys)),
		location: place(first(f, placeKeys)),
		size:     scalar(first(f, sizeKeys)),
		rooms:    scalar(first(f, roomKeys)),
		image:    scalar(first(f, imageKeys)),
	}
	r.typed = typedListing(o, 0)
	if p := first(f, numericPrice); p != nil {
		text := scalar(p)
		if v, err := strconv.ParseFloat(text, 64); err == nil {
			r.priceNum = v
		} else if r.price == "" {
			r.price = findPrice(clean(text)) // "450 €": shown as the site writes it
		}
	}
	if !strings.Contains(r.url, "/") {
		r.url = "" // a word, not a link
	}
	if strings.HasPrefix(r.id, "http") || strings.HasPrefix(r.id, "/") {
		if r.url == "" {
			r.url = r.id
		}
		r.id = ""
	}
	return r
}

// first returns the value of the first key present with a usable value.
func first(f map[string]any, keys []string) any {
	for _, k := range keys {
		if v, ok := f[k]; ok && v != nil && scalarOrPlace(v) {
			return v
		}
	}
	return nil
}

func scalarOrPlace(v any) bool {
	switch t := v.(type) {
	case string:
		return strings.TrimSpace(t) != ""
	case float64, bool:
		return true
	case map[string]any:
		return place(t) != "" || scalar(t) != ""
	case []any:
		return len(t) > 0 && scalarOrPlace(t[0])
	}
	return false
}

// scalar writes a JSON value as text: numbers without exponent, an object by
// its value/amount/url member, a list by its first member.
func scalar(v any) string {
	switch t := v.(type) {
	case string:
		return strings.TrimSpace(t)
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 64)
	case map[string]any:
		for _, k := range []string{"value", "amount", "url", "contentUrl", "@id", "name"} {
			if c, ok := t[k]; ok {
				return scalar(c)
			}
		}
	case []any:
		if len(t) > 0 {
			return scalar(t[0])
		}
	}
	return ""
}

// place writes an address: a string, or a postal address's parts.
func place(v any) string {
	switch t := v.(type) {
	case string:
		return clean(t)
	case map[string]any:
		// "Düsternbrooker Weg 20, 24105 Kiel"
		join := func(keys ...string) string {
			var parts []string
			for _, k := range keys {
				if s := scalar(t[k]); s != "" {
					parts = append(parts, s)
				}
			}
			return strings.Join(parts, " ")
		}
		var parts []string
		for _, p := range []string{join("streetAddress", "street"), join("postalCode", "zipCode", "addressLocality", "city"), join("district")} {
			if p != "" {
				parts = append(parts, p)
			}
		}
		return clean(strings.Join(parts, ", "))
	}
	return ""
}

// listing turns a record into a listing on the page's site: its URL resolved
// (a path without a leading slash is taken from the site's root, after the
// prefix the page's own path puts before the same first segment).
func (r record) listing(base *url.URL, paths []string) (Listing, bool) {
	u, ok := resolveLink(base, appPath(r.url, base, paths))
	if !ok {
		return Listing{}, false
	}
	l := Listing{ID: r.id, URL: u.String(), Title: r.title, Price: r.price, Location: r.location, Size: r.size, Rooms: r.rooms}
	if l.ID == "" {
		l.ID = idFromURL(u)
	}
	l.PriceValue, l.Currency = priceValue(l.Price)
	if l.Price == "" && r.priceNum > 0 {
		l.PriceValue = r.priceNum
		l.Currency = strings.ToUpper(r.currency)
		l.Price = strconv.FormatFloat(r.priceNum, 'f', -1, 64) + " " + currencySign(l.Currency)
	}
	if l.Currency == "" {
		l.Currency = strings.ToUpper(r.currency)
	}
	if bareAmount(l.Size) {
		l.Size += " m²"
	}
	if r.image != "" {
		if iu, ok := resolveLink(base, r.image); ok {
			l.Image = iu.String()
		}
	}
	return l, true
}

func currencySign(code string) string {
	switch code {
	case "EUR", "":
		return "€"
	case "USD":
		return "$"
	case "GBP":
		return "£"
	}
	return code
}

// appPath makes an app's relative path ("immobilien/d/…") absolute: after the
// prefix that the page's own path, or the site's other paths in the page's
// data, put before the same first segment ("/iad/immobilien/…"); else from
// the root.
func appPath(p string, base *url.URL, paths []string) string {
	if p == "" || strings.Contains(p, "://") || strings.HasPrefix(p, "/") {
		return p
	}
	seg, _, _ := strings.Cut(p, "/")
	count := map[string]int{}
	best := ""
	for _, sp := range append([]string{base.Path}, paths...) {
		if i := strings.Index(sp, "/"+seg+"/"); i > 0 {
			prefix := sp[:i+1]
			count[prefix]++
			if count[prefix] > count[best] {
				best = prefix
			}
		}
	}
	if best == "" {
		best = "/"
	}
	return best + p
}

// sitePaths are the paths of the links to this site's pages that the page's
// data holds ("https://www.willhaben.at/iad/immobilien/…"): evidence of where
// the app's relative paths live. (Paths without a host are often the API's.)
func sitePaths(docs []jsonDoc, host string) []string {
	var out []string
	var walk func(v any, depth int)
	walk = func(v any, depth int) {
		if depth > 14 || len(out) > 2000 {
			return
		}
		switch t := v.(type) {
		case string:
			if strings.HasPrefix(t, "http") && len(t) < 300 {
				if u, err := url.Parse(t); err == nil && strings.EqualFold(u.Host, host) {
					out = append(out, u.Path)
				}
			}
		case map[string]any:
			for _, c := range t {
				walk(c, depth+1)
			}
		case []any:
			for _, c := range t {
				walk(c, depth+1)
			}
		}
	}
	for _, d := range docs {
		walk(d.value, 0)
	}
	return out
}

// enrich fills what a listing lacks from another reading of it.
func enrich(l *Listing, o Listing) {
	for _, f := range []struct {
		dst *string
		src string
	}{
		{&l.Title, o.Title}, {&l.Location, o.Location}, {&l.Size, o.Size}, {&l.Rooms, o.Rooms}, {&l.Image, o.Image},
	} {
		if *f.dst == "" {
			*f.dst = f.src
		}
	}
	if l.Price == "" && o.Price != "" {
		l.Price, l.PriceValue, l.Currency = o.Price, o.PriceValue, o.Currency
	}
}

// linkWithID finds the page link whose URL carries id, for a record without one.
func linkWithID(root *html.Node, base *url.URL, id string) string {
	var found string
	goquery.NewDocumentFromNode(root).FindMatcher(matcher("a[href]")).EachWithBreak(func(_ int, a *goquery.Selection) bool {
		if u, ok := resolveLink(base, a.AttrOr("href", "")); ok && inURL(id, u) {
			found = u.String()
			return false
		}
		return true
	})
	return found
}
