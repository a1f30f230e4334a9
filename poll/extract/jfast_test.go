package extract

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The JSON-LD field readers and parseNumber were made cheaper (fewer
// allocations, no work whose result is dropped); these tests hold them to the
// versions they replace, which read encoding/json's maps.

// TestParseNumberMatchesStrconv: parseNumber gives the very float64 of the
// strings.Map + strings.Builder + ParseFloat version, on what findNumber finds
// in the matcher cases, hand-picked numbers and random ones.
func TestParseNumberMatchesStrconv(t *testing.T) {
	cases := append([]string{
		"0", "00", "007", "1", "12", "1.250", "1,250", "1.250,50", "1,250.50", "1.250.000", "1 250 000", "1\u00a0250", "1\u202f250",
		"1’250", "1'250.5", "1.5", "1,5", "1.55", "1.555", "1.5555", "0,05", "0.000001", "123456789012345", "1234567890123456",
		"12345678901234567890", "9007199254740993", "0.1", "0.3", "2.675", "1.0000000000000000000000001", "0,00000000000000000000001",
		"0,000000000000000000000001", "1" + strings.Repeat("0", 400), "1." + strings.Repeat("5", 30), "415.5", "1950.00", "890",
		"1 2", "1  2", "1.2.3", "1,1,1", "1.1,1", "1,1.1", "1 . 2", "12 , 345", "99999999999999.99", "999999999999999.9",
	}, matcherCases...)
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"0", "1", "5", "9", "0", ".", ",", " ", "'", "’", "\u00a0", "\u202f"}
	for range 20000 {
		var b strings.Builder
		for range 1 + rng.IntN(24) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		cases = append(cases, b.String())
	}
	for _, s := range cases {
		checkParseNumber(t, s)
	}
}

func FuzzParseNumber(f *testing.F) {
	for _, s := range matcherCases {
		f.Add(s)
	}
	f.Add("1.250,50")
	f.Add("123456789012345678")
	f.Fuzz(checkParseNumber)
}

func checkParseNumber(t *testing.T, s string) {
	m := findNumber(s)
	if got, want := parseNumber(m), origParseNumber(m); math.Float64bits(got) != math.Float64bits(want) {
		t.Errorf("parseNumber(%q) = %v, want %v", m, got, want)
	}
}

// origParseNumber is parseNumber as it was.
func origParseNumber(m string) float64 {
	var digits strings.Builder
	m = strings.Map(func(r rune) rune {
		switch r {
		case ' ', '\u00a0', '\u202f', '\'', '’':
			return -1
		}
		return r
	}, m)
	lastDot, lastComma := strings.LastIndexByte(m, '.'), strings.LastIndexByte(m, ',')
	dec := -1
	switch {
	case lastDot >= 0 && lastComma >= 0:
		dec = max(lastDot, lastComma)
	case lastDot >= 0 || lastComma >= 0:
		sep := max(lastDot, lastComma)
		ch := m[sep]
		if strings.Count(m, string(ch)) == 1 && len(m)-sep-1 != 3 {
			dec = sep
		}
	}
	for i := 0; i < len(m); i++ {
		c := m[i]
		switch {
		case c >= '0' && c <= '9':
			digits.WriteByte(c)
		case i == dec:
			digits.WriteByte('.')
		}
	}
	v, err := strconv.ParseFloat(strings.TrimSuffix(digits.String(), "."), 64)
	if err != nil {
		return 0
	}
	return v
}

