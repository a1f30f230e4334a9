package extract

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
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
	"\ufeff{}", "\u00a0{}", "{}\u00a0", "{\"a\":1}\v", "\t\r\n[1]\t\r\n", `[1e309]`, `[4.9e-324]`, `[2.5e-324]`,
	`{"a":"x"` + strings.Repeat(" ", 3), `{"a"`, `[`, `{`, `"abc`, `"abc\`, `"\u`, `"\u00`,
	strings.Repeat("[", 10000) + strings.Repeat("]", 10000), strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
	strings.Repeat(`{"a":`, 10001) + "1" + strings.Repeat("}", 10001),
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
