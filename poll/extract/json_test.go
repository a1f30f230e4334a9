package extract

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// jsonCases are inputs where a JSON reader can go wrong.
var jsonCases = []string{
	``, ` `, `{}`, `[]`, `{"a":1}`, ` {"a" : [1, 2.5, -0, -0.0e+1, 1E3, 1e-400, true, false, null, "x"]} `,
	`{"a":1}x`, `{"a":1} {"b":2}`, `[1,]`, `{"a":1,}`, `{,}`, `[,1]`, `{"a"}`, `{"a":}`, `{a:1}`, `{'a':1}`,
	`01`, `-`, `1.`, `.5`, `1e`, `1e+`, `+1`, `-01`, `1.5e3x`, `1e400`, `-1e400`, `123`, `123 `, `123x`, `"s"`, `"s"x`,
	`tru`, `true`, `truex`, `nul`, `null`, `[true false]`, `[1 2]`, `{"a":1 "b":2}`,
	`"\u00e4\u00DF"`, `"\ud83d\ude00"`, `"\ud83d"`, `"\ud83dx"`, `"\ude00\ud83d"`, `"\ud83d\u0041"`, `"\ud83d\\u0041"`,
	`"\u12"`, `"\u12g4"`, `"\x"`, `"\"\\\/\b\f\n\r\t"`, "\"a\tb\"", "\"a\x01b\"", "\"\xff\xfe\"", "\"\xc3\xa4\xc3\"", "\"ok\xe2\x82\"",
	"\"\u2028\u2029\ufffd\"", `{"a":1,"a":2}`, `{"":""}`, `[[[[[]]]]]`, `{"a":{"b":{"c":[{"d":"e"}]}}}`,
	`{"axb":1,"ayb":2,"axb":3,"ayb":{"axb":4,"azb":5}}`, `[1E2,2e-1,3E+1,-0e0]`,
	"\ufeff{}", "\u00a0{}", "{}\u00a0", "{\"a\":1}\v", "\t\r\n[1]\t\r\n", `[1e309]`, `[4.9e-324]`, `[2.5e-324]`,
	`{"a":"x"` + strings.Repeat(" ", 3), `{"a"`, `[`, `{`, `"abc`, `"abc\`, `"\u`, `"\u00`,
	strings.Repeat("[", 10000) + strings.Repeat("]", 10000), strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
	strings.Repeat(`{"a":`, 10001) + "1" + strings.Repeat("}", 10001),
	longObject(40, 0), longObject(40, 5), longObject(31, 31), longObject(33, 32), longObject(100, 99), `{"a":{"b":1,"b":{"c":2,"c":3}},"a":[{"x":1,"x":2}]}`,
}

// longObject is an object of n members whose keys repeat every period members
// (period 0: no repeats), with nested objects as values.
func longObject(n, period int) string {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		k := i
		if period > 0 {
			k = i % period
		}
		fmt.Fprintf(&b, `"k%d":{"i":%d,"k%d":[%d]}`, k, i, k, i)
	}
	b.WriteString("}")
	return b.String()
}

// checkJSON compares both readers with encoding/json on one input.
func checkJSON(t *testing.T, s string) {
	t.Helper()
	var want any
	wantErr := json.Unmarshal([]byte(s), &want)
	got, ok := unmarshalJSON(s)
	if ok != (wantErr == nil) || ok && !reflect.DeepEqual(got, want) {
		t.Errorf("unmarshalJSON(%.80q) = %#v, %v; encoding/json: %#v, %v", s, got, ok, want, wantErr)
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var want2 any
	wantErr = dec.Decode(&want2)
	got2, ok := decodeFirstJSON(s)
	if ok != (wantErr == nil) || ok && !reflect.DeepEqual(got2, want2) {
		t.Errorf("decodeFirstJSON(%.80q) = %#v, %v; encoding/json: %#v, %v", s, got2, ok, want2, wantErr)
	}
	// The readers' form: objects as jobj, strings as jstr and numbers as
	// jnum, standing for the same maps, strings and numbers.
	got3, ok := unmarshalJSONPairs(s)
	if ok != (wantErrOf(s) == nil) || ok && !reflect.DeepEqual(pairsToMaps(t, got3, false), want) {
		t.Errorf("unmarshalJSONPairs(%.80q) = %#v, %v; encoding/json: %#v", s, got3, ok, want)
	}
	got4, ok := decodeFirstJSONPairs(s)
	if ok != (wantErr == nil) || ok && !reflect.DeepEqual(pairsToMaps(t, got4, true), want2) {
		t.Errorf("decodeFirstJSONPairs(%.80q) = %#v, %v; encoding/json: %#v, %v", s, got4, ok, want2, wantErr)
	}
}

// TestJSONMatchesEncodingJSON: the package's JSON reader builds what
// encoding/json builds, and fails where it fails, on tricky inputs and on
// every script of the fixtures and real pages.
func TestJSONMatchesEncodingJSON(t *testing.T) {
	for _, s := range jsonCases {
		checkJSON(t, s)
	}
	for _, s := range fixtureScripts(t) {
		checkJSON(t, s)
		checkJSON(t, strings.TrimSpace(s))
	}
}

// fixtureScripts returns the text of every script in the fixtures (and real pages).
func fixtureScripts(tb testing.TB) []string {
	var out []string
	files, _ := filepath.Glob(filepath.Join(fixtureDir, "*.html"))
	files2, _ := filepath.Glob(filepath.Join(sitesDir(), "*.html"))
	for _, f := range append(files, files2...) {
		body, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		p := newPage(Parse(body), mustURL("https://www.example.de/"))
		p.scan()
		for _, s := range p.scripts {
			if s.FirstChild != nil {
				out = append(out, s.FirstChild.Data)
				for _, at := range stateAssignments(s.FirstChild.Data, 8) {
					out = append(out, s.FirstChild.Data[at:])
				}
			}
		}
	}
	return out
}

// FuzzJSONDecode compares the JSON reader with encoding/json.
func FuzzJSONDecode(f *testing.F) {
	for _, s := range jsonCases {
		if len(s) < 1000 {
			f.Add(s)
		}
	}
	for _, s := range fixtureScripts(f) {
		if len(s) < 20000 {
			f.Add(s)
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkJSON(t, s)
	})
}

// wantErrOf is json.Unmarshal's error for s into an any.
func wantErrOf(s string) error {
	var v any
	return json.Unmarshal([]byte(s), &v)
}

// pairsToMaps turns the jobj, jstr and jnum in v into the maps, strings and
// numbers they stand for (float64, or json.Number for useNumber), checking
// that each key occurs once.
func pairsToMaps(t *testing.T, v any, useNumber bool) any {
	switch x := v.(type) {
	case jstr:
		return x.val()
	case jnum:
		if useNumber {
			return json.Number(x.lit())
		}
		return x.float()
	case string, float64, json.Number, []any:
		t.Errorf("the pairs reader gave %T %v", x, x)
	case jobj:
		m := make(map[string]any, len(x.members()))
		for _, p := range x.members() {
			if _, dup := m[p.k]; dup {
				t.Errorf("jobj has key %q twice", p.k)
			}
			m[p.k] = pairsToMaps(t, p.v, useNumber)
			if got, ok := x.lookup(p.k); !ok || !reflect.DeepEqual(pairsToMaps(t, got, useNumber), m[p.k]) {
				t.Errorf("jobj.lookup(%q) = %#v, %v", p.k, got, ok)
			}
		}
		if x.get("\x00absent") != nil {
			t.Errorf("jobj.get of an absent key is not nil")
		}
		return m
	case jarr:
		out := make([]any, len(x.elems()))
		for i, e := range x.elems() {
			out[i] = pairsToMaps(t, e, useNumber)
		}
		return out
	}
	return v
}

// TestReadersIgnoreMemberOrder: the JSON-LD and app-state readers give the same
// listings whatever the order of the objects' members (they read encoding/json's
// maps before, which have no order), on every fixture and real page, generic
// strategies and profiles alike.
func TestReadersIgnoreMemberOrder(t *testing.T) {
	bodies, urls := cardPages(t)
	type got struct {
		ld            []Listing
		inList        bool
		state         []Listing
		method        string
		generic, full Result
	}
	read := func(body []byte, u *url.URL) got {
		var g got
		p := newPage(Parse(body), u)
		p.scan()
		g.ld, g.inList = p.jsonLD()
		if g.ld != nil {
			writeLDPrices(g.ld, p.ldPrices)
		}
		g.state, g.method = p.appState()
		p.release()
		var err error
		if g.generic, err = ExtractWith(body, u, Selectors{}, Options{NoProfiles: true}); err != nil {
			t.Fatal(err)
		}
		if g.full, err = Extract(body, u, Selectors{}); err != nil {
			t.Fatal(err)
		}
		return g
	}
	defer func() { reorderMembers = nil }()
	objects := 0
	for k, body := range bodies {
		reorderMembers = func(jobj) { objects++ }
		want := read(body, urls[k])
		for seed := range 6 {
			rng := rand.New(rand.NewPCG(uint64(seed), uint64(k)))
			reorderMembers = func(o jobj) {
				switch seed {
				case 0:
					slices.Reverse(o.members())
				case 1:
					slices.SortFunc(o.members(), func(a, b jpair) int { return strings.Compare(a.k, b.k) })
				default:
					ms := o.members()
					rng.Shuffle(len(ms), func(i, j int) { ms[i], ms[j] = ms[j], ms[i] })
				}
			}
			if g := read(body, urls[k]); !reflect.DeepEqual(g, want) {
				t.Errorf("%s: members reordered (%d) give\n%+v\nin document order\n%+v", urls[k], seed, g, want)
			}
		}
	}
	if objects == 0 {
		t.Error("no JSON object read")
	}
}

// TestReusedJSONReader: a reader that goes on from earlier inputs (also ones
// it failed on halfway) and is reset between pages, as a page's reader is,
// reads what a fresh one reads, and leaves earlier results untouched until
// reset.
func TestReusedJSONReader(t *testing.T) {
	inputs := append(slices.Clone(jsonCases), fixtureScripts(t)...)
	var d jsonReader
	type kept struct {
		s    string
		v, w any
		ok   bool
	}
	var page []kept
	check := func() {
		for _, k := range page {
			if !reflect.DeepEqual(k.v, k.w) {
				t.Errorf("a value read from %.80q changed before the reset: %#v, was %#v", k.s, k.v, k.w)
			}
		}
	}
	for i, s := range inputs {
		for _, first := range []bool{false, true} {
			var v, w any
			var ok, okW bool
			if first {
				v, ok = d.decodeFirstPairs(s)
				w, okW = decodeFirstJSONPairs(s)
			} else {
				v, ok = d.unmarshalPairs(s)
				w, okW = unmarshalJSONPairs(s)
			}
			if ok != okW || !reflect.DeepEqual(v, w) {
				t.Fatalf("reused reader on %.80q (first %v) = %#v, %v; fresh: %#v, %v", s, first, v, ok, w, okW)
			}
			if ok {
				w2, _ := unmarshalOrFirst(s, first)
				page = append(page, kept{s, v, w2, ok})
			}
		}
		if i%7 == 6 {
			check()
			page = page[:0]
			d.reset()
		}
	}
	check()
}

func unmarshalOrFirst(s string, first bool) (any, bool) {
	if first {
		return decodeFirstJSONPairs(s)
	}
	return unmarshalJSONPairs(s)
}
