package extract

import (
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// This file finds the page's result list without knowing the site: the
// repeated group of elements, each holding one link to one listing, that looks
// most like listings (prices, pictures, headings, ids in the links).

// group is a set of elements that repeat: children of one tag, under parents
// that look alike (the same tags and classes on the way from the root), so a
// grid laid out in rows is one group.
type group struct {
	key     uint64 // the parents' tags and classes, the members' tag
	depth   int
	members []*html.Node
}

// card is one member of a group with the link to its listing.
type card struct {
	node  *html.Node
	link  *html.Node // the element the URL came from (a, or an element with data-url)
	url   *url.URL
	lines []string // the card's visible lines, once read
}

// candidate is a group read as a result list.
type candidate struct {
	group *group
	cards []card
	// score adds up the cards that show a price, size, rooms or a picture;
	// plain adds up all, for lists where no card shows any of these.
	score, plain float64
}

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// mix adds s to the FNV-1a hash h, with a separator after it.
func mix(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= fnvPrime
	}
	h ^= 0xff
	return h * fnvPrime
}

// classesSig is a class attribute as part of a group key: its classes in any
// order (ids are unique per element and say nothing about the repetition).
// Read once per distinct attribute (classTraits.sig).
func classesSig(class string) uint64 {
	var sum uint64
	for c := range strings.FieldsSeq(class) {
		sum += mix(fnvOffset, c)
	}
	return sum
}

// skipStructure: elements that never hold listings a user sees.
func skipStructure(n *html.Node) bool { return skipStructureAs(n, hidingClass(attrOf(n, "class"))) }

// skipStructureAs is skipStructure of an element whose class hides it or not.
func skipStructureAs(n *html.Node, classHides bool) bool {
	switch n.DataAtom {
	case atom.Script, atom.Style, atom.Noscript, atom.Template, atom.Head, atom.Svg, atom.Iframe, atom.Select:
		return true
	}
	return hiddenAs(n, classHides)
}

// linkOf returns the URL an element leads to: its href, or a data-href /
// data-url / data-link, or the page an onclick goes to (location.href='…'),
// when the card is clicked through script.
func linkOf(n *html.Node, base *url.URL) (*url.URL, bool) {
	for _, key := range []string{"href", "data-href", "data-url", "data-link", "onclick"} {
		v := attrOf(n, key)
		if key == "href" && n.DataAtom != atom.A && n.DataAtom != atom.Area || v == "" {
			continue
		}
		if key == "onclick" {
			v = onclickTarget(v)
		}
		if u, ok := resolveLink(base, v); ok {
			return u, true
		}
	}
	return nil, false
}

// onclickTarget is the page a click script goes to (location.href='…'), ""
// for none.
func onclickTarget(script string) string {
	if m := reOnclick.FindStringSubmatch(script); m != nil {
		return m[1]
	}
	return ""
}

var reOnclick = regexp.MustCompile(`(?:location(?:\.href)?\s*=|location\.assign\(|window\.open\()\s*['"]([^'"]+)['"]`)

// memberLink is one link found inside a group member, with where it sits.
type memberLink struct {
	node *html.Node
	url  *url.URL
	slot string // the tags from the member to the link, and which attribute
}

// linksIn lists the visible links of a member (the member itself included).
func (ix *index) linksIn(m *html.Node, page *url.URL) []memberLink {
	var out []memberLink
	// path is the tags from the member down, one buffer for the walks of
	// the page (ix.path): each level appends to its parent's part; a link's
	// slot is its string (slotString).
	var walk func(n *html.Node, path []byte)
	walk = func(n *html.Node, path []byte) {
		if _, ok := ix.feat[n]; !ok {
			return // hidden, or no link inside
		}
		path = append(append(path, '/'), n.Data...)
		if u := ix.link[n]; u != nil && !samePage(u, page) {
			out = append(out, memberLink{node: n, url: u, slot: ix.slotString(path)})
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode {
				walk(c, path)
			}
		}
	}
	walk(m, ix.path[:0])
	return out
}

// slotString is a slot's path as a string. The cards of a list repeat their
// few slots, and every group of the page is evaluated: one string per
// distinct slot, not one per link per group.
func (ix *index) slotString(path []byte) string {
	s, ok := ix.slot[string(path)]
	if !ok {
		s = string(path)
		ix.slot[s] = s
	}
	return s
}

