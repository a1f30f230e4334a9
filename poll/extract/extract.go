// Package extract turns a saved or fetched search-result page into listings: a
// pure function of (page bytes, page URL, user selectors). Site profiles cover
// the sites we have real pages of; every other site goes through generic
// strategies (schema.org JSON-LD, embedded app state, a repeated-card heuristic);
// user CSS selectors override everything. Selectors are matched with cascadia,
// the engine behind goquery, on a tree parsed once with golang.org/x/net/html.
package extract

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Options tune extraction beyond the user's selectors.
type Options struct {
	// NoProfiles skips the site profiles, as if the site were unknown: the
	// generic strategies alone (used to measure them on real pages, and for
	// `notifio extract --generic`-style debugging).
	NoProfiles bool
}

// Extract finds the listings on one result page. body is the page as UTF-8 (the
// fetcher has decoded its charset), pageURL the URL it was fetched from (links
// are resolved against it and must stay on its site). When sel.Item is set the
// user's selectors decide; else the site profile for the page's host; else the
// generic strategies. The only errors are unusable input: no page URL, or a
// selector that is not valid CSS (the message names it).
func Extract(body []byte, pageURL *url.URL, sel Selectors) (Result, error) {
	return ExtractWith(body, pageURL, sel, Options{})
}

// ExtractWith is Extract with options.
func ExtractWith(body []byte, pageURL *url.URL, sel Selectors, opt Options) (Result, error) {
	return ExtractTree(Parse(body), pageURL, sel, opt)
}

// Parse parses a page the way Extract does (the HTML5 parser, with a tolerant
// fallback for pages nested too deep for it), so that other readers of the same
// page — the classifier — can share one tree with ExtractTree.
func Parse(body []byte) *html.Node { return parse(body) }

// ExtractTree is ExtractWith on a tree from Parse. It only reads the tree, so
// the tree can be shared (also between goroutines).
func ExtractTree(doc *html.Node, pageURL *url.URL, sel Selectors, opt Options) (Result, error) {
	if pageURL == nil || pageURL.Host == "" {
		return Result{}, errors.New("extract: the page URL must be absolute (like https://www.example.de/suche), so links can be resolved against it")
	}
	if s := strings.ToLower(pageURL.Scheme); s != "http" && s != "https" {
		return Result{}, fmt.Errorf("extract: the page URL %q is not http or https", pageURL.String())
	}
	us, err := compileSelectors(sel)
	if err != nil {
		return Result{}, err
	}
	if doc == nil {
		doc = &html.Node{Type: html.DocumentNode}
	}
	p := newPage(doc, pageURL)
	defer p.release()
	var r Result
	switch {
	case us != nil:
		r = p.bySelectors(us)
	default:
		var prof *profile
		if !opt.NoProfiles {
			prof = p.profile()
		}
		if prof != nil {
			r = p.byProfile(prof)
			if len(r.Listings) == 0 && !r.NoResults {
				if r.Blocked = p.blocked(); r.Blocked == "" {
					r.NoResults = p.hasNoResultsPhrase(prof.noResults) || p.hasNoResultsPhrase(genericNoResults)
				}
			}
			if len(r.Listings) == 0 && !r.Container && !r.NoResults && r.Blocked == "" {
				// The profile's markup is gone (redesign, or not a results page):
				// try the generic strategies before giving up.
				if g := p.generic(); len(g.Listings) > 0 {
					g.Site = r.Site
					r = g
				}
			}
		} else {
			r = p.generic()
		}
	}
	p.finish(&r)
	return r, nil
}

