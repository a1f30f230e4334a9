package extract

import (
	"math"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// The JSON reader's string scan skips plain bytes a word at a time; these
// tests hold it to the byte-by-byte scan it sped up.

// TestStrWordsMatchTable: str stops at each byte strPlain rejects wherever it
// is in a word (alone or with another one), as the byte scan does: every
// kind of byte at every place of a long plain string, from every start.
func TestStrWordsMatchTable(t *testing.T) {
	special := []byte{0, 1, 0x1f, ' ', '!', '"', '#', '[', '\\', ']', 0x7e, 0x7f, 0x80, 0xa0, 0xc3, 0xfe, 0xff}
	for _, c := range special {
		for _, c2 := range special {
			for at := range 17 {
				w := []byte(`"abcdefghijklmnopqrstuvwxyz012"`)
				w[1+at] = c
				w[1+(at+3)%24] = c2
				for i := range 9 {
					checkStr(t, `"`+string(w[1+i:]))
				}
			}
		}
	}
}

// TestStrMatchesByteScan: str gives what the byte-by-byte scan gave (value,
// success, where it stops) on every string literal of the fixtures' scripts
// and on random literals with escapes, quotes, control and non-ASCII bytes.
func TestStrMatchesByteScan(t *testing.T) {
	n := 0
	for _, s := range fixtureScripts(t) {
		for i := 0; i < len(s); i++ {
			if s[i] == '"' {
				checkStr(t, s[i:])
				n++
			}
		}
	}
	if n == 0 {
		t.Fatal("no string in the fixtures' scripts")
	}
	rng := rand.New(rand.NewPCG(13, 14))
	parts := []string{"a", "plain text ", "https://www.example.de/x/1234", "\\\"", "\\\\", "\\n", "\\u00fc", "\\ud83d\\ude00", "\\ud83d", "\\x", "\\u12", "ü", "€", "\xff", "\xc3", "\x01", "\t", "\""}
	for range 50000 {
		var b strings.Builder
		b.WriteByte('"')
		for range rng.IntN(12) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		if rng.IntN(8) > 0 {
			b.WriteByte('"')
		}
		checkStr(t, b.String())
	}
}

func FuzzStr(f *testing.F) {
	f.Add(`"plain"`)
	f.Add(`"https://www.example.de/angebot/kiel-wik-5503?utm_source=feed"`)
	f.Add(`"F\u00f6rde \"Blick\" ü"`)
	f.Add("\"abcdefgh\xffijklmnop\"")
	f.Fuzz(func(t *testing.T, s string) {
		if strings.HasPrefix(s, `"`) {
			checkStr(t, s)
		}
	})
}

// checkStr compares str with byteScanStr on the literal that starts s.
func checkStr(t *testing.T, s string) {
	t.Helper()
	d := jsonReader{s: s}
	got, ok := d.str()
	o := jsonReader{s: s}
	want, wantOK := o.byteScanStr()
	if got != want || ok != wantOK || ok && d.i != o.i {
		t.Fatalf("str(%q) = %q, %v, at %d; want %q, %v, at %d", s, got, ok, d.i, want, wantOK, o.i)
	}
}

// byteScanStr is str as it was before the word loop: plain bytes skipped one
// at a time.
func (d *jsonReader) byteScanStr() (string, bool) {
	s := d.s
	i := d.i + 1
	start := i
	simple := true
	for {
		for i < len(s) && strPlain[s[i]] {
			i++
		}
		if i >= len(s) {
			return "", false
		}
		switch c := s[i]; {
		case c == '"':
			d.i = i + 1
			if simple {
				return s[start:i], true
			}
			return unquoteJSON(s[start:i]), true
		case c == '\\':
			simple = false
			i++
			if i >= len(s) {
				return "", false
			}
			switch s[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i++
			case 'u':
				if i+5 > len(s) {
					return "", false
				}
				for _, h := range []byte(s[i+1 : i+5]) {
					if !isHex(h) {
						return "", false
					}
				}
				i += 5
			default:
				return "", false
			}
		case c < ' ':
			return "", false
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				simple = false
			}
			i += size
		}
	}
}

// BenchmarkJSONReadScripts is the pairs reader on the scripts of the JSON
// fixtures (reused as the page reuses it), without the rest of extraction.
func BenchmarkJSONReadScripts(b *testing.B) {
	var scripts []string
	for _, s := range fixtureScripts(b) {
		if t := strings.TrimSpace(s); strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") {
			scripts = append(scripts, t)
		}
	}
	var d jsonReader
	n := 0
	for _, s := range scripts {
		n += len(s)
	}
	b.SetBytes(int64(n))
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range scripts {
			d.decodeFirstPairs(s)
		}
		d.reset()
	}
}