// evaluate reads a group as a result list: the link slot that gives most
// members a distinct URL is the listing link; members whose slot holds two
// listings are containers, not cards. The score adds up how much each card
// looks like a listing.
func (ix *index) evaluate(g *group, page *url.URL) candidate {
	if len(g.members) > maxMembers {
		g = &group{key: g.key, depth: g.depth, members: g.members[:maxMembers]}
	}
	links := make([][]memberLink, len(g.members))
	slotURLs := map[string]map[string]*url.URL{} // slot → its distinct URLs
	headed := map[string]bool{}                  // slot → its link is around or in the card's heading
	seen := map[string]bool{}                    // the slots of one member (one map for all members)
	for i, m := range g.members {
		if ix.feat[m].ad {
			continue // a paid placement: neither a card nor evidence of the list's shape
		}
		links[i] = ix.linksIn(m, page)
		clear(seen)
		for _, l := range links[i] {
			if seen[l.slot] {
				continue
			}
			seen[l.slot] = true
			if slotURLs[l.slot] == nil {
				slotURLs[l.slot] = map[string]*url.URL{}
				headed[l.slot] = aroundHeading(l.node, m)
			}
			slotURLs[l.slot][ix.urlOf(l.url)] = l.url
		}
	}
	slot := bestSlot(slotURLs, headed)
	if slot == "" {
		return candidate{group: g}
	}
	shapes := map[string]bool{}
	for _, u := range slotURLs[slot] {
		shapes[shape(u)] = true
	}
	c := candidate{group: g, cards: make([]card, 0, len(g.members))} // at most one a member
	seenURL := map[string]bool{}
	containers := 0
	for i, m := range g.members {
		first, n := ix.slotLink(links[i], slot)
		if first == nil && len(links[i]) > 0 && links[i][0].node == m && shapes[shape(links[i][0].url)] {
			first = &links[i][0] // the card's own data-href, where the others' link sits inside
		}
		if first == nil {
			continue
		}
		if n > 1 {
			containers++
			continue
		}
		c.cards = append(c.cards, card{node: m, link: first.node, url: first.url})
		if s := ix.urlOf(first.url); !seenURL[s] {
			seenURL[s] = true
			w, evidence := cardWeight(ix.feat[m], ix.idOf(first.url) != "")
			c.plain += w
			if evidence {
				c.score += w
			}
		}
	}
	// Members that are containers of several listings, or parts of one card
	// (an image column and a text column leading to the same listing), mean
	// the cards are a level up or down.
	if dupes := len(c.cards) - len(seenURL); containers*3 > len(c.cards) || dupes*3 > len(c.cards) {
		return candidate{group: g}
	}
	if inChrome(g.members[0]) {
		c.score, c.plain = c.score*0.1, c.plain*0.1
	}
	if secondary(g.members[0]) {
		// Never read as the results on its own (a no-results page showing
		// recommendations has none); the user may still pick it (Groups).
		c.score, c.plain = 0, 0
	}
	return c
}

// slotLink is a member's link at the slot — the first with an id in its URL,
// else the first — and how many listings the slot leads to in the member:
// distinct URLs with an id and of one shape (links without one, such as a
// badge's link to the site's shop, and links of another shape, such as the
// agent's page beside the listing's, do not make a card a container).
func (ix *index) slotLink(links []memberLink, slot string) (*memberLink, int) {
	// A member has few links: slices, not maps (this runs for every member of
	// every group).
	var all []string       // distinct URLs
	var withID [][2]string // distinct URLs with an id, with their shape
	var first, firstID *memberLink
	for k := range links {
		l := &links[k]
		if l.slot != slot {
			continue
		}
		s := ix.urlOf(l.url)
		if !slices.Contains(all, s) {
			all = append(all, s)
		}
		if first == nil {
			first = l
		}
		if ix.idOf(l.url) != "" {
			if u := [2]string{shape(l.url), s}; !slices.Contains(withID, u) {
				withID = append(withID, u)
			}
			if firstID == nil {
				firstID = l
			}
		}
	}
	if firstID != nil {
		n := 0 // the most distinct URLs of one shape
		for _, u := range withID {
			same := 0
			for _, o := range withID {
				if o[0] == u[0] {
					same++
				}
			}
			n = max(n, same)
		}
		return firstID, n
	}
	return first, len(all)
}

// shape is a URL's host and number of path segments: the listings of one
// list share it ("/rostock/kaufen/haus/551203/").
func shape(u *url.URL) string {
	return u.Host + "/" + strconv.Itoa(strings.Count(strings.Trim(u.Path, "/"), "/"))
}

// structure is a short name of the list's place in the page: a hash of its
// group's key (the tags and classes of its parents, the members' tag).
func (c candidate) structure() string {
	if c.group == nil {
		return ""
	}
	return strconv.FormatUint(c.group.key, 36)
}

// maxMembers is the most members of a group read: more than a page's
// listings are ever kept (MaxListings), so a huge page costs what a big one does.
const maxMembers = 2 * MaxListings

// bestSlot is the link position that leads to the most distinct URLs (of
// two alike, the one around or in the heading, then the shorter, then the
// first in order: never the map's order).
func bestSlot(slotURLs map[string]map[string]*url.URL, headed map[string]bool) string {
	best, bestN := "", 0
	for s, urls := range slotURLs {
		n := len(urls)
		if n > bestN || n == bestN && (headed[s] && !headed[best] || headed[s] == headed[best] && (len(s) < len(best) || len(s) == len(best) && s < best)) {
			best, bestN = s, n
		}
	}
	return best
}

