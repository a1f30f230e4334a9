package classify

import (
	"bytes"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/net/html"
)

// treeBodies are every page the classifier is tested on, and the real pages.
func treeBodies(t *testing.T) map[string][]byte {
	out := map[string][]byte{}
	for _, dir := range []string{filepath.Join("..", "..", "testdata", "classify"), filepath.Join("..", "..", "..", "shared", "sites")} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.html"))
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			out[filepath.Base(f)] = b
		}
	}
	for i, s := range []string{
		"", "<title>x<svg><title>Just a moment</title></svg><noscript><noscript><iframe>Request unsuccessful. incident ID",
		`<html><head><title>Access Denied</title></head><body><h1>Access Denied</h1>You don't have permission to access "/" on this server.<p>Reference #18.6f2d3e17.1700000000.1a2b3c</p></body></html>`,
		`<div class="cf-error-code">1020</div><title>Attention Required! | Cloudflare</title>`,
		`<h1>Error <b>1015</b></h1><div id="cf-wrapper"></div>`,
		// Not here: "<h1>a <h1>b</h1></h1>". The tokenizer reads one heading "a b",
		// the HTML5 parser (like a browser) two headings "a" and "b".
		`<table><tr>Ich bin kein Roboter<td>x</td></tr></table>`,
		`<form action="/?__cf_chl_f_tk=abc"><input name="jschl_vc"></form>`,
		`<script src="https://geo.captcha-delivery.com/captcha/?t=fe"></script>`,
		`<script>var dd={'t':'bv','host':'geo.captcha-delivery.com'}</script>`,
	} {
		out["inline-"+string(rune('a'+i))] = []byte(s)
	}
	return out
}

// Classify gives the same outcome from the parsed tree as from the body.
func TestTreeMatchesTokenizer(t *testing.T) {
	u, _ := url.Parse("https://www.wohnungsportal.example/suche")
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for name, body := range treeBodies(t) {
		doc, err := html.Parse(bytes.NewReader(body))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		a, b := scanPage(body, "text/html"), scanTree(doc, body, "text/html")
		for _, pair := range [][2]*finding{{a.denied, b.denied}, {a.rateLimited, b.rateLimited}, {a.challenge, b.challenge}, {a.widget, b.widget}} {
			if (pair[0] == nil) != (pair[1] == nil) || pair[0] != nil && *pair[0] != *pair[1] {
				t.Errorf("%s: tokenizer found %+v, tree %+v", name, pair[0], pair[1])
			}
		}
		if a.title != b.title {
			t.Errorf("%s: title %q from the tokenizer, %q from the tree", name, a.title, b.title)
		}
		for _, st := range []int{200, 403, 429, 503} {
			for _, n := range []int{0, 5} {
				in := Input{Status: st, Header: http.Header{}, Body: body, RequestURL: u, FinalURL: u, Listings: n, Now: now}
				want := Classify(in)
				in.Doc = doc
				if got := Classify(in); got != want {
					t.Errorf("%s status %d listings %d: tree %v, tokenizer %v", name, st, n, got, want)
				}
			}
		}
	}
}
