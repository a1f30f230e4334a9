package extract

import (
	"bytes"
	"cmp"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/PuerkitoBio/goquery"
	"github.com/valyala/fastjson"
	"golang.org/x/net/html"

	"notifio/internal/model"
)

// This file reads one JSON object of a page's data as a listing: its fields
// found by key (in any case, nested or as name/value lists), written as the
// site shows them, its link resolved on the page's site.

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

// fieldSet is an object read for the keys the key lists name: for each
// (by its number in keyIDs), its value nearest the object's top.
type fieldSet []field

type field struct {
	value *fastjson.Value
	depth int // 0: the object's own member; 1: a member of an object in it …
}

// fields flattens an object for reading: its own members, then those of the
// objects inside it, and name/value lists as members; keys compared lower
// case without "_", "-", " " and "@".
func fields(o *fastjson.Object) fieldSet {
	f := make(fieldSet, len(keyIDs))
	var buf [64]byte
	var add func(o *fastjson.Object, depth int)
	add = func(o *fastjson.Object, depth int) {
		var nested []*fastjson.Object
		o.Visit(func(k []byte, v *fastjson.Value) {
			f.set(normKey(buf[:0], k), v, depth)
			switch v.Type() {
			case fastjson.TypeObject:
				nested = append(nested, v.GetObject())
			case fastjson.TypeArray:
				f.nameValues(v.GetArray(), depth)
			}
		})
		if depth < 3 {
			for _, n := range nested {
				add(n, depth+1)
			}
		}
	}
	add(o, 0)
	return f
}

// set keeps v as the value of a key the lists name, unless it has one as
// near the top.
func (f fieldSet) set(key []byte, v *fastjson.Value, depth int) {
	if id, ok := keyIDs[string(key)]; ok && (f[id].value == nil || depth < f[id].depth) {
		f[id] = field{v, depth}
	}
}

// nameValues reads [{"name":"HEADING","values":["…"]}, …] as members.
func (f fieldSet) nameValues(list []*fastjson.Value, depth int) {
	var buf [64]byte
	for _, e := range list {
		o := e.GetObject()
		if o == nil {
			return
		}
		name := o.Get("name").GetStringBytes()
		if len(name) == 0 {
			name = o.Get("key").GetStringBytes()
		}
		if len(name) == 0 {
			return
		}
		v := o.Get("value")
		if vs := e.GetArray("values"); len(vs) > 0 {
			v = vs[0]
		}
		for part := range bytes.SplitSeq(name, []byte("/")) {
			f.set(normKey(buf[:0], part), v, depth)
		}
	}
}