// page is one parsed page with what a single walk over it collected.
type page struct {
	root *html.Node
	url  *url.URL
	res  resolver
	// titles are the page's <title> elements (not SVG's), in document order:
	// its title is the first with a text, read only when asked (pageTitle).
	titles []*html.Node
	// scripts: every <script> element, in document order.
	scripts []*html.Node
	// anchors: every <a href> outside <head>, in document order; the anchors of
	// any subtree are contiguous here.
	anchors []anchor
	// groups: candidate lists of sibling elements that contain links.
	groups []*group
	// captcha evidence found during the walk ("" if none).
	captcha string
	// stack is scratch space for the walk.
	stack  []childRec
	walked bool
	// lowerText is the page's visible text in lower case, once needed.
	lowerText string
	// memberArena backs the groups' member lists, groupArena the groups.
	memberArena []childRec
	groupArena  []group
	// mergedScratch backs mergeGrids' list, tagScratch its tag counts;
	// cardGroupList backs cardGroups' list.
	mergedScratch, cardGroupList []*group
	tagScratch                   []tagCount
	// candArena backs the members of evalGroup's candidates; bestOrder and
	// bestDone are bestCards' lists.
	candArena []candMember
	bestOrder []int
	bestDone  []evaluated
	// cardPairs, cardPairsCur and pairTaken are listingCards' lists.
	cardPairs, cardPairsCur []cardPair
	pairTaken               []uint64
	// table is the last table whose rows were read, with its heading row and
	// what its columns hold (columnKind of each heading).
	table, tableHead *html.Node
	tableKinds       []int
	// ev is evalGroup's scratch space.
	ev evalScratch
	// coarseMemo is coarseOf's.
	coarseMemo coarseMemo
	// seenIDs is finish's.
	seenIDs strSet
	// classFlags remembers classFlagsOf and adClasses adClass; promotedCls
	// and promotedWas what promotedMarked said of the last card's class
	// (when promotedDone).
	classFlags                classFlagsMemo
	adClasses                 adClassMemo
	promotedCls               string
	promotedDone, promotedWas bool
	// cardPriceEls, cardTextEls and cardIDAttrs back the lists of the card
	// being read (cardFields).
	cardPriceEls, cardTextEls []*html.Node
	cardIDAttrs               []string
	// jr reads the page's scripts; what it returns lives in its blocks, reused
	// by the next page (nothing read from a script outlives the extraction:
	// listings are detached).
	jr jsonReader
	// ldList and ldSeen are jsonLD's scratch space.
	ldList []Listing
	// ldPrices are the prices of jsonLD's listings, to be written out.
	ldPrices []ldPendingPrice
	ldSeen   strSet
	// hrefs maps an href to the first anchor resolved with it, on pages of
	// more than fewAnchors anchors (see resolvedHref).
	hrefs map[string]int
	// patterns are the link patterns made (patternAt).
	patterns patternMemo
	// urls backs the anchors' resolved URLs (link): one list reused by the
	// next page instead of a URL allocated for each link. When it grows, the
	// URLs already handed out stay where they are (the old array lives on
	// while an anchor points into it).
	urls []url.URL
	// texts remembers text() of the elements the card heuristic reads (links
	// and cards are read by several candidate groups and again when built).
	texts map[*html.Node]string
}

// textOf is text(n), remembered for the page (but the texts the tree holds
// as they are, which are found again quicker than looked up).
func (p *page) textOf(n *html.Node) string {
	if n != nil {
		if t, ok := textShort(n); ok {
			return t
		}
	}
	if t, ok := p.texts[n]; ok {
		return t
	}
	t := text(n)
	if p.texts == nil {
		p.texts = make(map[*html.Node]string)
	}
	p.texts[n] = t
	return t
}

// anchor is one link and, once resolved, its listing URL.
type anchor struct {
	n        *html.Node
	href     string
	resolved bool
	ok       bool
	u        *url.URL
	canon    string
	// same is 1 + the anchor this one copied its URL from (it had the same
	// href), 0 if none; patternAt asks it for the pattern.
	same int
	// pattern, coarse pattern and id in the URL, once needed (patternAt,
	// coarseOf, idOf)
	pattern, coarse, id             string
	patternDone, coarseDone, idDone bool
}

