package extract

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzExtract: no input makes Extract panic, and every listing it returns obeys
// the listing rules. The golden fixtures (with their URLs and selectors) are the
// seeds; the fuzzer varies the page, the URL and the item selector.
func FuzzExtract(f *testing.F) {
	for _, c := range fixtures {
		body, err := os.ReadFile(filepath.Join(fixtureDir, c.name+".html"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(body, c.url, c.sel.Item, c.sel.Link)
	}
	f.Add([]byte(`<a href="javascript:x">a</a><a href="//u:p@x.de/1">b</a>`), "https://x.de/", "a", "")
	f.Add([]byte(`<script>window.__INITIAL_STATE__ = {"a":[{"id":1,"title":"t","price":"1 €"},{"id":2,"title":"u","price":2}]}</script>`), "https://x.de/s", "", "")
	f.Add([]byte(`<script type="application/ld+json">{"@graph":[{"@type":"ItemList","itemListElement":[{"@type":"ListItem","item":"/a/1"},{"@type":"ListItem","url":"/a/2"}]}]}</script>`), "https://x.de/s", "", "")
	f.Fuzz(func(t *testing.T, body []byte, pageURL, item, link string) {
		u, err := url.Parse(pageURL)
		if err != nil {
			return
		}
		r, err := Extract(body, u, Selectors{Item: item, Link: link})
		if err != nil {
			return
		}
		if r.Listings == nil {
			t.Fatal("Listings is nil, want []")
		}
		if _, err := json.Marshal(JSON(r)); err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, l := range r.Listings {
			if l.ID == "" || seen[l.ID] {
				t.Fatalf("empty or duplicate id %q", l.ID)
			}
			seen[l.ID] = true
			lu, err := url.Parse(l.URL)
			if err != nil || (lu.Scheme != "http" && lu.Scheme != "https") || lu.User != nil || lu.Fragment != "" {
				t.Fatalf("bad listing url %q", l.URL)
			}
			if registrable(lu.Hostname()) != registrable(u.Hostname()) {
				t.Fatalf("listing url %q is not on the page's site %q", l.URL, u.Host)
			}
			for _, s := range []string{l.Title, l.Price, l.Location, l.Size, l.Rooms} {
				if s != strings.TrimSpace(s) || strings.Contains(s, "  ") || strings.ContainsAny(s, "\n\t") {
					t.Fatalf("text not folded: %q", s)
				}
				if utf8.ValidString(string(body)) && !utf8.ValidString(s) {
					t.Fatalf("invalid UTF-8 from valid input: %q", s)
				}
			}
		}
	})
}