// ldFieldCases are JSON-LD objects whose fields the readers turn into listing
// fields.
var ldFieldCases = []string{
	`{}`, `{"price":"890","priceCurrency":"EUR"}`, `{"price":415.5}`, `{"price":"1950.00"}`, `{"price":"1.250 €"}`,
	`{"price":"ab 890 EUR"}`, `{"price":"890 CHF","priceCurrency":"EUR"}`, `{"price":"Inf"}`, `{"price":"NaN"}`, `{"price":"1e400"}`,
	`{"price":"0x1p-2"}`, `{"price":"1_000"}`, `{"price":"-5"}`, `{"price":"+5"}`, `{"price":" 5 "}`, `{"price":"5€"}`, `{"price":"infinity"}`,
	`{"price":""}`, `{"price":null,"lowPrice":"700"}`, `{"priceSpecification":{"price":12,"priceCurrency":"USD"}}`,
	`{"offers":{"price":"890","priceCurrency":"EUR"}}`, `{"offers":[{"price":"1.200,50 €"}]}`, `{"offers":[]}`, `{"offers":[1]}`,
	`{"price":"","offers":{"price":5}}`, `{"price":true,"offers":{"price":"7 $"}}`, `{"price":1e21}`, `{"price":-0}`, `{"price":123456789.125}`,
	`{"price":"EUR"}`, `{"price":"12 Kč"}`, `{"priceCurrency":" EUR ","price":"5"}`, `{"price":"5","priceCurrency":5}`,
	`{"address":"  24118   Kiel "}`, `{"address":{"streetAddress":"Weg 20","postalCode":"24105","addressLocality":"Kiel"}}`,
	`{"address":{"postalCode":"24105"}}`, `{"address":{"addressLocality":" Kiel "}}`, `{"address":{"streetAddress":"Weg 20"}}`,
	`{"address":{"streetAddress":"Weg 20","addressLocality":"Kiel"}}`, `{"address":{"streetAddress":"Weg 20","postalCode":24105}}`,
	`{"address":{}}`, `{"address":{"streetAddress":"  Düsternbrooker\tWeg  ","postalCode":" ","addressLocality":"MÃ¼nchen"}}`,
	`{"address":{"streetAddress":"` + strings.Repeat("Lange Straße ", 20) + `","postalCode":"1","addressLocality":"x"}}`, `{"address":5}`,
	`{"floorSize":{"value":58,"unitCode":"MTK"}}`, `{"floorSize":{"value":24}}`, `{"floorSize":{"value":"24,5","unitText":"sq ft"}}`,
	`{"floorSize":{"value":58,"unitCode":"MTK","unitText":"m²"}}`, `{"floorSize":{"value":{"value":3},"unitCode":"FTK"}}`,
	`{"floorSize":{"value":" "}}`, `{"floorSize":{"unitCode":"MTK"}}`, `{"floorSize":70}`, `{"floorSize":"70"}`, `{"floorSize":" "}`,
	`{"floorSize":1e300}`, `{"floorSize":{"value":1.5e-7,"unitCode":"X","unitText":"Y"}}`, `{"floorSize":true}`,
	`{"numberOfRooms":2}`, `{"numberOfRooms":"5"}`, `{"numberOfRooms":{"value":2.5}}`, `{"numberOfRooms":[2]}`,
}

// TestLDFieldsMatchOld: the JSON-LD field readers give what they gave on
// encoding/json's maps, on hand-picked objects and random mixes of their
// members.
func TestLDFieldsMatchOld(t *testing.T) {
	for _, s := range ldFieldCases {
		checkLDFields(t, s)
	}
	// Random objects of the members above.
	for _, o := range mixedObjects(t, ldFieldCases, 3, 5) {
		checkLDFields(t, o)
	}
}

// mixedObjects is 5,000 JSON objects of 1 to most members drawn (seeded) from
// the members of cases, for checking a reader on mixes nobody wrote by hand.
func mixedObjects(t *testing.T, cases []string, seed uint64, most int) []string {
	t.Helper()
	var members []string
	for _, s := range cases {
		var m map[string]json.RawMessage
		if json.Unmarshal([]byte(s), &m) != nil {
			t.Fatalf("bad case %s", s)
		}
		for k, v := range m {
			members = append(members, strconv.Quote(k)+":"+string(v))
		}
	}
	slices.Sort(members) // (a map's order is random: the same objects every run)
	rng := rand.New(rand.NewPCG(seed, seed+1))
	out := make([]string, 0, 5000)
	for range 5000 {
		var parts []string
		for range 1 + rng.IntN(most) {
			parts = append(parts, members[rng.IntN(len(members))])
		}
		out = append(out, "{"+strings.Join(parts, ",")+"}")
	}
	return out
}

func FuzzLDFields(f *testing.F) {
	for _, s := range ldFieldCases {
		f.Add(s)
	}
	f.Fuzz(checkLDFields)
}

