package extract

import (
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// The hand-written matchers replace regexps and library calls that cost more
// than the page parse on small pages; these tests hold them to what they replace.

var (
	origNumberRe      = regexp.MustCompile(`\d(?:[\d.,'’\x{00a0}\x{202f} ]*\d)?`)
	origBareNumberRe  = regexp.MustCompile(`^\d+(?:[.,]\d+)?$`)
	origPlainNumberRe = regexp.MustCompile(`^\d+(?:\.\d{1,2})?$`)
	origUUIDRe        = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
	origSizeRe        = regexp.MustCompile(`(?i)\d+(?:[.,]\d+)?\s*(?:m²|m2|qm|sqm|sq\.? ?ft|m\x{00b2})`)
	origRoomsRe       = regexp.MustCompile(`(?i)\d+(?:[.,]\d+)?\s*(?:Zi\b\.?|Zimmer\b|Zi\.|Räume\b|rooms?\b|bedrooms?\b|hab\.|habitaciones\b|locali\b|Zr\.?)`)
)

var matcherCases = []string{
	"Card-Title x", "ResultCard_PRICE__p1", "LOCATION-Text", "a-very-long-class-name Card__Title--Big ignored",
	"card TopAd x", "c-AD-SLOT", "Advertisement", "PREMIUM_STICKY", "x-sponsored-AD", "Partner_Ad", "partner-a", "top-a", "ad-slo", "ädvert advert", "\u212aadslot",
	"720 €", "\xe2720 €", "\xf0\xe2\x82\xac", "9 $", "£5", "\xc2\xa3", "\xe2\x82", "CHF 900", "50 zł", "720 EUR", "CHF 900 oder 850 EUR", "1.120 € · 85 m² · 3 Zimmer", "85 m² | 900 €", "3 Zi. - 700 €", "3 Zi. - 700 EUR", "85 m2 | 900 CHF", "• 500 € •", "a-b", "\xc2", "\xe2\x80", "£3 $5", "100 kr SEK", "EURO-Pal 5 €", "5 Kč zł", "US$ 5 USD", "CHF", "CHF5", "z\xc5", "zł", "5 z\xc5\x83", "\xe2\x82\xad", "\xc2\xa4", "€", "$",
	"card\u00a0title", "x\u2003price_title", "a\u0085headline-b", "Card__Title\u3000x", "old-PRICE", "Strike", "line-Through", "line-throug", "pric", "x \u212arike", "STRI\u212aE", "old-pri\u212ae strike", "LINE-THROUGH é", "é strike", "sprice", "ppprice",
	"720 €", "Münster-Hiltrup", "a\u00a0b", "x\u00ad", "Ã¼ber", "MÃƒÂ¼nchen", "a\u2028b", "€ ", " €", "a\u3000b", "\ufffd", "a\u0085b",
	"a\u200bb", "\ufeffx", "x\u2060", "1\u2007000", "Straße 5 · 3 Zi.", "ü  ä", "ü\tä", "ü", "\u00c3", "a\xc3", "\xe2\x82", "日本 語",
	"card__title", "price-old spinner", "pinnwand", "location-pin", "headline", "lr-card__headline x", "spinnerpin", "spinner pin",
	"map-marker", "standort adresse", "title-", "subtitle", "xtitle_ title", "Card-Price", "locality locatio", "pi pr preisx", "t ti tit",
	"", " ", "1", "12", "1.250 €", "€1,250", "1.250,50 €", "1 250 000", "1\u00a0250", "1\u202f250", "1’250", "1'250.5",
	"12.", "12,", ".5", "1.2.3", "1,5", "1.55", "1.555", "abc 12 def 34", "12 € 34", "1\xff2", "\xff1", "1\u2019", "1  2",
	"０１２", "1.1e3", "-5", "5-", "3 Zi.", "Zimmer: 3", "0", "00", "1.", "1.1.", "1,1,1", "x1",
	"123e4567-e89b-12d3-a456-426614174000", "123E4567-E89B-12D3-A456-42661417400G", "123e4567e89b12d3a456426614174000",
	"123e4567-e89b-12d3-a456-4266141740000", "123e4567-e89b-12d3-a456-42661417400\n",
	"display:none", "display: none", "d i s p l a y : n o n e", "ddisplay:none", "display:nonE", "display :none;color:red",
	"color:red; display:none", "display:non", "displaynone", "Display:none", "dddd", "display:\tnone",
}

func checkMatchers(t *testing.T, s string) {
	if got, want := (&classFlagsMemo{}).of(s), classFlagsOf(strings.ToLower(s)); got != want {
		t.Errorf("classFlagsMemo.of(%q) = %b, want %b", s, got, want)
	}
	if got, want := adClass(s), lowerContains(s, "topad", "top-ad", "adslot", "ad-slot", "advert", "premium_sticky", "sponsored-ad", "partner-ad", "partner_ad"); got != want {
		t.Errorf("adClass(%q) = %v, want %v", s, got, want)
	}
	// (pricePart skips the separator search when mayHoldFactSep says
	// there is nothing to find: the search itself must agree.)
	if got, want := pricePart(s), factsPricePart(s); got != want {
		t.Errorf("pricePart(%q) = %q, want %q", s, got, want)
	}
	if got, want := currencyShown(s), strings.ContainsAny(s, "€$£") || strings.Contains(s, "CHF ") || strings.Contains(s, "zł"); got != want {
		t.Errorf("currencyShown(%q) = %v, want %v", s, got, want)
	}
	t.Helper()
	if got, want := findNumber(s), origNumberRe.FindString(s); got != want {
		t.Errorf("findNumber(%q) = %q, regexp %q", s, got, want)
	}
	if got, want := currencyOf(s), origCurrencyOf(s); got != want {
		t.Errorf("currencyOf(%q) = %q, want %q", s, got, want)
	}
	if got, want := hasDigit(s), origNumberRe.MatchString(s); got != want {
		t.Errorf("hasDigit(%q) = %v, regexp %v", s, got, want)
	}
	if got, want := findSize(s), origSizeRe.FindString(s); got != want {
		t.Errorf("findSize(%q) = %q, regexp %q", s, got, want)
	}
	if got, want := findRooms(s), origRoomsRe.FindString(s); got != want {
		t.Errorf("findRooms(%q) = %q, regexp %q", s, got, want)
	}
	if got, want := isBareNumber(s), origBareNumberRe.MatchString(s); got != want {
		t.Errorf("isBareNumber(%q) = %v, regexp %v", s, got, want)
	}
	if got, want := isPlainNumber(s), origPlainNumberRe.MatchString(s); got != want {
		t.Errorf("isPlainNumber(%q) = %v, regexp %v", s, got, want)
	}
	if got, want := isUUID(s), origUUIDRe.MatchString(s); got != want {
		t.Errorf("isUUID(%q) = %v, regexp %v", s, got, want)
	}
	if got, want := hidesDisplay(s), strings.Contains(strings.ReplaceAll(s, " ", ""), "display:none"); got != want {
		t.Errorf("hidesDisplay(%q) = %v, want %v", s, got, want)
	}
	if got, want := dropDistance(s), distanceRe.ReplaceAllString(s, ""); got != want {
		t.Errorf("dropDistance(%q) = %q, want %q", s, got, want)
	}
	for _, subs := range [][]string{{"price", "strike"}, {"ads"}, {"line-through", "x"}, {"k"}, {"i"}} {
		want := false
		for _, sub := range subs {
			want = want || strings.Contains(strings.ToLower(s), sub)
		}
		if got := lowerContains(s, subs...); got != want {
			t.Errorf("lowerContains(%q, %q) = %v, want %v", s, subs, got, want)
		}
	}
	if got, want := mayMarkStruck(s), lowerContains(s, "price", "strike", "line-through"); got != want {
		t.Errorf("mayMarkStruck(%q) = %v, want %v", s, got, want)
	}
	for _, cls := range []string{s, strings.ToLower(s)} {
		if got, want := classFlagsOf(cls), origClassFlags(cls); got != want {
			t.Errorf("classFlagsOf(%q) = %b, want %b", cls, got, want)
		}
	}
	if f := fold(s); !endsLikeOnRequest(f) && onRequestRe.MatchString(f) {
		t.Errorf("endsLikeOnRequest(%q) = false, but onRequestRe matches", f)
	}
	for _, w := range []string{"title", "headline", "t"} {
		if got, want := containsWord(s, w), origContainsWord(s, w); got != want {
			t.Errorf("containsWord(%q, %q) = %v, want %v", s, w, got, want)
		}
	}
	if got, want := fold(s), origFold(s); got != want {
		t.Errorf("fold(%q) = %q, want %q", s, got, want)
	}
	if got, want := repairMojibake(string(foldInto([]byte(s), nil))), origFold(s); got != want {
		t.Errorf("foldInto(%q) = %q, want %q", s, got, want)
	}
	if got, want := text(&html.Node{Type: html.TextNode, Data: s}), origFold(s); got != want {
		t.Errorf("text(%q) = %q, want %q", s, got, want)
	}
	for _, tag := range []atom.Atom{atom.Span, atom.Div, atom.S, atom.Script, atom.Li} {
		el := &html.Node{Type: html.ElementNode, DataAtom: tag, Data: tag.String()}
		el.AppendChild(&html.Node{Type: html.TextNode, Data: s})
		want := origFold(s)
		if tag == atom.S || tag == atom.Script {
			want = ""
		}
		if got := text(el); got != want {
			t.Errorf("text(<%s>%q</%s>) = %q, want %q", tag, s, tag, got, want)
		}
		el.Attr = []html.Attribute{{Key: "hidden"}}
		if got := text(el); got != "" {
			t.Errorf("text(<%s hidden>%q</%s>) = %q, want \"\"", tag, s, tag, got)
		}
	}
	if got, want := lowerText(&html.Node{Type: html.TextNode, Data: s}), strings.ToLower(origFold(s))+" "; got != want {
		t.Errorf("lowerText(%q) = %q, want %q", s, got, want)
	}
	if got, want := string(appendLower(nil, []byte(s))), strings.ToLower(s); got != want {
		t.Errorf("appendLower(%q) = %q, want %q", s, got, want)
	}
	q, _ := url.ParseQuery(s)
	for _, k := range append([]string{"", "a", "b"}, idQueryKeys...) {
		if got, want := newQuery(s).get(k), q.Get(k); got != want {
			t.Errorf("query(%q).get(%q) = %q, want %q", s, k, got, want)
		}
	}
	u := &url.URL{Scheme: "https", Host: "x.de", Path: s}
	if got, want := pathPattern(u), origPathPattern(u); got != want {
		t.Errorf("pathPattern(%q) = %q, want %q", s, got, want)
	}
	for _, pat := range []string{s, origPathPattern(u), "x.de|3|" + s, "x.de|2|" + s + "|" + s} {
		if got, want := coarse(pat), origCoarse(pat); got != want {
			t.Errorf("coarse(%q) = %q, want %q", pat, got, want)
		}
	}
	for _, v := range []string{s, "123", "a?b", "?x?", "12345"} {
		if len(v) < 3 {
			continue // callers look for ids of 3 characters or more
		}
		for _, u := range []*url.URL{{Path: s}, {Path: "/a/123", RawQuery: s}, {Path: s, RawQuery: "id=12345&x=a?b"}} {
			if got, want := tokenInURL(u, v), tokenIn(u.Path+"?"+u.RawQuery, v); got != want {
				t.Errorf("tokenInURL(%q, %q) = %v, want %v", u, v, got, want)
			}
		}
	}
	for _, u := range []*url.URL{{Path: s}, {Path: "/a/b", RawQuery: s}, {Path: "/" + s + "/" + s}} {
		if got, want := idFromURL(u), origIDFromURL(u); got != want {
			t.Errorf("idFromURL(%q) = %q, want %q", u, got, want)
		}
	}
}

// referenceBases are page URLs links are resolved against.
var referenceBases = []string{"https://www.x.de/suche/wohnungen", "https://www.x.de/", "https://www.x.de", "http://WWW.X.de:8080/a/b/",
	"https://u:p@x.de/a%2Fb/c", "https://x.de/a b/c", "https://x.de//a//b", "https://x.de/ü/x", "https://x.de/a/b?q=1#f", "https://x.de/a;b/c@d", "https://www.y.de/z/", "https://sub.x.de/q", "https://x.de/a/./b/c", "https://x.de/../x/y"}

// checkReference compares plainReference with url.Parse + ResolveReference.
func checkReference(t *testing.T, href string) {
	t.Helper()
	for _, b := range referenceBases {
		base := mustURL(b)
		r := newResolver(base)
		got, ok := r.plainReference(href)
		if !ok {
			continue
		}
		ref, err := url.Parse(href)
		if err != nil {
			t.Errorf("plainReference(%q) on %s = %#v; url.Parse fails: %v", href, b, got, err)
			continue
		}
		if want := base.ResolveReference(ref); !reflect.DeepEqual(got, want) {
			t.Errorf("plainReference(%q) on %s = %#v, want %#v", href, b, got, want)
		}
	}
}

func TestMatchersMatchWhatTheyReplace(t *testing.T) {
	more := []string{"Preis auf Anfrage", "VB", "vb", "VERHANDLUNGSBASIS", "verhandlungsbaſis", "on request", "Sur demande", "ſu richieſta", "OLD-Price x", "1.250 €", "CHF 12", "12 zł", "9 Kč", "US$ 5", "£3", "5 kr", "EURO", "Euro 5", "5 DKK", "NOK", "SEK", "STRİKE", "\u212aelvin", "Line-Through", "TopAd", "ResultCard_title__p1", "PREIS  AUF ANFRAGE", "Price on request", "a consultar", "Nach Vereinbarung",
		"Köln (3 km)", "Köln (ca. 5 km) ", "x (km)", "km)", "lr-card__title", "card-title x", "title-x", "titles", "subtitle",
		"a-title b", "__title", "x_headline", "Ã¼ber", "MÃ¼nchen", "\u00ad\u200b x  y\t\n", "İstanbul", "ΑΒΓ", "\xc3",
		"id=123&x=1", "a=1&a=2", "a=&a=2", "a;b=1&id=5", "id=1;2&id=3", "id=%41", "id=a+b", "=1&id=2", "&&id=7&",
		"70 m2", "70m²", "70 M²", "1.5 qm", "2,5 sqm", "12 sq ft", "12 sq. ft", "12 SQ.FT", "12 sq.  ft", "12 ſqm", "3 m", "3 m3", "1.2.3 m2",
		"3 Zi", "3 Zi.", "3 Zimmer", "3 zimmerwohnung", "3 Zi.-Whg", "2 Räume", "2 RÄUME", "2 Räumen", "3 rooms", "3 room", "3 roomſ", "3 roomſx",
		"3 roomsx", "2 bedrooms", "2 bedroom_", "2 hab.", "2 habitaciones", "2 habitacion", "3 locali", "3 localis", "3 Zr", "3 Zr.", "3 zr.x",
		"a1 Zi", "1,5Zi", "1, 5 Zi", "12\t\n Zi", "12\v Zi", "x 3 ZI_", "3 Zi9", "3 zı", "3 \u212aZi",
		"/expose/123456", "/a/b/c.html", "a|2|b.c|d|e", "a|22|b", "a|1|b/c", "||", "|2|", "h|2|x?y|", "h|9|/", "h|2|abc", "/wohnung-GZTNQ2", "/w/2bnvg5k/", "/Berlin/Wohnung-1.HTML", "/1234/x/", "//", "/"}
	for _, s := range append(matcherCases, more...) {
		checkMatchers(t, s)
		checkReference(t, s)
	}
	for _, h := range []string{"/a", "a", "a/b", "/a/b?c=d&e=f", "./a", "../a", "a/./b", "a/../b", ".", "..", "/a/.", "/a/..",
		"a?", "a??", "a?b?c", "a?b:c", "a:b", "//x.de/a", "/a#b", "/a?b#c", "/a b", "/a%20b", "/a?b%20c", "/a?b c", "/ä", "/a?ä",
		"/.hidden", "...", "a..b", "/a//b", "a//", "/", "//", "///a", "/a;b=c", "/a+b,c@d", "/~u/", "?x", "#x", "/a\tb", "/a?b\x7f",
		"https://www.x.de/a/b?c=d", "HTTPS://WWW.X.DE/A", "http://x.de", "http://x.de:8080/a", "http://x.de:/a", "http://x.de:8a/a",
		"https://x.de/./a", "https://x.de//a", "https://u@x.de/a", "https://x.de?q=1", "https://x.de/a?", "https://[::1]/a", "ftp://x.de/a",
		"https://x_y.de/a", "https://x.de/a b", "https://x.de/a#f", "https://:80/a", "https:///a", "https://x.de:80:81/a", "httpx://x.de/",
		"wohnung-123.html", "/expose/123?utm_source=x&id=5", "/a?b=%zz", "/a?b=%4"} {
		checkReference(t, h)
	}
}

func FuzzMatchers(f *testing.F) {
	for _, s := range matcherCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkMatchers(t, s)
		checkReference(t, s)
	})
}