func newPage(root *html.Node, u *url.URL) *page {
	p := pages.Get().(*page)
	p.root, p.url, p.res = root, u, newResolver(u)
	// <base href> changes what relative links resolve against (not the site).
	if b := baseHref(root); b != "" {
		if bu, err := url.Parse(strings.TrimSpace(b)); err == nil {
			if abs := u.ResolveReference(bu); abs.Scheme == "http" || abs.Scheme == "https" {
				p.res.setPage(abs)
			}
		}
	}
	return p
}

// pages are reused: on small pages, growing the walk's lists again for every
// page cost as much as the rest of the walk.
var pages = sync.Pool{New: func() any { return new(page) }}

// release returns p to the pool; nothing may use it after.
func (p *page) release() {
	if p.reset() {
		pages.Put(p)
	}
}

// reset empties p for the next page, keeping its lists (emptied) unless they
// grew long; it reports whether p is worth keeping.
//
// The fields are reset one by one rather than by assigning a new page: that
// built the page's 2 KB in a temporary and copied it over p with a write
// barrier on each of its pointer slots while the collector marked, and the
// memos, mostly unused on a small page, are cleared only when used.
// TestPageResetLeavesNothing holds every field of page to it.
func (p *page) reset() bool {
	const keep = 1 << 14 // longer lists are left to the garbage collector
	clear(p.scripts)
	clear(p.anchors)
	clear(p.groups)
	// The lists used as scratch clear what they drop when they drop it, and
	// their last contents are cleared here: no list holds anything past its
	// length (clearing each up to its capacity, grown on a large page, cost
	// small pages more than their walk).
	clear(p.stack)
	clear(p.memberArena)
	clear(p.groupArena)
	p.ev.reset()
	p.seenIDs.reset()
	clear(p.ev.members)
	clear(p.cardPriceEls)
	clear(p.cardTextEls)
	clear(p.cardIDAttrs)
	clear(p.mergedScratch)
	clear(p.cardGroupList)
	clear(p.tagScratch)
	clear(p.candArena)
	clear(p.bestDone)
	p.jr.reset()
	ldList := p.ldList[:0]
	if cap(ldList) > 256 {
		ldList = nil
	}
	p.ldSeen.reset() // (jsonLD leaves it empty)
	clear(p.ldPrices)
	p.ldPrices = p.ldPrices[:0]
	hrefs := p.hrefs
	if len(hrefs) > keep {
		hrefs = nil
	}
	clear(hrefs)
	clear(p.urls)
	urls := p.urls[:0]
	if cap(urls) > keepURLs {
		urls = nil
	}
	texts := p.texts
	if len(texts) > keep {
		texts = nil
	}
	clear(texts)
	clear(p.titles)
	p.titles = p.titles[:0]
	p.root, p.url, p.res, p.captcha, p.walked, p.lowerText = nil, nil, resolver{}, "", false, ""
	p.scripts, p.anchors, p.groups, p.stack = p.scripts[:0], p.anchors[:0], p.groups[:0], p.stack[:0]
	p.memberArena, p.groupArena = p.memberArena[:0], p.groupArena[:0]
	p.mergedScratch, p.cardGroupList, p.tagScratch = p.mergedScratch[:0], p.cardGroupList[:0], p.tagScratch[:0]
	p.candArena, p.bestOrder, p.bestDone = p.candArena[:0], p.bestOrder[:0], p.bestDone[:0]
	p.table, p.tableHead, p.tableKinds = nil, nil, p.tableKinds[:0]
	if p.coarseMemo.n > 0 {
		p.coarseMemo = coarseMemo{}
	}
	if p.patterns.n > 0 {
		p.patterns = patternMemo{}
	}
	if p.classFlags.used {
		p.classFlags = classFlagsMemo{}
	}
	if p.adClasses.set != [len(p.adClasses.set)]bool{} {
		p.adClasses = adClassMemo{}
	}
	p.promotedCls, p.promotedDone, p.promotedWas = "", false, false
	p.cardPriceEls, p.cardTextEls, p.cardIDAttrs = p.cardPriceEls[:0], p.cardTextEls[:0], p.cardIDAttrs[:0]
	p.ldList, p.hrefs, p.urls, p.texts = ldList, hrefs, urls, texts
	return cap(p.anchors) <= keep && cap(p.memberArena) <= keep && cap(p.scripts) <= keep && cap(p.groups) <= keep && cap(p.stack) <= keep && cap(p.groupArena) <= keep &&
		cap(p.cardTextEls) <= keep && cap(p.mergedScratch) <= keep && cap(p.cardGroupList) <= keep &&
		cap(p.candArena) <= keep
}

