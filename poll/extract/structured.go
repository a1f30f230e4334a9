package extract

import (
	"bytes"
	"encoding/json"
	"net/url"
	"regexp"
	"strings"
	"sync"

	"github.com/PuerkitoBio/goquery"
	"github.com/valyala/fastjson"
	"golang.org/x/net/html"

	"notifio/internal/model"
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
	value  *fastjson.Value
}

// pageData is the JSON values of one page, read with fastjson rather than
// encoding/json: decoding willhaben's 471 KB of app state into Go maps took
// 5.1 ms, four times the parse of the whole page; fastjson takes 0.44 ms with
// a scanner whose buffers are reused (from the pool), 3.4–4.3 ms with a new
// one. The values live in the scanners' buffers: good until release.
type pageData struct {
	docs     []jsonDoc
	scanners []*fastjson.Scanner
}

var scanners = sync.Pool{New: func() any { return new(fastjson.Scanner) }}

// add reads the JSON value s starts with (what follows it is ignored, as
// after a state assignment's closing bracket).
func (d *pageData) add(method, s string) {
	sc := scanners.Get().(*fastjson.Scanner)
	sc.Init(s)
	if !sc.Next() {
		scanners.Put(sc)
		return
	}
	d.docs = append(d.docs, jsonDoc{method, sc.Value()})
	d.scanners = append(d.scanners, sc)
}

// release gives the buffers back; the values are not to be read after it.
func (d *pageData) release() {
	for _, sc := range d.scanners {
		scanners.Put(sc)
	}
	*d = pageData{}
}

// reAssign finds `= {` or `= [`, or `= JSON.parse(` with the JSON as a value
// or as a string literal: the end of a state assignment when a name comes
// before it (assignedName). The match ends with the bracket or the quote
// that starts the value. Only such assignments count towards the 20 a
// script is searched for.
var reAssign = regexp.MustCompile(`=\s*(?:[\[{]|JSON\.parse\(\s*[\[{"'])`)

// jsonOf reads every JSON source of the page, as the page's index found
// them: its scripts, then JSON held in attributes (Livewire's
// wire:snapshot), each in document order.
func jsonOf(ix *index) *pageData {
	d := &pageData{}
	for _, s := range ix.scripts {
		d.script(s)
	}
	for _, v := range ix.states {
		d.add(model.MethodAppState, v)
	}
	return d
}

// script reads the JSON a script holds, by its type.
func (d *pageData) script(n *html.Node) {
	typ := strings.ToLower(attrOf(n, "type"))
	body := strings.TrimSpace(scriptText(n))
	if inner, ok := strings.CutPrefix(body, "<!--"); ok { // <script type="application/json"><!--{…}--></script>
		body = strings.TrimSpace(strings.TrimSuffix(inner, "-->"))
	}
	if body == "" {
		return
	}
	switch {
	case strings.Contains(typ, "ld+json"):
		d.add(model.MethodJSONLD, body)
	case attrOf(n, "id") == "__NEXT_DATA__":
		d.add(model.MethodNextData, body)
	case strings.Contains(typ, "json"):
		d.add(model.MethodAppState, body)
	case typ == "" || strings.Contains(typ, "javascript"):
		d.assignments(body)
	}
}

// scriptText is a script's text: its one text node as it is (no copy of a
// large app state), or its nodes joined.
func scriptText(n *html.Node) string {
	if c := n.FirstChild; c != nil && c.NextSibling == nil && c.Type == html.TextNode {
		return c.Data
	}
	return goquery.NewDocumentFromNode(n).Text()
}

// assignments reads `name = {…}` state assignments of an inline script.
func (d *pageData) assignments(body string) {
	found := 0
	for _, loc := range reAssign.FindAllStringIndex(body, -1) {
		if !assignedName(body[:loc[0]]) {
			continue
		}
		value := body[loc[1]-1:]
		if q := value[0]; q == '"' || q == '\'' {
			if value = jsString(value); value == "" {
				continue
			}
		}
		d.add(model.MethodAppState, value)
		if found++; found == 20 {
			return
		}
	}
}

// jsString is the text of the JavaScript string literal s starts with
// (JSON.parse("{\"items\":…}") or with single quotes), "" when it does not
// end or holds an escape JSON has not (\x, \v).
func jsString(s string) string {
	end := 1
	for end < len(s) && s[end] != s[0] {
		if s[end] == '\\' {
			end++
		}
		end++
	}
	if end >= len(s) {
		return ""
	}
	lit := strings.ReplaceAll(s[1:end], `\'`, `'`)
	if s[0] == '\'' {
		lit = strings.ReplaceAll(strings.ReplaceAll(lit, `\"`, `"`), `"`, `\"`)
	}
	var text string
	if json.Unmarshal([]byte(`"`+lit+`"`), &text) != nil {
		return ""
	}
	return text
}