// The versions replaced, as they were.

func origContainsWord(cls, w string) bool {
	for f := range strings.FieldsSeq(cls) {
		if f == w || strings.HasSuffix(f, "-"+w) || strings.HasSuffix(f, "_"+w) || strings.HasPrefix(f, w+"-") || strings.HasPrefix(f, w+"_") {
			return true
		}
	}
	return false
}

func origFold(s string) string {
	clean := true
	prevSpace := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			clean = false
			break
		}
		sp := c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
		if sp && (prevSpace || c != ' ') {
			clean = false
			break
		}
		prevSpace = sp
	}
	if clean && !prevSpace {
		return s
	}
	var b strings.Builder
	pending := false
	for _, r := range s {
		switch {
		case r == '\u00ad' || r == '\u200b' || r == '\u200c' || r == '\u200d' || r == '\u2060' || r == '\ufeff':
			continue
		case isSpaceRune(r):
			pending = b.Len() > 0
			continue
		}
		if pending {
			b.WriteByte(' ')
			pending = false
		}
		b.WriteRune(r)
	}
	s = b.String()
	for range 2 {
		r, changed := repairOnce(s)
		if !changed {
			break
		}
		s = r
	}
	return s
}

func isSpaceRune(r rune) bool {
	return unicode.IsSpace(r) || r == '\u00a0' || r == '\u202f' || r == '\u2007'
}