func checkLDFields(t *testing.T, s string) {
	var want map[string]any
	if json.Unmarshal([]byte(s), &want) != nil || want == nil {
		return
	}
	v, ok := unmarshalJSONPairs(s)
	if !ok {
		t.Fatalf("unmarshalJSONPairs(%q) failed where encoding/json did not", s)
	}
	m := v.(jobj)
	type fields struct {
		price, cur, loc, size, rooms string
		value                        uint64
	}
	var got, old fields
	var pv float64
	pv, got.cur, got.price = ldPrice(m)
	got.value = math.Float64bits(pv)
	got.loc, got.size, got.rooms = ldAddress(m.get("address")), ldQuantity(m.get("floorSize")), ldNumber(m.get("numberOfRooms"))
	pv, old.cur, old.price = origLdPrice(want)
	old.value = math.Float64bits(pv)
	old.loc, old.size, old.rooms = origLdAddress(want["address"]), origLdQuantity(want["floorSize"]), origLdNumber(want["numberOfRooms"])
	if got != old {
		t.Errorf("on %s the JSON-LD fields are\n%+v, were\n%+v", s, got, old)
	}
}

// The JSON-LD field readers as they were, on encoding/json's maps.

func origStr(v any) string {
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

func origLdPrice(m map[string]any) (float64, string, string) {
	for _, src := range []any{m, m["offers"], m["priceSpecification"]} {
		var o map[string]any
		switch x := src.(type) {
		case map[string]any:
			o = x
		case []any:
			if len(x) > 0 {
				o, _ = x[0].(map[string]any)
			}
		}
		if o == nil {
			continue
		}
		pv := o["price"]
		if pv == nil {
			pv = o["lowPrice"]
		}
		if pv == nil {
			if ps, ok := o["priceSpecification"].(map[string]any); ok {
				o = ps
				pv = o["price"]
			}
		}
		cur := origStr(o["priceCurrency"])
		switch x := pv.(type) {
		case float64:
			return x, cur, origFormatPrice(x, cur)
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
			return v, cur, origFormatPrice(v, cur)
		}
	}
	return 0, "", ""
}

func origFormatPrice(v float64, cur string) string {
	s := strconv.FormatFloat(v, 'f', -1, 64)
	if cur != "" {
		s += " " + cur
	}
	return s
}

func origLdAddress(v any) string {
	switch x := v.(type) {
	case string:
		return fold(x)
	case map[string]any:
		var parts []string
		if s := origStr(x["streetAddress"]); s != "" {
			parts = append(parts, s)
		}
		loc := strings.TrimSpace(origStr(x["postalCode"]) + " " + origStr(x["addressLocality"]))
		if loc != "" {
			parts = append(parts, loc)
		}
		return fold(strings.Join(parts, ", "))
	}
	return ""
}

func origLdQuantity(v any) string {
	switch x := v.(type) {
	case map[string]any:
		n := origLdNumber(x["value"])
		if n == "" {
			return ""
		}
		switch u := origStr(x["unitCode"]) + origStr(x["unitText"]); u {
		case "MTK", "m²", "m2", "sqm", "MTKm²":
			return n + " m²"
		case "":
			return n + " m²"
		default:
			return n + " " + u
		}
	case float64, string:
		if n := origLdNumber(x); n != "" {
			return n + " m²"
		}
	}
	return ""
}

func origLdNumber(v any) string {
	switch x := v.(type) {
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case string:
		return strings.TrimSpace(x)
	case map[string]any:
		return origLdNumber(x["value"])
	}
	return ""
}

// TestStateFieldsMatchFirst: stateFields finds for every field the value
// first finds with the field's key list (the very value, not an equal one:
// the readers' values are pointers or scalars, which == compares),
// on every object in the scripts of the fixtures and real pages, and on
// random objects of the lists' keys, nested objects among them.
func TestStateFieldsMatchFirst(t *testing.T) {
	objects := 0
	for _, s := range fixtureScripts(t) {
		if v, ok := decodeFirstJSONPairs(s); ok {
			objects += checkStateFieldsIn(t, v)
		}
	}
	if objects == 0 {
		t.Fatal("no object in the fixtures' scripts")
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 20000 {
		s := randomStateObject(rng, 2)
		if v, ok := decodeFirstJSONPairs(s); !ok {
			t.Fatalf("random object %s does not read", s)
		} else {
			checkStateFieldsIn(t, v)
		}
	}
}

func FuzzStateFields(f *testing.F) {
	rng := rand.New(rand.NewPCG(7, 8))
	for range 50 {
		f.Add(randomStateObject(rng, 2))
	}
	f.Fuzz(func(t *testing.T, s string) {
		if v, ok := decodeFirstJSONPairs(s); ok {
			checkStateFieldsIn(t, v)
		}
	})
}

// checkStateFieldsIn compares stateFields with first on every object in v,
// and returns how many objects there were.
func checkStateFieldsIn(t *testing.T, v any) int {
	n := 0
	switch x := v.(type) {
	case jobj:
		n++
		fs := stateFields(x)
		for f, keys := range stateLists {
			if want := first(x, keys); fs[f] != want {
				t.Errorf("stateFields(%v)[%d] = %#v, first = %#v", x.members(), f, fs[f], want)
			}
		}
		for _, p := range x.members() {
			n += checkStateFieldsIn(t, p.v)
		}
	case jarr:
		for _, e := range x.elems() {
			n += checkStateFieldsIn(t, e)
		}
	}
	return n
}

// randomStateObject is a JSON object of keys from the state lists (and a few
// others) with values that first tells apart: "", null, strings, numbers,
// booleans, arrays and nested objects, depth levels deep at most.
func randomStateObject(rng *rand.Rand, depth int) string {
	var keys []string
	for _, l := range stateLists {
		keys = append(keys, l...)
	}
	keys = append(keys, stateSubKeys[:]...)
	keys = append(keys, "other", "zip", "currency", "amount", "formatted")
	var b strings.Builder
	b.WriteString("{")
	for i := range rng.IntN(9) {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(strconv.Quote(keys[rng.IntN(len(keys))]) + ":")
		switch r := rng.IntN(10); {
		case r == 0:
			b.WriteString(`""`)
		case r == 1:
			b.WriteString("null")
		case r == 2:
			b.WriteString("12")
		case r == 3:
			b.WriteString("false")
		case r == 4:
			b.WriteString(`["a"]`)
		case r == 5:
			b.WriteString("[]")
		case r >= 6 && r <= 8 && depth > 0:
			b.WriteString(randomStateObject(rng, depth-1))
		default:
			b.WriteString(strconv.Quote(fmt.Sprint("v", i)))
		}
	}
	b.WriteString("}")
	return b.String()
}

// stateFieldCases are app-state listing objects whose fields the readers
// turn into listing fields.
var stateFieldCases = []string{
	`{}`, `{"price":{"amount":1120,"currency":"EUR","formatted":"1.120 €"},"address":{"street":"Königstraße 5","zip":"53113","city":"Bonn"}}`,
	`{"rent":"450 €","city":"Freiburg-Wiehre","size":"14 m²"}`, `{"price":940,"currency":"EUR"}`, `{"price":"940","priceCurrency":"CHF"}`,
	`{"price":"1.250,50","data":{"currencyCode":"USD"}}`, `{"price":{"value":"12,5"},"currency":"EUR"}`, `{"price":{"raw":"x"}}`,
	`{"price":{"text":"  ab  500 € "},"currency":"PLN"}`, `{"price":" ","cost":"5 $"}`, `{"price":true}`, `{"price":[1]}`,
	`{"address":{"zip":53225,"city":"Bonn"}}`, `{"address":{"district":"Mitte"}}`, `{"address":{"street":" ","district":"Mitte"}}`,
	`{"address":{"line1":"A 1","address":"B 2","name":"Bonn"}}`, `{"address":{"postcode":"1","zip":"","plz":"3"}}`,
	`{"address":{"street":"A","zip":" "}}`, `{"address":{"city":"MÃ¼nchen"}}`, `{"address":{"street":"` + strings.Repeat("Lange Straße ", 20) + `"}}`,
	`{"location":"  Bonn\t Mitte "}`, `{"location":12}`, `{"location":null,"city":"Köln"}`, `{"attributes":{"address":{"city":"Kiel"}}}`,
	`{"address":{"street":{"x":1},"city":true,"district":"D"}}`, `{"address":{"street":"S","data":{"city":"C"}}}`,
}

// TestStateFieldReadersMatchOld: the app-state price and location readers
// give what they gave on encoding/json's maps (read with UseNumber).
func TestStateFieldReadersMatchOld(t *testing.T) {
	for _, s := range stateFieldCases {
		checkStateFieldReaders(t, s)
	}
	for _, o := range mixedObjects(t, stateFieldCases, 9, 4) {
		checkStateFieldReaders(t, o)
	}
}

func FuzzStateFieldReaders(f *testing.F) {
	for _, s := range stateFieldCases {
		f.Add(s)
	}
	f.Fuzz(checkStateFieldReaders)
}

func checkStateFieldReaders(t *testing.T, s string) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var want map[string]any
	if dec.Decode(&want) != nil || want == nil {
		return
	}
	v, ok := decodeFirstJSONPairs(s)
	if !ok {
		t.Fatalf("decodeFirstJSONPairs(%q) failed where encoding/json did not", s)
	}
	fs := stateFields(v.(jobj))
	type fields struct {
		price, cur, loc string
		value           uint64
	}
	var got, old fields
	var pv float64
	got.price, pv, got.cur = statePrice(fs[fPrice], fs[fCur])
	got.value = math.Float64bits(pv)
	got.loc = stateText(fs[fLoc])
	old.price, pv, old.cur = origStatePrice(origFirst(want, statePriceKeys), want)
	old.value = math.Float64bits(pv)
	old.loc = origStateText(origFirst(want, stateLocKeys))
	if got != old {
		t.Errorf("on %s the app-state fields are\n%+v, were\n%+v", s, got, old)
	}
}

// The app-state field readers as they were, on encoding/json's maps.

func origFirst(m map[string]any, keys []string) any {
	for _, k := range keys {
		if v, ok := m[k]; ok && v != nil && v != "" {
			return v
		}
	}
	for _, k := range []string{"attributes", "data", "listing", "item", "node", "property", "realEstate", "ad"} {
		if sub, ok := m[k].(map[string]any); ok {
			for _, kk := range keys {
				if v, ok := sub[kk]; ok && v != nil && v != "" {
					return v
				}
			}
		}
	}
	return nil
}

func origScalar(v any) string {
	switch x := v.(type) {
	case string:
		return strings.TrimSpace(x)
	case json.Number:
		return x.String()
	case float64:
		return fmt.Sprint(x)
	}
	return ""
}

func origStateText(v any) string {
	switch x := v.(type) {
	case map[string]any:
		var parts []string
		for _, k := range []string{"street", "streetAddress", "address", "line1"} {
			if s := origScalar(x[k]); s != "" {
				parts = append(parts, s)
				break
			}
		}
		city := strings.TrimSpace(origScalar(origFirst(x, []string{"zip", "zipCode", "postalCode", "postcode", "plz"})) + " " +
			origScalar(origFirst(x, []string{"city", "addressLocality", "town", "locality", "name"})))
		if city != "" {
			parts = append(parts, city)
		}
		if d := origScalar(x["district"]); d != "" && len(parts) == 0 {
			parts = append(parts, d)
		}
		return fold(strings.Join(parts, ", "))
	default:
		return fold(origScalar(v))
	}
}

func origStatePrice(v any, m map[string]any) (shown string, value float64, cur string) {
	cur = origScalar(origFirst(m, []string{"currency", "priceCurrency", "currencyCode"}))
	switch x := v.(type) {
	case map[string]any:
		cur2 := origScalar(origFirst(x, []string{"currency", "currencyCode", "priceCurrency"}))
		if cur2 != "" {
			cur = cur2
		}
		if f := origScalar(origFirst(x, []string{"formatted", "formattedValue", "text", "display", "label"})); f != "" {
			shown = fold(f)
		}
		if n := origScalar(origFirst(x, []string{"amount", "value", "price", "raw"})); n != "" {
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
		s := origScalar(v)
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

// TestQueryIDMatchesGet: queryID gives what looking each id key up in turn
// gave, on hand-picked and random queries.
func TestQueryIDMatchesGet(t *testing.T) {
	cases := []string{"", "id=5", "ref=list", "id=&id=7", "id=x y&adId=8", "id=%41", "id=a+b&adid=9", "a;b=1&id=5", "id=1;2&id=3",
		"=1&id=2", "&&id=7&", "ID=5", "id= 12 ", "listingId=ab-12&id=!", "id=" + strings.Repeat("9", 65) + "&oid=1", "utm_x=1&anzeige=42"}
	rng := rand.New(rand.NewPCG(11, 12))
	keys := append([]string{"x", "ref", "", "ID", "id;"}, idQueryKeys...)
	vals := []string{"", "5", "abc-1", " 7 ", "a b", "%41", "!", "x;y", "=", "9_9"}
	for range 20000 {
		var parts []string
		for range rng.IntN(6) {
			kv := keys[rng.IntN(len(keys))]
			if rng.IntN(5) > 0 {
				kv += "=" + vals[rng.IntN(len(vals))]
			}
			parts = append(parts, kv)
		}
		cases = append(cases, strings.Join(parts, "&"))
	}
	for _, q := range cases {
		checkQueryID(t, q)
	}
}

func FuzzQueryID(f *testing.F) {
	f.Add("id=5&adId=7")
	f.Add("a;b=1&id=%41")
	f.Fuzz(checkQueryID)
}

func checkQueryID(t *testing.T, raw string) {
	want := ""
	q := newQuery(raw)
	for _, k := range idQueryKeys {
		if v := strings.TrimSpace(q.get(k)); v != "" && isIDToken(v) {
			want = v
			break
		}
	}
	if got := queryID(raw); got != want {
		t.Errorf("queryID(%q) = %q, want %q", raw, got, want)
	}
}

// TestResolveToMatchesResolve: resolveTo (the URL written to the caller's
// variable) gives what resolve gives, and resolveAny what url.Parse +
// ResolveReference gave, on the matcher cases and hrefs of every kind,
// against pages of every kind.
func TestResolveToMatchesResolve(t *testing.T) {
	hrefs := append([]string{"/a", "a", "https://www.x.de/a/b?c=d&utm_x=1#f", "HTTPS://WWW.X.DE/A", "//x.de/a", "/a#b", "/a%20b",
		"javascript:x()", "mailto:a@x.de", " /a ", "#x", "", "https://u@x.de/a", "https://y.de/a", "http://x.de:8080/a", "data:image/png;base64,AA",
		"/ä", "../a", "?q=1", "a?utm_source=x&id=5", "/a/b?utm_x=1", "b/c?UTM_y=2", "https://cdn.y.de/i.jpg", "ftp://x.de/a", "/a?b=%zz", "x:y", "/x:y",
		"HTTPS://www.x.de/a", "Https://www.x.de/a/b", "https://www.x.de/a/b#", "https://www.x.de/a?", "https://www.x.de", "https://www.x.de/a/b/",
		"http://www.x.de/a", "https://x.de/a", "https://www.x.de/ä", "https://www.x.de/a%20b", "https://www.x.de:443/a", "https://www.X.de/a",
		"http://WWW.X.de:8080/a", "https://www.y.de/z/1", "https://cdn.y.de/i.jpg#f", "https://cdn.y.de/i.jpg?w=1",
		// (sameOriginPlain's two shapes, and what it must leave to the general way)
		"/a/./b", "/a/..", "/a/.b/c.html", "/./", "https://www.x.de/a/./b", "https://www.x.de/a/.b", "https://www.x.de//a", "//www.x.de/a",
		"https://www.x.dex/a", "https://www.x.de.evil/a", "https://x.de/a/b", "http://www.x.de/a/b", "https://www.x.de/a b", " https://www.x.de/a",
		"https://www.x.de/a ", "/a\tb", "/a:b", "https://www.x.de:8080/a", "http://WWW.X.de:8080/a/b", "http://www.x.de:8080/a/b",
		// (plainAbsolute: images on other hosts, and what it must leave to the plain way)
		"https://cdn.y.de/i.jpg?w=ä", "https://cdn.y.de/i.jpg?a b", "https://cdn.y.de/i.jpg?a\x7fb", "https://cdn.y.de/i.jpg#", "https://cdn.y.de/i.jpg?",
		"https://cdn.y.de/a/../i.jpg", "https://CDN.y.de/i.jpg", "HTTP://cdn.y.de/i.jpg", "https://cdn.y.de?w=1", "https://cdn.y.de#f?x",
		"https://cdn.y.de/i.jpg#a%20b", "https://cdn.y.de:99/i.jpg", "https://cdn.y.de:/i.jpg", "https://u@cdn.y.de/i.jpg", "https:///i.jpg"}, matcherCases...)
	for _, h := range hrefs {
		checkResolveTo(t, h)
	}
}

func FuzzResolveTo(f *testing.F) {
	f.Add("/a?b=c#d")
	f.Add("https://WWW.x.de/a/../b")
	f.Fuzz(checkResolveTo)
}

func checkResolveTo(t *testing.T, href string) {
	for _, b := range referenceBases {
		r := newResolver(mustURL(b))
		want, wantOK := r.resolve(href)
		var got url.URL
		if ok := r.resolveTo(href, &got); ok != wantOK || ok && !reflect.DeepEqual(&got, want) {
			t.Errorf("resolveTo(%q) on %s = %#v, %v; resolve: %#v, %v", href, b, &got, ok, want, wantOK)
		}
		checkResolveCanon(t, &r, b, href)
		if got, want := r.resolveAny(href), origResolveAny(&r, href); got != want {
			t.Errorf("resolveAny(%q) on %s = %q, want %q", href, b, got, want)
		}
	}
}

// checkResolveCanon: resolveCanon gives what resolveTo and urlString give,
// on base, and with base's page replaced as a <base href> does (by every
// other base: maybe another site, host case, userinfo).
func checkResolveCanon(t *testing.T, r *resolver, base, href string) {
	t.Helper()
	check := func(r *resolver, page string) {
		var want url.URL
		wantOK := r.resolveTo(href, &want)
		var got url.URL
		c, ok := r.resolveCanon(href, &got)
		if ok != wantOK || ok && (c != urlString(&want) || !reflect.DeepEqual(got, want)) {
			t.Errorf("resolveCanon(%q) on %s (page %s) = %q %#v, %v; resolveTo: %q %#v, %v", href, base, page, c, &got, ok, urlString(&want), &want, wantOK)
		}
	}
	check(r, base)
	for _, b := range referenceBases {
		rb := *r
		rb.setPage(mustURL(b))
		check(&rb, b)
	}
}

// origResolveAny is resolveAny by url.Parse and ResolveReference.
func origResolveAny(r *resolver, href string) string {
	href = strings.TrimSpace(href)
	if href == "" || strings.HasPrefix(href, "data:") {
		return ""
	}
	u, err := url.Parse(href)
	if err != nil {
		return ""
	}
	u = r.page.ResolveReference(u)
	if u.Scheme != "http" && u.Scheme != "https" || u.User != nil || u.Host == "" {
		return ""
	}
	return u.String()
}

// TestStripTrackingMatchesSplit: stripTracking gives what splitting,
// filtering by lower case and joining gave.
func TestStripTrackingMatchesSplit(t *testing.T) {
	cases := []string{"", "a=1", "utm_source=x", "UTM_x=1&a=2", "a=1&utm_x=2&b=3", "&&utm_&", "Utm_=1&&a", "utm=1&utm_", "a&b&utm_c",
		"\u212atm_x=1&a", "utmx_=1&utm_a=2", "ütm_=1&utm_x", "utM_x=1&id=5&", "x=utm_1&utm_y=2", "\xffutm_=1&utm_a"}
	rng := rand.New(rand.NewPCG(13, 14))
	parts := []string{"", "a=1", "utm_", "UTM_S=2", "uTm_x", "utm", "id=7", "ü=1", "utm_ü", "\xff"}
	for range 5000 {
		var ps []string
		for range rng.IntN(6) {
			ps = append(ps, parts[rng.IntN(len(parts))])
		}
		cases = append(cases, strings.Join(ps, "&"))
	}
	for _, q := range cases {
		checkStripTracking(t, q)
	}
}

func FuzzStripTracking(f *testing.F) {
	f.Add("a=1&utm_x=2&b=3")
	f.Fuzz(checkStripTracking)
}

func checkStripTracking(t *testing.T, q string) {
	want := q
	if q != "" && strings.Contains(q, "utm_") {
		parts := strings.Split(q, "&")
		out := parts[:0]
		for _, p := range parts {
			if p == "" || strings.HasPrefix(strings.ToLower(p), "utm_") {
				continue
			}
			out = append(out, p)
		}
		want = strings.Join(out, "&")
	}
	if got := stripTracking(q); got != want {
		t.Errorf("stripTracking(%q) = %q, want %q", q, got, want)
	}
}

// TestSetPageMatchesEscapedPath: the page directory setPage keeps is the
// one EscapedPath gives, on the reference pages and page URLs of the
// matcher cases.
func TestSetPageMatchesEscapedPath(t *testing.T) {
	pages := append([]string{"https://x.de/a/*", "https://x.de/*", "https://x.de/a%2Fb/c", "https://x.de/a b/c", "https://x.de/ä/ö", "https://x.de/a?b/c",
		"https://x.de/a;b=c/d@e/f+g,h~i", "https://x.de/a$b/c", "https://x.de/a!b/c"}, referenceBases...)
	for _, s := range matcherCases {
		pages = append(pages, "https://x.de/"+s)
	}
	for _, p := range pages {
		u, err := url.Parse(p)
		if err != nil {
			continue
		}
		var r resolver
		r.setPage(u)
		ep := u.EscapedPath()
		want := ep[:strings.LastIndex(ep, "/")+1]
		wantPlain := true
		for i := 0; i < len(want); i++ {
			if !plainPathByte(want[i]) {
				wantPlain = false
			}
		}
		if r.baseDir != want || r.baseDirPlain != wantPlain {
			t.Errorf("setPage(%s): %q %v, want %q %v", p, r.baseDir, r.baseDirPlain, want, wantPlain)
		}
	}
}

// TestURLStringMatchesString: urlString is url.URL.String, on the URLs the
// hrefs of the matcher cases resolve to (and parse to) against every
// reference page, and on URLs with every field set.
func TestURLStringMatchesString(t *testing.T) {
	hrefs := append([]string{"https://x.de", "https://x.de?", "https://x.de/a?#", "HTTP://X.DE:80/A", "https://[::1]/a", "https://x.de/a#b/c",
		"https://x.de/a#b c", "https://x.de/a%2Fb", "https://u:p@x.de/a", "mailto:a@x.de", "x:y/z", "/a:b", "a:b/c", "//x.de/a", "https://x.de/ä?ö#ü"}, matcherCases...)
	for _, h := range hrefs {
		checkURLString(t, h)
	}
	for _, u := range []*url.URL{{Scheme: "https", Host: "x.de", Path: "a"}, {Scheme: "https", Host: "x.de", OmitHost: true},
		{Scheme: "https", Host: "x.de", Path: "/a", ForceQuery: true}, {Scheme: "https", Host: "x.de", Path: "/a", RawPath: "/%61"},
		{Scheme: "https", Host: "x.de", Path: "/a", Fragment: "f", RawFragment: "%66"}, {Scheme: "https", Host: "x.de", Path: "/*"},
		{Scheme: "https", Path: "/a"}, {Host: "x.de", Path: "/a"}, {Scheme: "https", Host: "x.de:", Path: "/a"}} {
		if got, want := urlString(u), u.String(); got != want {
			t.Errorf("urlString(%#v) = %q, want %q", u, got, want)
		}
	}
}

func FuzzURLString(f *testing.F) {
	f.Add("https://x.de/a?b#c")
	f.Fuzz(checkURLString)
}

func checkURLString(t *testing.T, href string) {
	if u, err := url.Parse(href); err == nil {
		if got, want := urlString(u), u.String(); got != want {
			t.Errorf("urlString(url.Parse(%q)) = %q, want %q", href, got, want)
		}
	}
	for _, b := range referenceBases {
		r := newResolver(mustURL(b))
		var u url.URL
		if r.referenceTo(href, &u) {
			if got, want := urlString(&u), u.String(); got != want {
				t.Errorf("urlString of %q on %s = %q, want %q", href, b, got, want)
			}
		}
		if u, ok := r.resolve(href); ok {
			if got, want := urlString(u), u.String(); got != want {
				t.Errorf("urlString of %q resolved on %s = %q, want %q", href, b, got, want)
			}
		}
	}
}

// TestStateKeyRankMatchesMap: the table lookup finds every key of the map
// and nothing else.
func TestStateKeyRankMatchesMap(t *testing.T) {
	keys := []string{"", "x", "ids", "Id", "id ", "urlx", "imagesx", "priceFormatted2"}
	for k := range stateKeyRanks {
		keys = append(keys, k, k+"x", strings.ToUpper(k), k[:len(k)-1])
	}
	for _, l := range stateLists {
		keys = append(keys, l...)
	}
	for _, k := range keys {
		if got, want := stateKeyRank(k), stateKeyRanks[k]; got != want {
			t.Errorf("stateKeyRank(%q) = %v, want %v", k, got, want)
		}
	}
}