// baseHref returns the href of <head>'s <base>, "" if none.
func baseHref(root *html.Node) string {
	for h := root.FirstChild; h != nil; h = h.NextSibling {
		if h.DataAtom != atom.Html {
			continue
		}
		for head := h.FirstChild; head != nil; head = head.NextSibling {
			if head.DataAtom != atom.Head {
				continue
			}
			for c := head.FirstChild; c != nil; c = c.NextSibling {
				if c.DataAtom == atom.Base {
					if v := attr(c, "href"); v != "" {
						return v
					}
				}
			}
		}
	}
	return ""
}

// scan runs the walk once, when a strategy first needs what it collects
// (profiles read the tree with their own selectors and never need it).
func (p *page) scan() {
	if !p.walked {
		p.walked = true
		p.walk(p.root, false)
	}
}

// url resolves anchor i (lazily) to a canonical same-site listing URL.
func (p *page) link(i int) *anchor {
	a := &p.anchors[i]
	if !a.resolved {
		a.resolved = true
		// Cards link to their listing more than once (picture, title, "more"):
		// an href already resolved is not resolved again.
		if j := p.resolvedHref(a.href, i); j >= 0 {
			b := &p.anchors[j]
			a.u, a.ok, a.canon, a.same = b.u, b.ok, b.canon, j+1
			return a
		}
		if len(p.anchors) > fewAnchors {
			if p.hrefs == nil {
				p.hrefs = make(map[string]int)
			}
			p.hrefs[a.href] = i
		}
		var u url.URL
		if c, ok := p.res.resolveCanon(a.href, &u); ok {
			p.urls = append(p.urls, u)
			a.u, a.ok, a.canon = &p.urls[len(p.urls)-1], true, c
		}
	}
	return a
}

// patternMemo hands out the patterns of a page's links: the links of one
// list share theirs, which is made once (a string for each link was most of
// the card search's allocations on small pages).
type patternMemo struct {
	last [8]string // the patterns made last, the newest at (n-1) % 8
	n    int       // how many were made
}

// of is string(b), the string made before if it is among the last few.
func (m *patternMemo) of(b []byte) string {
	for i := range min(m.n, len(m.last)) {
		if m.last[i] == string(b) {
			return m.last[i]
		}
	}
	s := string(b)
	m.last[m.n%len(m.last)] = s
	m.n++
	return s
}

// keepURLs is the most URLs page.urls keeps room for between pages.
const keepURLs = 4096

// patternAt is pathPattern of anchor i's URL (resolved by link), computed
// once for each href: looking a link up by its token (app state) needs no
// pattern, the card search does.
func (p *page) patternAt(i int) string {
	a := &p.anchors[i]
	if !a.patternDone {
		if a.same > 0 {
			a.pattern = p.patternAt(a.same - 1)
		} else if a.ok {
			var buf [96]byte
			a.pattern = p.patterns.of(appendPathPattern(buf[:0], a.u))
		}
		a.patternDone = true
	}
	return a.pattern
}

// fewAnchors is the most anchors a page has for resolvedHref to scan them
// rather than keep p.hrefs: on small pages hashing every href into the map
// (and clearing it in release) cost more than the scan, and the map's writes
// pay the collector's write barrier while it marks.
const fewAnchors = 32