func origIDFromURL(u *url.URL) string {
	if u.RawQuery != "" {
		q := u.Query()
		for _, k := range idQueryKeys {
			if v := strings.TrimSpace(q.Get(k)); v != "" && isIDToken(v) {
				return v
			}
		}
	}
	segs := strings.Split(strings.Trim(u.Path, "/"), "/")
	for i := len(segs) - 1; i >= 0; i-- {
		seg := segs[i]
		if i == len(segs)-1 {
			seg = trimExt(seg)
			if origUUIDRe.MatchString(seg) {
				return seg
			}
		}
		if d := longestDigits(seg); len(d) >= 4 {
			return d
		}
		if i == len(segs)-1 {
			if origUUIDRe.MatchString(seg) || opaqueID(seg) {
				return seg
			}
			if t := trailingToken(seg); t != "" {
				return t
			}
		}
	}
	return ""
}

func origCurrencyOf(s string) string {
	for _, c := range currencies {
		i := strings.Index(s, c.sign)
		if i < 0 {
			continue
		}
		if isLetters(c.sign) {
			j := i + len(c.sign)
			if (i > 0 && isLetter(s[i-1])) || (j < len(s) && isLetter(s[j])) {
				continue
			}
		}
		return c.code
	}
	return ""
}

func origCoarse(pat string) string {
	parts := strings.SplitN(pat, "|", 4)
	if len(parts) < 3 || len(parts[1]) != 1 || parts[1] < "2" {
		return pat
	}
	rest := parts[2]
	if i := strings.IndexAny(rest, ".?/"); i >= 0 {
		rest = rest[i:]
	} else {
		rest = ""
	}
	out := parts[0] + "|" + parts[1] + "|*" + rest
	if len(parts) == 4 {
		out += "|" + parts[3]
	}
	return out
}

