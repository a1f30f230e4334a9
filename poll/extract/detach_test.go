package extract

import (
	"os"
	"path/filepath"
	"testing"
	"unsafe"
)

// TestListingsKeepNoScript: no text of a listing shares the memory of one of
// the page's scripts (the JSON readers hand out parts of a script, and a plain
// absolute URL is its own string; detach copies them), so that a listing kept
// does not keep the page's scripts alive, on every fixture and real page.
func TestListingsKeepNoScript(t *testing.T) {
	type doc struct {
		name string
		body []byte
		url  string
	}
	var docs []doc
	for _, c := range fixtureCases(t) {
		body, err := os.ReadFile(filepath.Join(fixtureDir, c.name+".html"))
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, doc{c.name, body, c.url})
	}
	for _, pg := range realPages(t) {
		docs = append(docs, doc{pg.name, pg.body, pg.url.String()})
	}
	fromScripts := 0
	for _, d := range docs {
		root := Parse(d.body)
		p := newPage(root, mustURL(d.url))
		p.scan()
		var scripts []string
		for _, s := range p.scripts {
			if s.FirstChild != nil {
				scripts = append(scripts, s.FirstChild.Data)
			}
		}
		p.release()
		for _, opt := range []Options{{}, {NoProfiles: true}} {
			r, err := ExtractTree(root, mustURL(d.url), Selectors{}, opt)
			if err != nil {
				t.Fatal(err)
			}
			if r.Method == MethodJSONLD || r.Method == MethodNextData || r.Method == MethodAppState {
				fromScripts++
			}
			for _, l := range r.Listings {
				for _, f := range []string{l.ID, l.URL, l.Title, l.Price, l.Currency, l.Location, l.Size, l.Rooms, l.Image} {
					if f == "" {
						continue
					}
					at := uintptr(unsafe.Pointer(unsafe.StringData(f)))
					for _, s := range scripts {
						if start := uintptr(unsafe.Pointer(unsafe.StringData(s))); at >= start && at < start+uintptr(len(s)) {
							t.Errorf("%s: listing %s: %q is a part of a script", d.name, l.URL, f)
						}
					}
				}
			}
		}
	}
	if fromScripts == 0 {
		t.Fatal("no page's listings came from a script: the test checks nothing")
	}
}