// resolvedHref returns an anchor other than skip already resolved with href
// (-1 if none). Every anchor resolved with one href holds the same URL,
// canonical form and pattern (link copies them from the first), so any of
// them will do; on pages with more than fewAnchors anchors p.hrefs has the
// first.
func (p *page) resolvedHref(href string, skip int) int {
	if len(p.anchors) > fewAnchors {
		if j, ok := p.hrefs[href]; ok {
			return j
		}
		return -1
	}
	for j := range p.anchors {
		if b := &p.anchors[j]; b.resolved && j != skip && b.href == href {
			return j
		}
	}
	return -1
}

// childRec summarises one child element that contains links, for grouping.
type childRec struct {
	n           *html.Node
	firstAnchor int
	anchors     int
	elems       int
	textLen     int
}

// walkStats is what the walk returns about a subtree.
type walkStats struct {
	firstAnchor, anchors, elems, textLen int
}

// walk visits the tree once, collecting scripts, anchors, title, captcha markers
// and candidate sibling groups (children of one parent that contain links).
func (p *page) walk(n *html.Node, inHead bool) walkStats {
	st := walkStats{firstAnchor: -1}
	switch n.Type {
	case html.TextNode:
		st.textLen = trimmedLen(n.Data)
		return st
	case html.ElementNode:
		st.elems = 1
		switch n.DataAtom {
		case atom.Script:
			p.scripts = append(p.scripts, n)
			if src := attr(n, "src"); src != "" && p.captcha == "" {
				p.captcha = captchaScript(src)
			}
			return st
		case atom.Style, atom.Template, atom.Noscript:
			return st
		case atom.Title:
			if n.Namespace == "" {
				p.titles = append(p.titles, n)
			}
			if inHead {
				return st
			}
		case atom.Head:
			inHead = true
		case atom.A:
			if !inHead && hasAttr(n, "href") {
				st.firstAnchor = len(p.anchors)
				st.anchors = 1
				p.anchors = append(p.anchors, anchor{n: n, href: attr(n, "href")})
			}
		case atom.Div, atom.Form, atom.Iframe:
			if p.captcha == "" {
				if id := attr(n, "id"); id != "" {
					p.captcha = captchaID(id)
				}
			}
		}
		if n.DataAtom != atom.A && !inHead {
			// Cards that navigate by script: <article data-href="/expose/1">.
			if h := attr(n, "data-href"); h != "" && (h[0] == '/' || strings.HasPrefix(h, "http")) {
				st.firstAnchor = len(p.anchors)
				st.anchors = 1
				p.anchors = append(p.anchors, anchor{n: n, href: h})
			}
		}
	case html.DocumentNode:
	default:
		return st
	}
	base := len(p.stack)
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		cs := p.walk(c, inHead)
		st.elems += cs.elems
		st.textLen += cs.textLen
		if cs.anchors > 0 {
			if st.firstAnchor < 0 {
				st.firstAnchor = cs.firstAnchor
			}
			st.anchors += cs.anchors
			if c.Type == html.ElementNode {
				p.stack = append(p.stack, childRec{n: c, firstAnchor: cs.firstAnchor, anchors: cs.anchors, elems: cs.elems, textLen: cs.textLen})
			}
		}
	}
	if len(p.stack)-base >= 2 {
		p.addGroups(n, p.stack[base:])
	}
	clear(p.stack[base:])
	p.stack = p.stack[:base]
	return st
}

// captchaScript returns evidence when a script src belongs to a bot check.
func captchaScript(src string) string {
	// (lowerContains: no lower-case copy of every script's src)
	if lowerContains(src, "geetest", "recaptcha", "hcaptcha", "captcha-delivery", "challenges.cloudflare.com", "px-captcha", "perimeterx", "distil", "/cdn-cgi/challenge-platform") {
		return "captcha script " + src
	}
	return ""
}

// captchaID returns evidence when an element id belongs to a bot check.
func captchaID(id string) string {
	if lowerContains(id, "captcha", "challenge-form", "cf-challenge", "challenge-running", "px-captcha", "distil") {
		return "element #" + id
	}
	return ""
}