func origPathPattern(u *url.URL) string {
	p := u.Path
	var b strings.Builder
	b.WriteString(u.Host)
	trimmed := strings.Trim(p, "/")
	segs := strings.Split(trimmed, "/")
	if trimmed == "" {
		segs = nil
	}
	b.WriteByte('|')
	b.WriteByte(byte('0' + min(len(segs), 9)))
	if len(segs) > 1 {
		b.WriteByte('|')
		if len(longestDigits(segs[0])) >= 4 {
			b.WriteByte('#')
		} else {
			b.WriteString(strings.ToLower(segs[0]))
		}
	}
	if len(segs) > 0 {
		last := segs[len(segs)-1]
		if t := trimExt(last); len(t) < len(last) {
			b.WriteString(strings.ToLower(last[len(t):]))
		}
	}
	if strings.HasSuffix(p, "/") && len(p) > 1 {
		b.WriteByte('/')
	}
	if u.RawQuery != "" {
		keys := []string{}
		for kv := range strings.SplitSeq(u.RawQuery, "&") {
			k, _, _ := strings.Cut(kv, "=")
			for _, ik := range idQueryKeys {
				if strings.EqualFold(k, ik) {
					keys = append(keys, strings.ToLower(k))
					break
				}
			}
		}
		if len(keys) > 0 {
			sortStrings(keys)
			b.WriteByte('?')
			b.WriteString(strings.Join(keys, "&"))
		}
	}
	return b.String()
}

