package extract

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"notifio/internal/model"
)

// FuzzExtract: no input makes Extract panic, and every listing it returns obeys
// the listing rules (an id, unique; an http(s) URL without user info or
// fragment; text folded and free of control characters). Seeds: our fixtures
// with their URLs and selectors, and the rule pages.
//
//	go test ./poll/extract -run '^$' -fuzz FuzzExtract -fuzztime 60s
func FuzzExtract(f *testing.F) {
	for _, c := range fixtures {
		body, err := os.ReadFile(filepath.Join(fixtureDir, c.name+".html"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(body, c.url, c.sel.Item, c.sel.Link)
	}
	rules, _ := filepath.Glob(filepath.Join(fixtureDir, "rules", "*.html"))
	for _, p := range rules {
		body, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(body, "https://www.example.de/suche?q=1", "", "")
	}
	f.Add([]byte(`<a href="javascript:x">a</a><a href="//u:p@x.de/1">b</a>`), "https://x.de/", "a", "")
	f.Add([]byte(`<script>window.__INITIAL_STATE__ = {"a":[{"id":1,"title":"t","price":"1 €"},{"id":2,"title":"u","price":2}]}</script>`), "https://x.de/s", "", "")
	f.Fuzz(func(t *testing.T, body []byte, pageURL, item, link string) {
		u, err := url.Parse(pageURL)
		if err != nil {
			return
		}
		r, err := Extract(body, u, model.PageSelectors{Item: item, Link: link})
		if err != nil {
			return
		}
		if r.Listings == nil || len(r.Listings) > MaxListings {
			t.Fatalf("%d listings (nil: %v)", len(r.Listings), r.Listings == nil)
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
			for _, s := range []string{l.Title, l.Price, l.Location, l.Size, l.Rooms} {
				if s != strings.TrimSpace(s) || strings.Contains(s, "  ") || strings.ContainsAny(s, "\n\t\x1b") {
					t.Fatalf("text not folded: %q", s)
				}
				if utf8.ValidString(string(body)) && !utf8.ValidString(s) {
					t.Fatalf("invalid UTF-8 from valid input: %q", s)
				}
			}
		}
	})
}
