package extract

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// repeatedHrefs are hrefs of every kind, repeated on the generated pages: plain
// and relative paths, absolute, other-site, query and fragment forms, ones
// that do not resolve, and ones differing only in case or a trailing slash.
var repeatedHrefs = []string{"/w/1", "/w/1", "/w/2", "w/3", "./w/4", "../w/5", "/W/1", "/w/1/", "/w/1?x=1", "/w/1#top",
	"https://www.example.de/w/6", "HTTPS://WWW.EXAMPLE.DE/w/7", "https://other.de/w/8", "//www.example.de/w/9",
	"javascript:void(0)", "mailto:a@b.de", "#", "", " /w/10 ", "/w/%41", "/w/a b", "?page=2", "/expose/123456"}

// repeatedLinkPage is a page of n anchors (and a few data-href cards) with hrefs
// drawn from repeatedHrefs, so that most are repeated.
func repeatedLinkPage(rng *rand.Rand, n int) []byte {
	var b strings.Builder
	b.WriteString(`<html><head><title>t</title></head><body><ul>`)
	for i := range n {
		h := repeatedHrefs[rng.IntN(len(repeatedHrefs))]
		if i%7 == 3 {
			fmt.Fprintf(&b, `<li><article data-href="%s">Karte %d</article></li>`, h, i)
			continue
		}
		fmt.Fprintf(&b, `<li><a href="%s">Wohnung %d</a> %d €</li>`, h, i, 400+i)
	}
	b.WriteString(`</ul></body></html>`)
	return []byte(b.String())
}

// TestLinkSharedHrefsMatchResolvingEach holds link and canonOf, which take an
// href already resolved from another anchor (found by a scan on pages of up
// to fewAnchors anchors, in p.hrefs on longer ones), to resolving every href
// on its own: the same URL, canonical form and pattern, whatever order the
// anchors are asked in, and still at the end (page.urls grew meanwhile). Pages: every fixture and real page, and generated
// pages on both sides of fewAnchors with repeated hrefs.
func TestLinkSharedHrefsMatchResolvingEach(t *testing.T) {
	bodies, urls := cardPages(t)
	rng := rand.New(rand.NewPCG(19, 7))
	for _, n := range []int{2, 5, 12, fewAnchors - 1, fewAnchors, fewAnchors + 1, 40, 90} {
		for range 20 {
			bodies, urls = append(bodies, repeatedLinkPage(rng, n)), append(urls, mustURL("https://www.example.de/suche/wohnungen?ort=kiel"))
		}
	}
	small, large, shared, sharedLarge := 0, 0, 0, 0
	for k, body := range bodies {
		doc := Parse(body)
		p := newPage(doc, urls[k])
		p.scan()
		if len(p.anchors) > fewAnchors {
			large++
		} else {
			small++
		}
		check := func(what, href string, ok bool, canon, pattern, str string) {
			t.Helper()
			u, wantOK := p.res.resolve(href)
			if ok != wantOK {
				t.Fatalf("%s: %s %q: ok %v, resolving it alone %v", urls[k], what, href, ok, wantOK)
			}
			if !ok {
				return
			}
			if canon != urlString(u) || str != u.String() || pattern != "" && pattern != pathPattern(u) {
				t.Fatalf("%s: %s %q: %q %q %q, resolving it alone %q %q %q", urls[k], what, href, canon, str, pattern, urlString(u), u.String(), pathPattern(u))
			}
		}
		// Ask the anchors in a random order, some twice, and canonOf between.
		order := rng.Perm(len(p.anchors))
		order = append(order, order[:len(order)/3]...)
		for _, i := range order {
			had := p.resolvedHref(p.anchors[i].href, i) >= 0
			if had {
				shared++
				if len(p.anchors) > fewAnchors {
					sharedLarge++
				}
			}
			a := p.link(i)
			str := ""
			if a.ok {
				str = a.u.String()
			}
			check("link", a.href, a.ok, a.canon, p.patternAt(i), str)
			h := repeatedHrefs[rng.IntN(len(repeatedHrefs))]
			c, ok := p.canonOf(h)
			check("canonOf", h, ok, c, "", c)
		}
		// The URLs stay as they were when page.urls grew after them.
		for i := range p.anchors {
			if a := &p.anchors[i]; a.ok {
				check("link (at the end)", a.href, a.ok, a.canon, p.patternAt(i), a.u.String())
			}
		}
		p.release()
		// The same page again with a page from the pool: nothing left over.
		p = newPage(doc, urls[k])
		p.scan()
		for i := range p.anchors {
			if p.anchors[i].resolved || p.resolvedHref(p.anchors[i].href, -1) >= 0 {
				t.Fatalf("%s: anchor %d resolved before it was asked", urls[k], i)
			}
		}
		p.release()
	}
	if small == 0 || large == 0 || shared == 0 || sharedLarge == 0 {
		t.Errorf("pages with few anchors %d, with many %d, links taken from another anchor %d (%d on pages with many): want all > 0", small, large, shared, sharedLarge)
	}
}