// TestConcurrentExtract: extraction from several goroutines at once, on shared
// trees, gives every goroutine the serial result (the page pool, the text
// buffers and the domain cache are shared between them). Run with -race.
func TestConcurrentExtract(t *testing.T) {
	type job struct {
		doc  *html.Node
		c    fixtureCase
		want Result
	}
	var jobs []job
	for _, c := range fixtures {
		body, err := os.ReadFile(filepath.Join(fixtureDir, c.name+".html"))
		if err != nil {
			t.Fatal(err)
		}
		doc := Parse(body)
		want, err := ExtractTree(doc, mustURL(c.url), c.sel, c.opt)
		if err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, job{doc, c, want})
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := range 5 {
				for k := range jobs {
					j := jobs[(k+g+round)%len(jobs)]
					got, err := ExtractTree(j.doc, mustURL(j.c.url), j.c.sel, j.c.opt)
					if err != nil || !reflect.DeepEqual(got, j.want) {
						select {
						case errs <- j.c.name:
						default:
						}
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for name := range errs {
		t.Errorf("%s: a concurrent extraction differs from the serial one", name)
	}
}

// referenceCards is what cards did before bestCards: evaluate every group,
// sort the candidates by score (stably), build them in that order until one
// gives two listings.
func (p *page) referenceCards(gs []*group) []Listing {
	var cands []candidate
	for _, g := range gs {
		if c := p.evalGroup(g); c.score > 0 {
			if c.score > maxScore(g) {
				panic("maxScore does not bound evalGroup")
			}
			cands = append(cands, c)
		}
	}
	slices.SortStableFunc(cands, func(a, b candidate) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return 0
	})
	for _, c := range cands {
		if ls := p.buildCards(c, wantAll); len(ls) >= 2 {
			return ls
		}
	}
	return nil
}

// cardPages are the fixtures and real pages, as bodies with their URLs.
func cardPages(t *testing.T) (bodies [][]byte, urls []*url.URL) {
	for _, c := range fixtures {
		body, err := os.ReadFile(filepath.Join(fixtureDir, c.name+".html"))
		if err != nil {
			t.Fatal(err)
		}
		bodies, urls = append(bodies, body), append(urls, mustURL(c.url))
	}
	dir := sitesDir()
	if keys, _ := filepath.Glob(filepath.Join(dir, "answers", "*.json")); len(keys) > 0 {
		for _, pg := range realPages(t) {
			bodies, urls = append(bodies, pg.body), append(urls, pg.url)
		}
	}
	return bodies, urls
}

// eachCardPage calls f with every page of cardPages: its URL, its tree and a
// page read from the tree (scanned when scan), released after.
func eachCardPage(t *testing.T, scan bool, f func(u *url.URL, doc *html.Node, p *page)) {
	t.Helper()
	bodies, urls := cardPages(t)
	for k, body := range bodies {
		doc := Parse(body)
		p := newPage(doc, urls[k])
		if scan {
			p.scan()
		}
		f(urls[k], doc, p)
		p.release()
	}
}

// variantLimit is how many one-element-removed variants of a page a test
// makes: every element of a fixture, a sample of a real page (each variant is
// a parse).
func variantLimit(body []byte) int {
	if len(body) > 50_000 {
		return 25
	}
	return 400
}

// eachWithoutOneElement calls fn with the page parsed and one element removed,
// for up to limit elements spread over the page (i is the element's index in
// document order).
func eachWithoutOneElement(body []byte, limit int, fn func(i int, doc *html.Node)) {
	n := len(elementsOf(Parse(body)))
	for i := 0; i < n; i += max(1, n/limit) {
		doc := Parse(body)
		if el := elementsOf(doc)[i]; el.Parent != nil {
			el.Parent.RemoveChild(el)
			fn(i, doc)
		}
	}
}

// elementsOf lists doc's elements in document order.
func elementsOf(doc *html.Node) []*html.Node {
	var out []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			out = append(out, n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return out
}

// TestBestCardsMatchesEvaluatingAll: skipping the groups whose score bound
// cannot put them first picks the same cards as evaluating them all, on every
// fixture and real page and on variants of them with one element removed
// (which moves the winner, the runner-up and the rows of grids around).
func TestBestCardsMatchesEvaluatingAll(t *testing.T) {
	bodies, urls := cardPages(t)
	check := func(name string, doc *html.Node, u *url.URL) {
		t.Helper()
		p := newPage(doc, u)
		p.scan()
		if !p.anyGridHolder() {
			if merged := p.mergeGrids(); len(merged) > 0 {
				t.Errorf("%s: anyGridHolder is false, but mergeGrids merges %d groups", name, len(merged))
			}
		}
		got, _ := p.bestCards(p.cardGroups(), wantAll)
		p.release()
		q := newPage(doc, u)
		q.scan()
		want := q.referenceCards(q.cardGroups())
		q.release()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: bestCards\n%+v\nevaluating all\n%+v", name, got, want)
		}
	}
	variants := 0
	for k, body := range bodies {
		u := urls[k]
		check(u.String(), Parse(body), u)
		eachWithoutOneElement(body, variantLimit(body), func(i int, doc *html.Node) {
			check(fmt.Sprintf("%s without element %d", u, i), doc, u)
			variants++
		})
	}
	t.Logf("%d pages, %d variants", len(bodies), variants)
}

// origClassFlags is what cardScan.scan tested a class attribute for before classFlagsOf.
func origClassFlags(cls string) uint8 {
	var f uint8
	if containsWord(cls, "title") || containsWord(cls, "headline") {
		f |= clsTitle
	}
	if strings.Contains(cls, "price") || strings.Contains(cls, "preis") {
		f |= clsPrice
	}
	if strings.Contains(cls, "address") || strings.Contains(cls, "location") || strings.Contains(cls, "locality") ||
		strings.Contains(cls, "adresse") || strings.Contains(cls, "standort") {
		f |= clsLocation
	}
	if strings.Contains(cls, "pin") {
		f |= clsPin
	}
	if (strings.Contains(cls, "pin") || strings.Contains(cls, "marker") || strings.Contains(cls, "location")) && !strings.Contains(cls, "spinner") {
		f |= clsIcon
	}
	return f
}

// TestFirstImageMatchesScan: the image-only path of cardFields finds the image
// the full card scan finds, for every element of every fixture and real page.
func TestFirstImageMatchesScan(t *testing.T) {
	checked := 0
	eachCardPage(t, false, func(u *url.URL, doc *html.Node, p *page) {
		for _, n := range elementsOf(doc) {
			s := cardScan{p: p}
			s.scan(n)
			if got := p.firstImage(n); got != s.img {
				t.Errorf("%s: firstImage(<%s>) = %q, the scan finds %q", u, n.Data, got, s.img)
			}
			if s.img != "" {
				checked++
			}
		}
	})
	if checked == 0 {
		t.Error("no element with an image checked")
	}
}

// origSameURLLinkTitle is what cardTitle did before sameURLLinkTitle.
func (p *page) origSameURLLinkTitle(card *html.Node, a *anchor) string {
	for _, x := range append([]*html.Node{card}, qa(card, anyLink)...) {
		if x.DataAtom != atom.A || x == a.n {
			continue
		}
		if u, ok := p.res.resolve(attr(x, "href")); ok && u.String() == a.canon {
			if t := linkTitle(x); t != "" {
				return t
			}
		}
	}
	return ""
}

// TestSameURLLinkTitleMatchesQuery: the walk that finds the text link beside
// an image link finds what the a[href] query did, for every anchor of every
// fixture and real page, in each of its ancestors up to four levels (as card),
// before and after the page's links were resolved.
func TestSameURLLinkTitleMatchesQuery(t *testing.T) {
	found := 0
	eachCardPage(t, true, func(u *url.URL, _ *html.Node, p *page) {
		for round := range 2 {
			for i := range p.anchors {
				if round == 1 {
					p.link(i) // resolved: canonOf reads the anchors
				}
				a := p.anchors[i]
				if u, ok := p.res.resolve(a.href); ok {
					a.canon = u.String()
				}
				for card, up := a.n, 0; card != nil && up < 4; card, up = card.Parent, up+1 {
					got, want := p.sameURLLinkTitle(card, &a), p.origSameURLLinkTitle(card, &a)
					if got != want {
						t.Errorf("%s: anchor %d in <%s>: %q, the query finds %q", u, i, card.Data, got, want)
					}
					if want != "" {
						found++
					}
				}
			}
		}
	})
	if found == 0 {
		t.Error("no same-URL link title found at all")
	}
}

// mayBeRoomsContains is what mayBeRooms replaced: one search per word.
func mayBeRoomsContains(t string) bool {
	for _, w := range roomWords {
		if strings.Contains(t, w) {
			return true
		}
	}
	return false
}

// TestMayBeSizeMatchesContains: mayBeSize finds what a search for each of
// its words finds.
func TestMayBeSizeMatchesContains(t *testing.T) {
	contains := func(t string) bool {
		return strings.Contains(t, "m²") || strings.Contains(t, "m2") || strings.Contains(t, "qm") || strings.Contains(t, "sq")
	}
	cases := append(slices.Clone(matcherCases), "m", "m\xc2", "m\xc2\xb3", "m\xc3\xb2", "58 m²", "58m2", "58 qm", "sqft", "s q", "M²", "QM", "mm²")
	rng := rand.New(rand.NewPCG(8, 8))
	alphabet := []string{"m", "M", "q", "Q", "s", "2", "²", "\xc2", "\xb2", "³", " ", "1", "x"}
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(10) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		cases = append(cases, b.String())
	}
	found := 0
	for _, s := range cases {
		got, want := mayBeSize(s), contains(s)
		if got != want {
			t.Errorf("mayBeSize(%q) = %v, searching each word: %v", s, got, want)
		}
		if want {
			found++
		}
	}
	if found == 0 || found == len(cases) {
		t.Fatalf("%d of %d cases contain a word: the test checks nothing", found, len(cases))
	}
}

// TestMayBeRoomsMatchesContains: the one-pass mayBeRooms against a search
// for each word, on the matcher cases, every fixture text, and each word cut,
// joined and placed at either end.
func TestMayBeRoomsMatchesContains(t *testing.T) {
	cases := slices.Clone(matcherCases)
	for _, w := range roomWords {
		for i := 0; i <= len(w); i++ {
			for j := i; j <= len(w); j++ {
				cases = append(cases, w[i:j], "x"+w[i:j], w[i:j]+"x", w[:i]+" "+w[i:], w[:i]+w[j:])
			}
		}
		cases = append(cases, strings.ToLower(w), strings.ToUpper(w), "3 "+w+".")
	}
	for _, s := range cases {
		if got, want := mayBeRooms(s), mayBeRoomsContains(s); got != want {
			t.Errorf("mayBeRooms(%q) = %v, searching each word: %v", s, got, want)
		}
	}
	rng := rand.New(rand.NewPCG(7, 7))
	alphabet := []string{"Z", "z", "i", "I", "r", "o", "O", "M", "m", "R", "ä", "\xc3", "u", "e", "h", "a", "b", "l", "c", " ", "1"}
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		s := b.String()
		if got, want := mayBeRooms(s), mayBeRoomsContains(s); got != want {
			t.Errorf("mayBeRooms(%q) = %v, searching each word: %v", s, got, want)
		}
	}
}