// aroundHeading: link a of member m is in a heading or holds one — of a card
// that links to its gallery, its agent and a map too, the listing's link.
func aroundHeading(a, m *html.Node) bool {
	for e := a; e != nil && e != m.Parent; e = e.Parent {
		if isHeading(e) {
			return true
		}
	}
	var holds func(n *html.Node) bool
	holds = func(n *html.Node) bool {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && (isHeading(c) || holds(c)) {
				return true
			}
		}
		return false
	}
	return a != m && holds(a)
}

// cardWeight says how much one card looks like a listing, and whether it
// shows what a listing shows (a price, a size or rooms, a picture) — link
// lists of navigation and SEO pages show none of these.
func cardWeight(f feat, hasID bool) (float64, bool) {
	w := 0.2
	if f.currency {
		w += 1.5
	}
	if f.unit {
		w += 0.5
	}
	if f.image {
		w += 0.5
	}
	if f.heading {
		w += 0.3
	}
	if f.textLen >= 30 {
		w += 0.3
	}
	if hasID {
		w += 0.5
	}
	return w, f.currency || f.unit || f.image
}

// inChrome reports whether n sits in the page's navigation, header or footer.
func inChrome(n *html.Node) bool {
	for p := n; p != nil; p = p.Parent {
		switch p.DataAtom {
		case atom.Nav, atom.Header, atom.Footer:
			return true
		}
		if r := attrOf(p, "role"); r == "navigation" || r == "banner" || r == "contentinfo" || r == "menu" {
			return true
		}
	}
	return false
}

// reSecondary is a heading over a list that is not the search's results.
var reSecondary = regexp.MustCompile(`(?i)ähnliche|similar|empfehl|empfohlen|recommend|you may also|das könnte|weitere angebote|other listings|more from|zuletzt angesehen|recently viewed|in der nähe|nearby`)

// secondary reports a list under a heading that says it is not the results
// ("Ähnliche Angebote", "Weitere Angebote von …", "Recently viewed"): the
// nearest heading before it, up to a few levels out.
func secondary(member *html.Node) bool {
	for p, level := member.Parent, 0; p != nil && level < 4; p, level = p.Parent, level+1 {
		for sib := p.PrevSibling; sib != nil; sib = sib.PrevSibling {
			if sib.Type != html.ElementNode {
				continue
			}
			if isHeading(sib) {
				return reSecondary.MatchString(text(sib))
			}
			break
		}
		for c := p.FirstChild; c != nil && c != member; c = c.NextSibling {
			if c.Type == html.ElementNode && isHeading(c) {
				return reSecondary.MatchString(text(c))
			}
		}
	}
	return false
}

func isHeading(n *html.Node) bool {
	switch n.DataAtom {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		return true
	}
	return false
}

// bestList returns the page's result list, ok false when no group looks like
// one. A list of the given structure (Result.Structure of earlier polls) is
// taken while the page has it and it shows listings.
func bestList(pg *page, structure string) (candidate, bool) {
	page := pg.url
	ix := pg.index()
	groups := ix.groups
	var all []candidate
	// Groups of several members first; groups of one (every element with one
	// child makes one) only when those leave the page without a clear list:
	// a page with one listing, or a learnt list of one.
	for _, single := range []bool{false, true} {
		if single && structure == "" && pickBest(all, func(c candidate) float64 { return c.score }).score >= clearList {
			break
		}
		for _, g := range groups {
			if (len(g.members) == 1) != single || !ix.mayBeList(g) {
				continue
			}
			if c := ix.evaluate(g, page); len(c.cards) > 0 {
				if structure != "" && c.structure() == structure && c.score > 0 {
					return c, true
				}
				all = append(all, c)
			}
		}
	}
	best := pickBest(all, func(c candidate) float64 { return c.score })
	if best.score == 0 {
		best = pickBest(all, func(c candidate) float64 { return c.plain })
	}
	return best, len(best.cards) > 0 && best.plain/float64(len(best.cards)) >= 0.9
}

// clearList is the score of a list that no single card can beat (one card
// that shows a price, a size, a picture and a heading weighs about 3.3).
const clearList = 3.5

// pickBest is the candidate of the highest score; see tieBreak for a tie.
func pickBest(all []candidate, score func(candidate) float64) candidate {
	var best candidate
	for _, c := range all {
		s, b := score(c), score(best)
		if s > b*1.02 || s >= b*0.98 && best.group != nil && len(c.cards) >= len(best.cards) && tieBreak(c, best) {
			best = c
		}
	}
	return best
}

// mayBeList is a cheap test before a group is read: a member has a link.
func (ix *index) mayBeList(g *group) bool {
	return slices.ContainsFunc(g.members, func(m *html.Node) bool { return ix.feat[m].links > 0 })
}

// tieBreak: of two lists that score alike, the outer one (its members are the
// whole cards) — unless both hold one card: then every element around the one
// listing holds it alone, and the innermost that still shows all is its card.
func tieBreak(c, best candidate) bool {
	if len(c.cards) == 1 && len(best.cards) == 1 {
		return c.group.depth > best.group.depth
	}
	return c.group.depth < best.group.depth
}