// jsonString is a JSON string's text ("" for anything else), invalid UTF-8 replaced.
func jsonString(v *fastjson.Value) string {
	if v == nil {
		return ""
	}
	b, err := v.StringBytes()
	if err != nil {
		return ""
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

// normKey appends k to dst in ASCII lower case without "_", "-", " " and
// "@" (the key lists are ASCII: other letters are kept as they are).
func normKey(dst, k []byte) []byte {
	for _, c := range k {
		switch {
		case c == '_' || c == '-' || c == ' ' || c == '@':
		case c >= 'A' && c <= 'Z':
			dst = append(dst, c+'a'-'A')
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// keyIDs numbers the keys of the lists below.
var keyIDs = map[string]int{}

// keys numbers a list of keys, most telling first.
func keys(names ...string) []int {
	ids := make([]int, len(names))
	for i, n := range names {
		id, ok := keyIDs[n]
		if !ok {
			id = len(keyIDs)
			keyIDs[n] = id
		}
		ids[i] = id
	}
	return ids
}

var (
	idKeys       = keys("id", "adid", "listingid", "estateid", "objectid", "advertid", "exposeid", "propertyid", "uuid", "sku", "productid", "guid", "identifier")
	urlKeys      = keys("url", "deeplink", "detailurl", "seourl", "permalink", "canonicalurl", "link", "href", "exposeurl", "weburl", "shareurl")
	titleKeys    = keys("title", "headline", "heading", "name", "subject")
	shownPrice   = keys("pricefordisplay", "formattedprice", "displayprice", "pricetext", "priceformatted", "pricelabel", "pricestring")
	numericPrice = keys("price", "rentnet", "netrent", "coldrent", "kaltmiete", "rent", "purchaseprice", "baseprice", "pricevalue", "totalprice", "amount", "lowprice")
	currencyKeys = keys("pricecurrency", "currency", "currencycode")
	sizeKeys     = keys("livingarea", "livingspace", "floorsize", "estatesize", "wohnflaeche", "area", "size", "space", "surface", "sqm", "squaremeters")
	roomKeys     = keys("numberofrooms", "rooms", "roomcount", "noofrooms", "zimmer", "numberofroomstotal", "bedrooms", "numberofbedrooms", "beds")
	placeKeys    = keys("location", "address", "district", "city", "locality", "addresslocality")
	imageKeys    = keys("image", "imageurl", "mainimageurl", "thumbnail", "thumbnailurl", "picture", "photo")
)

// typedListing reports whether o, or an object in it, has a listing's @type.
func typedListing(o *fastjson.Object, depth int) bool {
	if listingTypes[strings.ToLower(jsonString(o.Get("@type")))] {
		return true
	}
	found := false
	if depth < 2 {
		o.Visit(func(_ []byte, v *fastjson.Value) {
			if c := v.GetObject(); c != nil && !found {
				found = typedListing(c, depth+1)
			}
		})
	}
	return found
}

// recordOf reads one JSON object as a listing.
func recordOf(o *fastjson.Object) record {
	f := fields(o)
	id, link, title, location := first(f, idKeys), first(f, urlKeys), first(f, titleKeys), place(first(f, placeKeys))
	if id == nil && link == nil || title == nil && location == "" {
		return record{} // not a listing: read no further
	}
	r := record{
		id:       scalar(id),
		url:      scalar(link),
		title:    clean(scalar(title)),
		price:    clean(scalar(first(f, shownPrice))),
		currency: scalar(first(f, currencyKeys)),
		location: location,
		size:     sizeOf(first(f, sizeKeys)),
		rooms:    scalar(first(f, roomKeys)),
		image:    scalar(first(f, imageKeys)),
	}
	if r.title == "" {
		r.title = location // a rental named by its address ("1420 E Pine St APT 302, Seattle")
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

// first returns the usable value of the keys nearest the object's top, of
// those as near the first in the list: a listing's own "subject" is its
// title, not its owner's "name".
func first(f fieldSet, keys []int) *fastjson.Value {
	var best *field
	for _, id := range keys {
		if fv := &f[id]; scalarOrPlace(fv.value) && (best == nil || fv.depth < best.depth) {
			best = fv
		}
	}
	if best == nil {
		return nil
	}
	return best.value
}

func scalarOrPlace(v *fastjson.Value) bool {
	if v == nil {
		return false
	}
	switch v.Type() {
	case fastjson.TypeString:
		b, _ := v.StringBytes()
		return len(bytes.TrimSpace(b)) > 0
	case fastjson.TypeNumber, fastjson.TypeTrue, fastjson.TypeFalse:
		return true
	case fastjson.TypeObject:
		return place(v) != "" || scalar(v) != ""
	case fastjson.TypeArray:
		list := v.GetArray()
		return len(list) > 0 && scalarOrPlace(list[0])
	}
	return false
}

// scalar writes a JSON value as text: numbers as written (without exponent),
// an object by its value/amount/url member, a list by its first member.
func scalar(v *fastjson.Value) string {
	if v == nil {
		return ""
	}
	switch v.Type() {
	case fastjson.TypeString:
		return strings.TrimSpace(jsonString(v))
	case fastjson.TypeNumber:
		return jsonNumber(v)
	case fastjson.TypeObject:
		o := v.GetObject()
		for _, k := range []string{"value", "amount", "url", "contentUrl", "@id", "name"} {
			if c := o.Get(k); c != nil {
				return scalar(c)
			}
		}
	case fastjson.TypeArray:
		if list := v.GetArray(); len(list) > 0 {
			return scalar(list[0])
		}
	}
	return ""
}

// jsonNumber writes a JSON number: a whole number digit for digit (an id longer
// than a float64 holds stays whole), others without an exponent.
func jsonNumber(v *fastjson.Value) string {
	raw := v.String()
	if strings.Trim(raw, "-0123456789") == "" {
		return raw
	}
	return strconv.FormatFloat(v.GetFloat64(), 'f', -1, 64)
}

// sizeOf writes an area as the data gives it: a number, with its unit only
// where the data names one (schema.org's unitCode MTK is m², FTK sq ft; a
// bare number may be either).
func sizeOf(v *fastjson.Value) string {
	s, o := scalar(v), v.GetObject()
	if s == "" || o == nil {
		return s
	}
	unit := map[string]string{"MTK": "m²", "FTK": "sq ft"}[strings.ToUpper(jsonString(o.Get("unitCode")))]
	return strings.TrimSpace(s + " " + cmp.Or(unit, clean(jsonString(o.Get("unitText")))))
}

// place writes an address: a string, or a postal address's parts.
func place(v *fastjson.Value) string {
	if v == nil {
		return ""
	}
	switch v.Type() {
	case fastjson.TypeString:
		return clean(jsonString(v))
	case fastjson.TypeObject: // "Düsternbrooker Weg 20, 24105 Kiel"
		o := v.GetObject()
		f := func(k string) string { return scalar(o.Get(k)) }
		return clean(joinNonEmpty(", ", joinNonEmpty(" ", f("streetAddress"), f("street")),
			joinNonEmpty(" ", f("postalCode"), f("zipCode"), f("addressLocality"), f("city")), f("district")))
	}
	return ""
}

// joinNonEmpty joins the parts that are not empty.
func joinNonEmpty(sep string, parts ...string) string {
	return strings.Join(slices.DeleteFunc(parts, func(p string) bool { return p == "" }), sep)
}

// listing turns a record into a listing on the page's site: its URL resolved
// (an app's path without a leading slash by appPath).
func (r record) listing(base *url.URL, paths []string) (model.PageListing, bool) {
	u, ok := resolveLink(base, appPath(r.url, base, paths))
	if !ok {
		return model.PageListing{}, false
	}
	l := model.PageListing{ID: r.id, URL: u.String(), Title: r.title, Price: r.price, Location: r.location, Size: r.size, Rooms: r.rooms}
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
// data, put most often before the same first segment ("/iad/immobilien/…");
// else from the root.
func appPath(p string, base *url.URL, paths []string) string {
	if p == "" || strings.Contains(p, "://") || strings.HasPrefix(p, "/") {
		return p
	}
	seg, _, _ := strings.Cut(p, "/")
	segment := "/" + seg + "/"
	count := map[string]int{}
	best := ""
	for _, sp := range append([]string{base.Path}, paths...) {
		if i := strings.Index(sp, segment); i > 0 {
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