// ldWalk reads the members it needs in one pass, and ldPrice looks up offers
// and priceSpecification only when needed; these tests hold ldWalk (with
// ldAdd and ldPrice under it) to the walk with a lookup per key.

// TestLDWalkMatchesLookups: ldWalk gives the listings (and inList) of
// origLDWalk on every script of the fixtures and real pages, read against
// their own URLs, and on random JSON-LD of the types and keys ldWalk reads.
func TestLDWalkMatchesLookups(t *testing.T) {
	type doc struct {
		body []byte
		url  *url.URL
	}
	var docs []doc
	for _, c := range fixtureCases(t) {
		body, err := os.ReadFile(filepath.Join(fixtureDir, c.name+".html"))
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, doc{body, mustURL(c.url)})
	}
	for _, pg := range realPages(t) {
		docs = append(docs, doc{pg.body, pg.url})
	}
	n := 0
	for _, d := range docs {
		p := newPage(Parse(d.body), d.url)
		p.scan()
		for _, s := range p.scripts {
			if s.FirstChild != nil {
				n += checkLDWalk(t, p, strings.TrimSpace(s.FirstChild.Data))
			}
		}
	}
	if n == 0 {
		t.Fatal("no listing in the fixtures' JSON-LD")
	}
	p := newPage(Parse(nil), mustURL("https://www.example.de/suche/wohnungen"))
	for _, s := range ldWalkCases {
		if checkLDWalk(t, p, s) == 0 {
			t.Errorf("no listing in %s", s)
		}
	}
	rng := rand.New(rand.NewPCG(15, 16))
	for range 20000 {
		checkLDWalk(t, p, randomLD(rng, 3))
	}
}

// ldWalkCases are listings whose details come from the object itself, its
// itemOffered or both.
var ldWalkCases = []string{
	`{"@type":"Offer","url":"/a/1","name":"","headline":"H","sku":"bad id!","mpn":"M-1","address":"24118 Kiel","itemOffered":{"@type":"Apartment","name":"N"}}`,
	`[{"@type":"Offer","url":"/a/1","itemOffered":{"name":"N","address":{"postalCode":"1"},"floorSize":58,"numberOfRooms":"3","image":"/i.jpg"},"address":"X","image":"/j.jpg"},{"@type":"Offer","@id":"/a/2","offers":{"url":"/a/3"}}]`,
	`{"@type":"ItemList","itemListElement":[{"@type":"ListItem","item":"/a/1","name":"N"},{"@type":"ListItem","url":"/a/2","identifier":"I-2","productID":"P-2"}]}`,
	`{"@type":"Product","offers":{"url":"/a/3","price":"5"},"itemOffered":[],"floorSize":{"value":3},"numberOfRooms":2}`,
}

func FuzzLDWalk(f *testing.F) {
	for _, s := range ldWalkCases {
		f.Add(s)
	}
	rng := rand.New(rand.NewPCG(17, 18))
	for range 50 {
		f.Add(randomLD(rng, 3))
	}
	for _, s := range fixtureScripts(f) {
		if len(s) < 20000 && strings.Contains(s, "@type") {
			f.Add(s)
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		p := newPage(Parse(nil), mustURL("https://www.example.de/suche/wohnungen"))
		checkLDWalk(t, p, s)
	})
}

// checkLDWalk compares ldWalk with origLDWalk on the script s (when it
// reads) and returns how many listings they found.
func checkLDWalk(t *testing.T, p *page, s string) int {
	t.Helper()
	v, ok := unmarshalJSONPairs(s)
	if !ok {
		return 0
	}
	var got, want []Listing
	var gotIn, wantIn bool
	p.ldPrices = p.ldPrices[:0]
	p.ldWalk(v, false, &got, &gotIn, &strSet{}, 0)
	writeLDPrices(got, p.ldPrices) // (what jsonLD leaves to the end)
	p.origLDWalk(v, false, &want, &wantIn, map[string]bool{}, 0)
	if gotIn != wantIn || !reflect.DeepEqual(got, want) {
		t.Fatalf("on %s ldWalk gives\n%+v, %v; the lookups gave\n%+v, %v", s, got, gotIn, want, wantIn)
	}
	return len(got)
}