// assignedName reports whether code ends with a name, as before the "=" of
// `window.__STATE__ = {`: letters, digits, _, $ and dots, one of them a
// letter, _ or $ (not "==", "x[1] =" or "1 =").
func assignedName(code string) bool {
	code = strings.TrimRight(code, " \t\r\n")
	i := len(code)
	for i > 0 && isNameByte(code[i-1]) {
		i--
	}
	return strings.ContainsFunc(code[i:], func(r rune) bool {
		return r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
	})
}

func isNameByte(c byte) bool {
	return c == '_' || c == '$' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// jsonArray is the members of arrays found at one path (merged over sources
// of one kind: every card's ld+json object, or every card's snapshot).
type jsonArray struct {
	method string
	items  []*fastjson.Object
}

// survey is what one walk of the page's data finds: the arrays of objects by
// path (a document that is one object counts as an array of one at its root),
// and the paths of the links to the page's own site, as evidence of where the
// app's relative paths live ("https://www.willhaben.at/iad/immobilien/…";
// paths without a host are often the API's).
type survey struct {
	arrays []*jsonArray
	paths  []string
}

func surveyOf(docs []jsonDoc, host string) survey {
	var sv survey
	byPath := map[string]*jsonArray{}
	add := func(method string, path []byte, items []*fastjson.Object) {
		a := byPath[string(path)]
		if a == nil {
			a = &jsonArray{method: method}
			byPath[string(path)] = a
			sv.arrays = append(sv.arrays, a)
		}
		a.items = append(a.items, items...)
	}
	hostBytes := []byte(strings.ToLower(host))
	// link keeps the path of a link to the page's own site (most links in the
	// data are to images on another host).
	link := func(v *fastjson.Value) {
		if b, _ := v.StringBytes(); len(sv.paths) <= 2000 && bytes.HasPrefix(b, []byte("http")) && len(b) < 300 && bytes.Contains(b, hostBytes) {
			if u, err := url.Parse(string(b)); err == nil && strings.EqualFold(u.Host, host) {
				sv.paths = append(sv.paths, u.Path)
			}
		}
	}
	// path is the walk's place ("next-data .props.items[]": the source's kind
	// and the way in), one buffer for the walk: each level appends to its
	// parent's part; a member's path is written only for an object or an
	// array (a string is only looked at as a link).
	var walk func(method string, v *fastjson.Value, path []byte, depth int)
	walk = func(method string, v *fastjson.Value, path []byte, depth int) {
		if depth > 14 {
			return
		}
		switch v.Type() {
		case fastjson.TypeString:
			link(v)
		case fastjson.TypeObject:
			o := v.GetObject()
			if depth == 0 {
				add(method, path, []*fastjson.Object{o})
			}
			var members []*fastjson.Object // its members that are objects
			o.Visit(func(k []byte, c *fastjson.Value) {
				switch c.Type() {
				case fastjson.TypeString:
					link(c)
				case fastjson.TypeObject:
					if m := c.GetObject(); m.Len() >= 2 {
						members = append(members, m)
					}
					walk(method, c, append(append(path, '.'), k...), depth+1)
				case fastjson.TypeArray:
					walk(method, c, append(append(path, '.'), k...), depth+1)
				}
			})
			// An object most of whose members are objects is a collection
			// keyed by id (a normalized state: {"Listing:88123": {…}, …}).
			if len(members) >= 3 && len(members)*2 >= o.Len() {
				add(method, append(path, "{}"...), members)
			}
		case fastjson.TypeArray:
			members := v.GetArray()
			var objs []*fastjson.Object
			for _, c := range members {
				if o := c.GetObject(); o != nil && o.Len() >= 2 {
					objs = append(objs, o)
				}
			}
			path = append(path, "[]"...)
			if len(objs) > 0 {
				add(method, path, objs)
			}
			for _, c := range members {
				walk(method, c, path, depth+1)
			}
		}
	}
	for _, d := range docs {
		walk(d.method, d.value, append(make([]byte, 0, 256), d.method+" "...), 0)
	}
	return sv
}

// bestRecords returns the array whose members look most like listings. An
// array none of whose first three members reads as a listing is not read on.
func bestRecords(arrays []*jsonArray) ([]record, string) {
	var best []record
	method, bestScore := "", 0
	for _, a := range arrays {
		if len(a.items) <= bestScore {
			continue
		}
		var recs []record
		for i, o := range a.items {
			if i == 3 && len(recs) == 0 {
				break
			}
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