// blockedTitles are page titles of bot checks served instead of results.
var blockedTitles = []string{"ich bin kein roboter", "just a moment", "attention required", "access denied",
	"are you a robot", "are you human", "captcha", "security check", "pardon our interruption", "bot protection",
	"zugriff verweigert", "sicherheitsüberprüfung", "un momento", "verifica di sicurezza", "request unsuccessful"}

// blocked returns evidence that the page is a bot check, "" if none.
func (p *page) blocked() string {
	p.scan()
	title := p.pageTitle()
	t := strings.ToLower(title)
	for _, m := range blockedTitles {
		if strings.Contains(t, m) {
			return fmt.Sprintf("title %q", title)
		}
	}
	return p.captcha
}

// pageTitle is the text of the page's first <title> that has one ("" if
// none): read only when asked (a page with listings never asks).
func (p *page) pageTitle() string {
	for _, n := range p.titles {
		if t := text(n); t != "" {
			return t
		}
	}
	return ""
}

// finish applies the rules every listing obeys, whatever produced it.
func (p *page) finish(r *Result) {
	if r.Site == "" {
		r.Site = p.res.domain
	}
	if r.Method == "" {
		r.Method = MethodNone
	}
	seen := &p.seenIDs // (a list of its own would escape: one allocation a page)
	seen.reset()
	out := r.Listings[:0]
	for i := range r.Listings {
		l := &r.Listings[i] // (in place: a listing is copied only when one before it was dropped)
		if l.URL == "" {
			continue
		}
		l.ID = fold(l.ID)
		if l.ID == "" {
			l.ID = hashID(l.URL)
		}
		if !seen.add(l.ID) {
			continue
		}
		l.Title = fold(l.Title)
		l.Price = fold(l.Price)
		l.Location = fold(l.Location)
		l.Size = normSize(fold(l.Size))
		l.Rooms = fold(l.Rooms)
		if l.Price != "" && l.PriceValue == 0 {
			v, c := parsePrice(l.Price)
			l.PriceValue = v
			if l.Currency == "" {
				l.Currency = c
			}
		}
		if l.Currency == "" && l.Price != "" {
			l.Currency = currencyOf(l.Price)
		}
		if len(out) < i {
			out = append(out, *l)
		} else {
			out = out[:i+1]
		}
	}
	r.Listings = out
	if r.Listings == nil {
		r.Listings = []Listing{}
	}
	if len(r.Listings) == 0 && r.Blocked == "" && !r.NoResults {
		if r.Blocked = p.blocked(); r.Blocked == "" {
			r.NoResults = p.hasNoResultsPhrase(genericNoResults)
		}
	}
}

// genericNoResults are phrases by which result pages say they found nothing.
var genericNoResults = []string{
	"keine ergebnisse", "0 treffer", "keine treffer", "no results", "0 results", "keine passenden angebote",
	"0 ergebnisse", "0 angebote", "keine angebote gefunden", "keine anzeigen gefunden", "leider keine passenden",
	"leider keine angebote", "leider keine ergebnisse", "leider keine treffer", "nothing found", "no listings", "no matches", "no properties found",
	"keine objekte gefunden", "keine immobilien gefunden", "no hay anuncios", "no hay resultados",
	"nessun risultato", "nessun annuncio", "aucun résultat", "aucune annonce", "geen resultaten", "brak wyników",
}

// hasNoResultsPhrase reports whether the page's visible text contains one of
// phrases (lower case). A phrase that starts with a digit must not follow one
// ("10 Treffer" is not "0 Treffer").
func (p *page) hasNoResultsPhrase(phrases []string) bool {
	if len(phrases) == 0 {
		return false
	}
	if p.lowerText == "" {
		p.lowerText = lowerText(p.root)
	}
	body := p.lowerText
	for _, ph := range phrases {
		for i := 0; ; {
			j := strings.Index(body[i:], ph)
			if j < 0 {
				break
			}
			j += i
			if ph[0] >= '0' && ph[0] <= '9' && j > 0 {
				if c := body[j-1]; c >= '0' && c <= '9' || c == '.' || c == ',' {
					i = j + 1
					continue
				}
			}
			return true
		}
	}
	return false
}