// randomLD is a random JSON-LD value of the types and keys ldWalk reads,
// with listings on the page's site and elsewhere.
func randomLD(rng *rand.Rand, depth int) string {
	types := []string{"ItemList", "ListItem", "Apartment", "Offer", "Product", "House", "WebSite", "BreadcrumbList",
		"Organization", "OfferCatalog", "SearchResultsPage", "CollectionPage", "PostalAddress", "Thing", "https://schema.org/Room", "http://schema.org/ItemList"}
	hrefs := []string{`"https://www.example.de/expose/123456"`, `"/angebot/kiel-wik-5503?utm_source=x&ref=1#top"`, `"https://other.de/x/1"`,
		`"angebot/7"`, `""`, `"#"`, `"https://www.example.de/suche/wohnungen"`, `5`, `null`, `"https://cdn.example.de/a/9.jpg"`}
	var value func(d int) string
	value = func(d int) string {
		if d <= 0 || rng.IntN(4) == 0 {
			return hrefs[rng.IntN(len(hrefs))]
		}
		if rng.IntN(4) == 0 {
			var es []string
			for range rng.IntN(4) {
				es = append(es, value(d-1))
			}
			return "[" + strings.Join(es, ",") + "]"
		}
		var ms []string
		switch rng.IntN(3) {
		case 0:
			ms = append(ms, `"@type":`+strconv.Quote(types[rng.IntN(len(types))]))
		case 1:
			ms = append(ms, `"@type":[`+strconv.Quote(types[rng.IntN(len(types))])+`,`+strconv.Quote(types[rng.IntN(len(types))])+`]`)
		}
		keys := []string{"@graph", "item", "itemListElement", "mainEntity", "about", "hasPart", "offers", "itemOffered",
			"url", "@id", "name", "headline", "sku", "productID", "identifier", "mpn", "price", "lowPrice", "priceCurrency", "priceSpecification", "address", "image", "numberOfRooms", "floorSize"}
		for range rng.IntN(9) {
			k := keys[rng.IntN(len(keys))]
			var v string
			switch k {
			case "name", "headline", "sku", "productID", "identifier", "mpn":
				v = strconv.Quote([]string{"Wohnung 1", " 2 Zimmer ", "A12345", "", k + "-7", "X" + strconv.Itoa(rng.IntN(1000))}[rng.IntN(6)])
			case "address":
				v = []string{`"24118 Kiel"`, `""`, `{"postalCode":"24105"}`, `{}`, `5`}[rng.IntN(5)]
			case "floorSize", "numberOfRooms":
				v = []string{`58`, `"3"`, `{"value":24,"unitCode":"MTK"}`, `""`}[rng.IntN(4)]
			case "price", "lowPrice":
				v = []string{`"890"`, `415.5`, `"1.950 €"`, `""`, `null`, `"1950.00"`, `"0"`}[rng.IntN(7)]
			case "priceCurrency":
				v = []string{`"EUR"`, `"CHF"`, `5`}[rng.IntN(3)]
			default:
				v = value(d - 1)
			}
			ms = append(ms, strconv.Quote(k)+":"+v)
		}
		return "{" + strings.Join(ms, ",") + "}"
	}
	return value(depth)
}

// origLDWalk is ldWalk as it was, with a lookup per key read.
func (p *page) origLDWalk(v any, listCtx bool, out *[]Listing, inList *bool, seen map[string]bool, depth int) {
	if depth > 12 {
		return
	}
	switch x := v.(type) {
	case jarr:
		for _, e := range x.elems() {
			p.origLDWalk(e, listCtx, out, inList, seen, depth+1)
		}
	case jobj:
		var buf [4]string
		types := ldTypesOf(x.get("@type"), buf[:])
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
			p.origLDWalk(g, listCtx, out, inList, seen, depth+1)
		}
		for _, t := range types {
			if t == "ListItem" {
				listCtx = true
				if item, ok := x.lookup("item"); ok {
					switch it := item.(type) {
					case jstr:
						p.origLDAdd(newJobj(jpair{"url", it}, jpair{"name", x.get("name")}), true, out, inList, seen)
					case jobj:
						if hasType(it, listingTypes) || noLDType(it) {
							p.origLDAdd(it, true, out, inList, seen)
						} else {
							p.origLDWalk(it, true, out, inList, seen, depth+1)
						}
					}
					return
				}
				p.origLDAdd(x, true, out, inList, seen)
				return
			}
		}
		if hasType(x, listingTypes) && !isList {
			if p.origLDAdd(x, listCtx, out, inList, seen) {
				return
			}
		}
		for _, k := range []string{"itemListElement", "mainEntity", "about", "hasPart", "offers", "itemOffered"} {
			if c, ok := x.lookup(k); ok {
				p.origLDWalk(c, listCtx || isList || k == "itemListElement", out, inList, seen, depth+1)
			}
		}
	}
}

// origLDAdd is ldAdd as it was, with a lookup per key read.
func (p *page) origLDAdd(m jobj, fromList bool, out *[]Listing, inList *bool, seen map[string]bool) bool {
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
	var u url.URL // (read here only: the listing keeps its string)
	if !p.res.resolveTo(href, &u) || p.selfLink(&u) {
		return false
	}
	c := urlString(&u)
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
		l.ID = idFromURL(&u)
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
	l.PriceValue, l.Currency, l.Price = lookupLDPrice(m)
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

// lookupLDPrice is ldPrice as it was, looking up offers and
// priceSpecification at once.
func lookupLDPrice(m jobj) (float64, string, string) {
	for _, src := range []any{m, m.get("offers"), m.get("priceSpecification")} {
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
		case jnum:
			v := x.float()
			return v, cur, formatPrice("", v, cur)
		case jstr:
			t := x.val()
			if t == "" {
				continue
			}
			// A machine number is its value (then the text is parsed for
			// its currency only, if need be); else the price as shown.
			// (parsePrice's currency is currencyOf(t) either way.)
			v, err := 0.0, errNotFloat
			if mayBeFloat(t) {
				v, err = strconv.ParseFloat(t, 64)
			}
			if err != nil {
				var c string
				v, c = parsePrice(t)
				if cur == "" {
					cur = c
				}
			} else if cur == "" {
				cur = currencyOf(t)
			}
			return v, cur, formatPrice("", v, cur)
		}
	}
	return 0, "", ""
}

// BenchmarkJSONReaders is the JSON-LD and app-state readers alone (the
// scripts read, the listings built) on the JSON fixtures, the rest of
// extraction left out.
func BenchmarkJSONReaders(b *testing.B) {
	for _, name := range []string{"jsonld", "nextdata"} {
		b.Run(name, func(b *testing.B) {
			var u *url.URL
			for _, c := range fixtureCases(b) {
				if c.name == name {
					u = mustURL(c.url)
				}
			}
			body, err := os.ReadFile(filepath.Join(fixtureDir, name+".html"))
			if err != nil || u == nil {
				b.Fatal("no fixture ", name, err)
			}
			p := newPage(Parse(body), u)
			p.scan()
			b.ReportAllocs()
			for b.Loop() {
				p.jsonLD()
				p.appState()
				p.jr.reset()
			}
		})
	}
}

// TestAppendFloatMatchesStrconv: appendFloat, formatFloat and jnum.float give
// what strconv gives, on edge cases (leading zeros, 15 and 16 digits, signs,
// fractions, exponents) and random integers of every length.
func TestAppendFloatMatchesStrconv(t *testing.T) {
	lits := []string{"", "0", "00", "01", "7", "-0", "-5", "+5", "890", "1950.00", "415.5", "1e3", "1E3", "0.0",
		"999999999999999", "1000000000000000", "9007199254740993", "123456789012345", "100000000000000", " 5", "5 ", "١٢"}
	rng := rand.New(rand.NewPCG(19, 20))
	for range 20000 {
		n := 1 + rng.IntN(18)
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('0' + rng.IntN(10))
		}
		lits = append(lits, string(b))
	}
	// Decimals: up to 18 digits around the point, trailing zeros, leading
	// zeros of the fraction.
	for range 20000 {
		in, frac := 1+rng.IntN(9), 1+rng.IntN(10)
		b := make([]byte, in+1+frac)
		for i := range b {
			b[i] = byte('0' + rng.IntN(10))
			if rng.IntN(4) == 0 {
				b[i] = '0'
			}
		}
		b[in] = '.'
		lits = append(lits, string(b))
	}
	lits = append(lits, "0.1", "0.000000000000001", "0.0000000000000001", "0.00000000000000", "99999999999999.9", "999999999999999.9",
		"0.30000000000000004", "1.5", "1.", ".5", "01.5", "1.5e2", "-1.5", "1,5", "1.2.3")
	for _, lit := range lits {
		checkAppendFloat(t, lit)
	}
}

func FuzzAppendFloat(f *testing.F) {
	f.Add("890")
	f.Add("0")
	f.Add("999999999999999")
	f.Add("1950.00")
	f.Add("0.000000000000001")
	f.Fuzz(checkAppendFloat)
}

func checkAppendFloat(t *testing.T, lit string) {
	v, err := strconv.ParseFloat(lit, 64)
	if err != nil {
		if smallInt(lit) {
			t.Fatalf("smallInt(%q) but ParseFloat fails: %v", lit, err)
		}
		return
	}
	want := strconv.FormatFloat(v, 'f', -1, 64)
	if got := string(appendFloat([]byte("x"), lit, v)); got != "x"+want {
		t.Fatalf("appendFloat(%q) = %q, want %q", lit, got[1:], want)
	}
	if got := formatFloat(lit, v); got != want {
		t.Fatalf("formatFloat(%q) = %q, want %q", lit, got, want)
	}
	if d, ok := decodeFirstJSONPairs(lit); ok {
		if n, isNum := d.(jnum); isNum && n.lit() == lit {
			if got := n.float(); math.Float64bits(got) != math.Float64bits(v) {
				t.Fatalf("jnum(%q).float() = %v, want %v", lit, got, v)
			}
		}
	}
}
