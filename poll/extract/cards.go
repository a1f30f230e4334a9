package extract

import (
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// group is a candidate list: children of one parent, of one tag, that contain links.
type group struct {
	parent  *html.Node
	tag     string
	members []childRec
	pre     float64 // cheap score from the walk, to pick which groups to examine
}

// addGroups records, for parent, each tag shared by at least two link-bearing children.
func (p *page) addGroups(parent *html.Node, recs []childRec) {
	var byTag map[string][]childRec
	if len(recs) > 16 {
		byTag = make(map[string][]childRec)
		for _, r := range recs {
			byTag[r.n.Data] = append(byTag[r.n.Data], r)
		}
	}
	for i, r := range recs {
		start := len(p.memberArena)
		if byTag != nil {
			ms := byTag[r.n.Data]
			if len(ms) < 2 || ms[0].n != r.n {
				continue
			}
			p.memberArena = append(p.memberArena, ms...)
		} else {
			dup := false
			for _, q := range recs[:i] {
				if q.n.Data == r.n.Data {
					dup = true
					break
				}
			}
			if dup {
				continue
			}
			n := 0
			for _, q := range recs[i:] {
				if q.n.Data == r.n.Data {
					n++
				}
			}
			if n < 2 {
				continue
			}
			for _, q := range recs[i:] {
				if q.n.Data == r.n.Data {
					p.memberArena = append(p.memberArena, q)
				}
			}
		}
		ms := p.memberArena[start:len(p.memberArena):len(p.memberArena)]
		g := p.newGroup()
		g.parent, g.tag, g.members = parent, r.n.Data, ms
		text := 0
		for _, m := range ms {
			g.pre += float64(min(m.elems, 40))
			text += m.textLen
		}
		if text/len(ms) < 15 {
			g.pre *= 0.2
		}
		p.groups = append(p.groups, g)
	}
}

// newGroup returns a zero group from the page's arena.
func (p *page) newGroup() *group {
	if len(p.groupArena) == cap(p.groupArena) {
		// A new block: the groups handed out keep the old one alive.
		p.groupArena = make([]group, 0, max(32, 2*cap(p.groupArena)))
	}
	p.groupArena = p.groupArena[:len(p.groupArena)+1]
	return &p.groupArena[len(p.groupArena)-1]
}

// cardCandidates is how many groups (best by the walk's cheap score) are examined.
const cardCandidates = 8

// candidate is a group examined: its members with their listing link, scored.
type candidate struct {
	members []candMember
	score   float64
}

type candMember struct {
	rec    childRec
	anchor int // index of the member's listing link in page.anchors
}

// cards runs the repeated-card heuristic: of the groups of sibling elements, the
// one whose members each link to a distinct URL of one path pattern, scored by
// size and by how listing-like its members are (a price, an image, a heading).
// Only the winner's cards are read in full.
func (p *page) cards() []Listing {
	ls, _ := p.cardsWanting(wantAll)
	return ls
}

// cardsWanting is cards reading only the fields in want besides the id,
// which decides which cards count (buildCards, which reads a price too when
// that decides), so the same cards come out as with wantAll; c is the
// winning candidate, for buildCards to read in full when the other fields
// turn out to be needed after all.
func (p *page) cardsWanting(want cardWant) (ls []Listing, c candidate) {
	if len(p.groups) == 0 {
		return nil, candidate{}
	}
	return p.bestCards(p.cardGroups(), want|wantID)
}

// cardGroups are the groups cards examines: the walk's groups and the merged
// grids, the cardCandidates best by their cheap score.
func (p *page) cardGroups() []*group {
	clear(p.cardGroupList) // (the last list, whole: see page.reset)
	gs := append(append(p.cardGroupList[:0], p.groups...), p.gridGroups()...)
	p.cardGroupList = gs
	slices.SortStableFunc(gs, func(a, b *group) int {
		switch {
		case a.pre > b.pre:
			return -1
		case a.pre < b.pre:
			return 1
		}
		return 0
	})
	if len(gs) > cardCandidates {
		gs = gs[:cardCandidates]
	}
	return gs
}

// bestCards is what evaluating every group of gs, sorting the candidates by
// score (stably: on a tie, the earlier group first) and building them in that
// order until one gives two listings returns, without evaluating the groups
// that cannot come first: a group's score is at most maxScore(g), so once a
// candidate already evaluated is ahead of every bound still open, it is built
// next, whatever the remaining groups score. (On a grid laid out in rows, the
// merged grid decides before its rows are looked at.)
func (p *page) bestCards(gs []*group, want cardWant) ([]Listing, candidate) {
	// Evaluation order: highest bound first (on a tie, the earlier group).
	order := p.bestOrder[:0]
	for i := range gs {
		order = append(order, i)
	}
	done := p.bestDone[:0]
	defer func() {
		clear(done)
		p.bestOrder, p.bestDone = order[:0], done[:0]
	}()
	slices.SortStableFunc(order, func(a, b int) int {
		switch ua, ub := maxScore(gs[a]), maxScore(gs[b]); {
		case ua > ub:
			return -1
		case ua < ub:
			return 1
		}
		return 0
	})
	next := 0
	for {
		// The candidate that sorts first among those evaluated and not yet built.
		best := -1
		for i := range done {
			if done[i].failed {
				continue
			}
			if best < 0 || ahead(done[i].c.score, done[i].idx, done[best].c.score, done[best].idx) {
				best = i
			}
		}
		// Can a group not evaluated yet sort before it? Then evaluate one.
		if next < len(order) && (best < 0 || !ahead(done[best].c.score, done[best].idx, maxScore(gs[order[next]]), order[next])) {
			// (order is by bound, then index: when the best is ahead of the
			// next group's bound, it is ahead of every open group's.)
			gi := order[next]
			next++
			if c := p.evalGroup(gs[gi]); c.score > 0 {
				done = append(done, evaluated{c: c, idx: gi})
			}
			continue
		}
		if best < 0 {
			return nil, candidate{}
		}
		if ls := p.buildCards(done[best].c, want); len(ls) >= 2 {
			return ls, done[best].c
		}
		done[best].failed = true
	}
}

// evaluated is a group bestCards has evaluated: its candidate, its index in
// the groups, and whether building it failed.
type evaluated struct {
	c      candidate
	idx    int
	failed bool
}

// ahead reports whether a candidate with score sa from group ia sorts before
// one with score sb from group ib (higher score first, then the earlier group).
func ahead(sa float64, ia int, sb float64, ib int) bool {
	return sa > sb || sa == sb && ia < ib
}

// maxScore bounds evalGroup's score for g: at most one candidate member per
// group member, each worth at most 1 + 2 (price) + 0.5 (image) + 1 (heading).
func maxScore(g *group) float64 {
	return 4.5 * float64(len(g.members))
}

// gridGroups merges the cards of a grid laid out in rows (div.row > div.col
// ×3): for a group whose members each hold a group of one tag, one group of
// all those children, in document order.
func (p *page) gridGroups() []*group {
	if len(p.groups) <= 32 && !p.anyGridHolder() {
		return nil // what mergeGrids finds then, without its maps
	}
	return p.mergeGrids()
}

// mergeGrids is gridGroups' work: for each group, the groups its members hold,
// merged by tag. (The list it returns is the page's, until the next call.)
func (p *page) mergeGrids() []*group {
	var byParent map[*html.Node][]*group
	if len(p.groups) > 32 { // else looked up along the list (heldGroups)
		byParent = make(map[*html.Node][]*group, len(p.groups))
		for _, g := range p.groups {
			byParent[g.parent] = append(byParent[g.parent], g)
		}
	}
	clear(p.mergedScratch)
	out := p.mergedScratch[:0]
	for _, g := range p.groups {
		if len(g.members) < 2 {
			continue
		}
		// A merged group needs two members that each hold a group.
		holders := 0
		for _, m := range g.members {
			if len(p.heldGroups(m.n, byParent)) > 0 {
				holders++
			}
		}
		if holders < 2 {
			continue
		}
		// The tags of the groups held, each with how many there are, by tag.
		clear(p.tagScratch)
		tags := p.tagScratch[:0]
		for _, m := range g.members {
		held:
			for _, cg := range p.heldGroups(m.n, byParent) {
				for k := range tags {
					if tags[k].tag == cg.tag {
						tags[k].n++
						continue held
					}
				}
				tags = append(tags, tagCount{cg.tag, 1})
			}
		}
		slices.SortFunc(tags, func(a, b tagCount) int { return strings.Compare(a.tag, b.tag) })
		p.tagScratch = tags
		for _, tc := range tags {
			if tc.n < 2 {
				continue
			}
			tag := tc.tag
			merged := p.newGroup()
			merged.parent, merged.tag = g.parent, tag
			// The members go to the end of the arena (past every list
			// handed out, which the appends leave alone).
			start := len(p.memberArena)
			for _, m := range g.members {
				found := false
				for _, cg := range p.heldGroups(m.n, byParent) {
					if cg.tag == tag {
						p.memberArena = append(p.memberArena, cg.members...)
						merged.pre += cg.pre
						found = true
					}
				}
				if !found { // a last row with a single card
					for c := m.n.FirstChild; c != nil; c = c.NextSibling {
						if c.Type == html.ElementNode && c.Data == tag {
							if rec, ok := p.childRecOf(c, m); ok {
								p.memberArena = append(p.memberArena, rec)
							}
						}
					}
				}
			}
			if end := len(p.memberArena); end > start {
				merged.members = p.memberArena[start:end:end]
			}
			out = append(out, merged)
		}
	}
	p.mergedScratch = out
	return out
}

// tagCount is a tag with a count (mergeGrids).
type tagCount struct {
	tag string
	n   int
}

// heldGroups is byParent[n], the groups whose parent is n in p.groups' order;
// without byParent, the run of them in p.groups (one addGroups call makes all
// the groups of a parent, one after the other).
func (p *page) heldGroups(n *html.Node, byParent map[*html.Node][]*group) []*group {
	if byParent != nil {
		return byParent[n]
	}
	for i, g := range p.groups {
		if g.parent == n {
			j := i + 1
			for j < len(p.groups) && p.groups[j].parent == n {
				j++
			}
			return p.groups[i:j]
		}
	}
	return nil
}

// anyGridHolder reports whether a group has two members that each are the
// parent of a group (gridGroups merges nothing otherwise), by looking along
// the list of groups.
func (p *page) anyGridHolder() bool {
	isParent := func(n *html.Node) bool {
		for _, g := range p.groups {
			if g.parent == n {
				return true
			}
		}
		return false
	}
	for _, g := range p.groups {
		if len(g.members) < 2 {
			continue
		}
		holders := 0
		for _, m := range g.members {
			if isParent(m.n) {
				if holders++; holders >= 2 {
					return true
				}
			}
		}
	}
	return false
}

// childRecOf summarises n, inside member m of a group, like the walk does
// for group members; false if n holds no link.
func (p *page) childRecOf(n *html.Node, m childRec) (childRec, bool) {
	rec := childRec{n: n, firstAnchor: -1}
	// n's anchors are among m's: those of a subtree are one run of p.anchors
	// (and none is inside what the walks skip, scripts, styles, templates).
	for i := m.firstAnchor; i < m.firstAnchor+m.anchors; i++ {
		if i >= 0 && within(p.anchors[i].n, n) {
			if rec.firstAnchor < 0 {
				rec.firstAnchor = i
			}
			rec.anchors++
		}
	}
	rec.count(n)
	return rec, rec.anchors > 0
}

// count adds x's elements and text length to rec, as the walk counts them.
func (rec *childRec) count(x *html.Node) {
	switch x.Type {
	case html.TextNode:
		rec.textLen += trimmedLen(x.Data)
		return
	case html.ElementNode:
		if x.DataAtom == atom.Script || x.DataAtom == atom.Style || x.DataAtom == atom.Template || x.DataAtom == atom.Noscript {
			return
		}
		rec.elems++
	}
	for c := x.FirstChild; c != nil; c = c.NextSibling {
		rec.count(c)
	}
}

// evalGroup picks the group's dominant link pattern and scores the group from
// cheap features of its members.
func (p *page) evalGroup(g *group) candidate {
	if cannotScore(g) {
		return candidate{} // before resolving its links (the most of evalGroup's cost)
	}
	ev := &p.ev
	ev.reset()
	// Each member's distinct link patterns, with the first anchor of each
	// (ev.pats[lo:hi], ev.firsts[lo:hi]).
	type memberLinks struct {
		rec    childRec
		lo, hi int
	}
	ms := ev.members[:0]
	count := &ev.count
	for _, m := range g.members {
		ml := memberLinks{rec: m, lo: len(ev.pats)}
		end := min(m.firstAnchor+m.anchors, m.firstAnchor+60)
		for i := m.firstAnchor; i < end; i++ {
			a := p.link(i)
			if !a.ok || p.selfLink(a.u) {
				continue
			}
			pat := p.patternAt(i)
			if slices.Contains(ev.pats[ml.lo:], pat) {
				continue
			}
			ev.pats = append(ev.pats, pat)
			ev.firsts = append(ev.firsts, i)
			count.inc(pat)
		}
		ml.hi = len(ev.pats)
		ms = append(ms, memberLinks(ml))
	}
	defer func() {
		clear(ms)
		ev.members = ms[:0]
	}()
	// The pattern most members link to; on a tie, the one with more distinct
	// URLs (a seller's profile repeats, listings do not), then more URLs with an
	// id, then more links in headings, then more links with a text of some length.
	bestPat, bestN := "", 0
	var bestKey [3]int
	for oi, pat := range count.keys {
		n := count.n[oi]
		if n < bestN {
			continue
		}
		if len(count.keys) == 1 {
			bestPat, bestN = pat, n // (no other pattern to break a tie with)
			break
		}
		urls := &ev.urls
		urls.reset()
		var key [3]int // distinct, with id, title-like (heading 2, long text 1)
		for _, ml := range ms {
			if k := slices.Index(ev.pats[ml.lo:ml.hi], pat); k >= 0 {
				i := ev.firsts[ml.lo+k]
				a := p.link(i)
				urls.add(a.canon)
				if p.idOf(i) != "" {
					key[1]++
				}
				key[2] += p.titleLink(a.n)
			}
		}
		key[0] = urls.len()
		if n > bestN || cmpKey(key, bestKey) > 0 {
			bestPat, bestN, bestKey = pat, n, key
		}
	}
	// Listing URLs whose first segment varies ("/berlin/wohnung-1.html",
	// "/potsdam/haus-2.html"): a coarse pattern without it, when it gathers
	// clearly more members.
	// (Each member counts once for a coarse pattern at most: with fewer
	// than bestN+2 members, none can gather enough, and none is made.)
	coarseCount := &ev.coarse
	if len(ms) >= bestN+2 {
		for _, ml := range ms {
			seenC := ev.seenC[:0]
			for k := ml.lo; k < ml.hi; k++ {
				cp := p.coarseOf(ev.firsts[k])
				if slices.Contains(seenC, cp) {
					continue
				}
				seenC = append(seenC, cp)
				coarseCount.inc(cp)
			}
			ev.seenC = seenC[:0]
		}
	}
	useCoarse := false
	for ci, cp := range coarseCount.keys {
		if n := coarseCount.n[ci]; n >= bestN+2 && n*10 >= bestN*13 {
			bestPat, bestN, useCoarse = cp, n, true
		}
	}
	if bestN < 2 {
		return candidate{}
	}
	// The candidate's members go to the end of the page's arena (past those
	// of the candidates evaluated before, which stay in use); a group that
	// fails gives its part back.
	var c candidate
	start := len(p.candArena)
	seen := &ev.urls
	seen.reset()
	prices, imgs, heads, textTotal := 0, 0, 0, 0
	multi := 0 // members holding several listing URLs: rows of a grid, not cards
	for _, ml := range ms {
		k := -1
		for j := ml.lo; j < ml.hi; j++ {
			if p.patternOf(ev.firsts[j], useCoarse) == bestPat {
				k = j
				break
			}
		}
		if k < 0 {
			continue
		}
		ai := ev.firsts[k]
		a := p.link(ai)
		if seen.has(a.canon) || p.adMarked(ml.rec.n) || p.adMarked(a.n) || p.adMarked(p.anchors[ml.rec.firstAnchor].n) {
			continue
		}
		if p.distinctURLs(ml.rec, bestPat, useCoarse, p.idOf(ai) != "") >= 2 {
			multi++
		}
		seen.add(a.canon)
		p.candArena = append(p.candArena, candMember{rec: ml.rec, anchor: ai})
		c.members = p.candArena[start:len(p.candArena):len(p.candArena)]
		f := quickFeatures(ml.rec.n)
		if f.price {
			prices++
		}
		if f.img {
			imgs++
		}
		if f.heading || textAtLeast(a.n, 10) {
			heads++
		}
		textTotal += ml.rec.textLen
	}
	n := len(c.members)
	if n < 2 || multi*2 > n {
		clear(p.candArena[start:])
		p.candArena = p.candArena[:start]
		return candidate{}
	}
	priceFrac := float64(prices) / float64(n)
	imgFrac := float64(imgs) / float64(n)
	avgText := textTotal / n
	if priceFrac < 0.3 && (n < 4 || avgText < 40 || (imgFrac < 0.5 && heads < n/2)) {
		clear(p.candArena[start:])
		p.candArena = p.candArena[:start]
		return candidate{} // a menu or a link list, not listings
	}
	c.score = float64(n) * (1 + 2*priceFrac + 0.5*imgFrac + float64(heads)/float64(n))
	if avgText < 20 {
		c.score *= 0.3
	}
	if asideList(g.parent) {
		c.score *= 0.3 // "Ähnliche Angebote", "Weitere Angebote von …": not the results
	}
	return c
}

// evalScratch is evalGroup's working space, kept on the page between groups.
type evalScratch struct {
	pats    []string
	firsts  []int
	members []struct {
		rec    childRec
		lo, hi int
	}
	count, coarse strTally
	urls          strSet
	seenC         []string
}

func (ev *evalScratch) reset() {
	clear(ev.pats)
	ev.pats, ev.firsts = ev.pats[:0], ev.firsts[:0]
	ev.count.reset()
	ev.coarse.reset()
	ev.urls.reset()
	clear(ev.seenC[:cap(ev.seenC)])
}

// strTally counts strings, remembering the order they first came in; a list
// while short, with a map index once longer.
type strTally struct {
	keys []string
	n    []int
	idx  map[string]int
}

func (t *strTally) reset() {
	clear(t.keys)
	t.keys, t.n, t.idx = t.keys[:0], t.n[:0], nil
}

func (t *strTally) inc(k string) {
	if t.idx != nil {
		if i, ok := t.idx[k]; ok {
			t.n[i]++
			return
		}
	} else {
		for i, x := range t.keys {
			if x == k {
				t.n[i]++
				return
			}
		}
	}
	t.keys = append(t.keys, k)
	t.n = append(t.n, 1)
	if t.idx != nil {
		t.idx[k] = len(t.keys) - 1
	} else if len(t.keys) > 16 {
		t.idx = make(map[string]int, 2*len(t.keys))
		for i, x := range t.keys {
			t.idx[x] = i
		}
	}
}

// strSet is a set of strings: a list while short, a map once longer.
type strSet struct {
	list []string
	m    map[string]struct{}
}

func (s *strSet) reset() {
	clear(s.list)
	s.list, s.m = s.list[:0], nil
}

func (s *strSet) has(k string) bool {
	if s.m != nil {
		_, ok := s.m[k]
		return ok
	}
	return slices.Contains(s.list, k)
}

// add adds k and reports whether it was not there.
func (s *strSet) add(k string) bool {
	if s.has(k) {
		return false
	}
	if s.m != nil {
		s.m[k] = struct{}{}
		return true
	}
	s.list = append(s.list, k)
	if len(s.list) > 16 {
		s.m = make(map[string]struct{}, 2*len(s.list))
		for _, x := range s.list {
			s.m[x] = struct{}{}
		}
	}
	return true
}

func (s *strSet) len() int {
	if s.m != nil {
		return len(s.m)
	}
	return len(s.list)
}

// patternOf is anchor i's link pattern, or its coarse form (see coarse).
func (p *page) patternOf(i int, useCoarse bool) string {
	if useCoarse {
		return p.coarseOf(i)
	}
	return p.patternAt(i)
}

// coarseOf is coarse(anchor i's pattern), computed once for each pattern
// (the links of a list share a few).
func (p *page) coarseOf(i int) string {
	a := &p.anchors[i]
	if !a.coarseDone {
		a.coarse, a.coarseDone = p.coarseMemo.of(p.patternAt(i)), true
	}
	return a.coarse
}

// coarseMemo remembers coarse of the last few patterns.
type coarseMemo struct {
	pats, coarse [16]string
	n            int // entries used; the oldest are replaced when full
}

func (m *coarseMemo) of(pat string) string {
	for k := range min(m.n, len(m.pats)) {
		if m.pats[k] == pat {
			return m.coarse[k]
		}
	}
	c := coarse(pat)
	k := m.n % len(m.pats)
	m.pats[k], m.coarse[k] = pat, c
	m.n++
	return c
}

// idOf is idFromURL of resolved anchor i's URL, computed once.
func (p *page) idOf(i int) string {
	return p.anchors[i].urlID()
}

// urlID is idFromURL(a.u), computed once (the card search asks first, then
// the card built asks again); a.u must be set.
func (a *anchor) urlID() string {
	if !a.idDone {
		a.id, a.idDone = idFromURL(a.u), true
	}
	return a.id
}

// cannotScore reports a group that evalGroup rejects whatever its links are:
// fewer than two members, or members that all have under 40 characters of text
// (so any subset of them averages under 40) and none of which shows a price (so
// the share of prices is 0): evalGroup's "a menu or a link list" rule. Link
// lists in navigation and footers are most of the groups examined, and
// resolving their links was most of the heuristic's cost.
func cannotScore(g *group) bool {
	if len(g.members) < 2 {
		return true
	}
	for _, m := range g.members {
		if m.textLen >= 40 {
			return false
		}
	}
	for _, m := range g.members {
		if quickFeatures(m.n).price {
			return false
		}
	}
	return true
}

// asidePhrases head lists that are not the search's results.
var asidePhrases = []string{"ähnliche", "weitere angebote", "auch interessieren", "zuletzt angesehen", "empfehlungen",
	"empfohlen", "recommended", "similar", "you may also like", "recently viewed", "top-angebote", "gesponsert",
	"sponsored", "partnerangebote", "angebote unserer partner"}

// asideList reports whether the list under parent is headed by a heading that
// marks it as suggestions or ads (looked for just before it, a few levels up).
func asideList(parent *html.Node) bool {
	for x, up := parent, 0; x != nil && up < 3; x, up = x.Parent, up+1 {
		for s, k := prevElement(x), 0; s != nil && k < 2; s, k = prevElement(s), k+1 {
			heading := false
			switch s.DataAtom {
			case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
				heading = true
			}
			if !heading {
				continue
			}
			if lowerContains(text(s), asidePhrases...) {
				return true
			}
		}
	}
	return false
}

func cmpKey(a, b [3]int) int {
	for i := range a {
		if a[i] != b[i] {
			return a[i] - b[i]
		}
	}
	return 0
}

// titleLink rates how much a link looks like a card's title: 2 inside a
// heading, 1 with a text of some length, else 0.
func (p *page) titleLink(a *html.Node) int {
up:
	for x := a; x != nil && x.Type == html.ElementNode; x = x.Parent {
		switch x.DataAtom {
		case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
			return 2
		case atom.Li, atom.Article, atom.Section, atom.Tr, atom.Body:
			break up // the card's edge
		}
	}
	if textAtLeast(a, 15) {
		return 1
	}
	return 0
}

// coarse drops the first path segment from a pattern (see pathPattern).
func coarse(pat string) string {
	// The fields of strings.SplitN(pat, "|", 4).
	i1 := strings.IndexByte(pat, '|')
	if i1 < 0 {
		return pat
	}
	host, r1 := pat[:i1], pat[i1+1:]
	i2 := strings.IndexByte(r1, '|')
	if i2 < 0 {
		return pat
	}
	n, r2 := r1[:i2], r1[i2+1:]
	if len(n) != 1 || n < "2" {
		return pat
	}
	rest, last, four := r2, "", false
	if i3 := strings.IndexByte(r2, '|'); i3 >= 0 {
		rest, last, four = r2[:i3], r2[i3+1:], true
	}
	// host|n|first<ext>... → host|n|*<ext>...
	if i := strings.IndexAny(rest, ".?/"); i >= 0 {
		rest = rest[i:]
	} else {
		rest = ""
	}
	if four {
		return host + "|" + n + "|*" + rest + "|" + last
	}
	return host + "|" + n + "|*" + rest
}

// distinctURLs counts the distinct URLs of pattern pat (coarse patterns when
// useCoarse) among a member's links (only those with an id in the URL when
// withID: a card's listing link and its "verified" badge link are not two listings).
func (p *page) distinctURLs(m childRec, pat string, useCoarse, withID bool) int {
	var seen [2]string
	n := 0
	end := min(m.firstAnchor+m.anchors, m.firstAnchor+60)
	for i := m.firstAnchor; i < end; i++ {
		a := p.link(i)
		if a.ok && p.patternOf(i, useCoarse) == pat && !slices.Contains(seen[:n], a.canon) && (!withID || p.idOf(i) != "") {
			seen[n] = a.canon
			n++
			if n >= 2 {
				break
			}
		}
	}
	return n
}

// features are cheap signs that an element is a listing card.
type features struct{ price, img, heading bool }

// quickFeatures walks n once: a currency sign near a digit, an image, a heading.
func quickFeatures(n *html.Node) features {
	var f features
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch c.Type {
			case html.TextNode:
				if !f.price && hasDigit(c.Data) && currencyOf(c.Data) != "" {
					f.price = true
				}
			case html.ElementNode:
				switch c.DataAtom {
				case atom.Script, atom.Style, atom.Template:
					continue
				case atom.Img, atom.Picture:
					f.img = true
				case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
					f.heading = true
				}
				walk(c)
			}
		}
	}
	walk(n)
	if n.DataAtom == atom.Img {
		f.img = true
	}
	return f
}

// buildCards reads the candidate's cards: the fields in want, which must hold
// wantID (wantAll: in full). Listings of one list either all carry the site's
// id or none do: when most do, the few without one are promo and info cards
// that share the list (dropped; with a narrow majority, only those that show
// no price: then the price of a card without an id is read even when want
// leaves it out, and kept).
func (p *page) buildCards(c candidate, want cardWant) []Listing {
	out := make([]Listing, 0, len(c.members))
	for _, m := range c.members {
		out = append(out, p.cardFields(m.rec.n, p.link(m.anchor), want))
	}
	withID := 0
	for _, l := range out {
		if l.ID != "" {
			withID++
		}
	}
	if withID < len(out) && withID*2 > len(out) {
		strict := withID*10 >= len(out)*7
		kept := out[:0]
		for i, l := range out {
			if !strict && l.ID == "" && want&wantPrice == 0 {
				m := c.members[i]
				l.Price = p.cardFields(m.rec.n, p.link(m.anchor), wantPrice).Price
			}
			if l.ID != "" || !strict && l.Price != "" {
				kept = append(kept, l)
			}
		}
		out = kept
	}
	return out
}

// selfLink reports whether u is the page itself or another page of the same
// search (pagination, sorting): same path, and no listing id in the query.
func (p *page) selfLink(u *url.URL) bool {
	if !strings.EqualFold(u.Host, p.url.Host) || u.Path != p.url.Path {
		return false
	}
	if u.RawQuery == "" {
		return true
	}
	q := newQuery(u.RawQuery)
	for _, k := range idQueryKeys {
		if q.get(k) != "" {
			return false
		}
	}
	return true
}

// adMarked reports whether a card or link is marked by the site as an ad or a
// paid placement outside the results (kleinanzeigen TOP ads, wg-gesucht premium ads).
func adMarked(n *html.Node) bool {
	return adMarkedBy(n, adClass)
}

// adMarkedBy is adMarked with class, which tells whether a class attribute
// marks an ad (adClass, or a memo of it).
func adMarkedBy(n *html.Node, class func(string) bool) bool {
	for _, a := range n.Attr {
		switch {
		case a.Key == "class":
			if class(a.Val) {
				return true
			}
		case strings.HasPrefix(a.Key, "data-") && (strings.Contains(a.Key, "campaign") || strings.Contains(a.Key, "ad-type") || strings.Contains(a.Key, "ad_type")):
			if lowerContains(a.Val, "ads", "sponsor") {
				return true
			}
		}
	}
	return false
}

// adClass reports whether a class attribute marks an ad: it mentions
// adClassWords (in any case).
func adClass(cls string) bool {
	// One pass, looking only for the words that start with the letter at
	// hand (the cards' class attributes, often long and in mixed case, went
	// through lowerContains once for each word).
	for i := 0; i < len(cls); i++ {
		if cls[i] >= utf8.RuneSelf {
			return lowerContains(cls, adClassWords...)
		}
	}
	for i := 0; i < len(cls); i++ {
		rest := cls[i:]
		switch lowerASCII(cls[i]) {
		case 't':
			if hasPrefixFold(rest, "topad") || hasPrefixFold(rest, "top-ad") {
				return true
			}
		case 'a':
			if hasPrefixFold(rest, "adslot") || hasPrefixFold(rest, "ad-slot") || hasPrefixFold(rest, "advert") {
				return true
			}
		case 'p':
			if hasPrefixFold(rest, "premium_sticky") || hasPrefixFold(rest, "partner-ad") || hasPrefixFold(rest, "partner_ad") {
				return true
			}
		case 's':
			if hasPrefixFold(rest, "sponsored-ad") {
				return true
			}
		}
	}
	return false
}

// adClassWords are what adClass looks for.
var adClassWords = []string{"topad", "top-ad", "adslot", "ad-slot", "advert", "premium_sticky", "sponsored-ad", "partner-ad", "partner_ad"}

// hasPrefixFold reports whether ASCII s starts with lower-case w in any case.
func hasPrefixFold(s, w string) bool {
	if len(s) < len(w) {
		return false
	}
	for j := 0; j < len(w); j++ {
		if lowerASCII(s[j]) != w[j] {
			return false
		}
	}
	return true
}

// adMarked is adMarked(n), with what class attributes say remembered (the
// card search asks of every member of every group examined, and the cards of
// a list share their classes).
func (p *page) adMarked(n *html.Node) bool {
	return adMarkedBy(n, p.adClassOf)
}

func (p *page) adClassOf(cls string) bool {
	m := &p.adClasses
	if cls == "" {
		return false // (adClass(""))
	}
	k := (len(cls)*7 + int(cls[0]) + int(cls[len(cls)-1])*3) % len(m.cls)
	if !m.set[k] || m.cls[k] != cls {
		m.cls[k], m.is[k], m.set[k] = cls, adClass(cls), true
	}
	return m.is[k]
}

// adClassMemo remembers adClass of the class attributes seen last, by a
// hash of their length and ends.
type adClassMemo struct {
	cls     [8]string
	is, set [8]bool
}

// promotedMarked reports whether a card is marked as a highlighted (paid) result.
func promotedMarked(n *html.Node) bool {
	return lowerContains(attr(n, "class"), "highlight", "premium", "featured", "promoted", "sponsored", "is-top", "top-listing", "spotlight", "boosted")
}

// promoted is promotedMarked(card), remembered for the last class attribute
// (the cards of a list share theirs).
func (p *page) promoted(card *html.Node) bool {
	cls := attr(card, "class")
	if cls != p.promotedCls || !p.promotedDone {
		p.promotedCls, p.promotedDone, p.promotedWas = cls, true, promotedMarked(card)
	}
	return p.promotedWas
}

// cardScan is what one walk over a card collects.
type cardScan struct {
	heading, titleEl *html.Node
	onRequest        *html.Node   // short text saying the price is on request
	priceEls         []*html.Node // class mentions a price, or itemprop=price
	textEls          []*html.Node // parents of text with digits, in order
	locEl, locIcon   *html.Node
	img              string
	noImage          bool // the image is not wanted: not looked for
	idAttrs          []string
	p                *page
	// text() of this card's elements, once each: a few in a list, more in a map.
	textList [8]nodeText
	nTexts   int
	texts    map[*html.Node]string
	// long is the last element shortText found a text of longAtLeast
	// bytes or more in (not read in full).
	long        *html.Node
	longAtLeast int
}

type nodeText struct {
	n *html.Node
	t string
}

// text is text(n), remembered for the card.
func (s *cardScan) text(n *html.Node) string {
	if n == nil {
		return ""
	}
	for i := range s.textList[:s.nTexts] {
		if s.textList[i].n == n {
			return s.textList[i].t
		}
	}
	if t, ok := s.texts[n]; ok {
		return t
	}
	t := s.p.textOf(n)
	if s.nTexts < len(s.textList) {
		s.textList[s.nTexts] = nodeText{n, t}
		s.nTexts++
		return t
	}
	if s.texts == nil {
		s.texts = make(map[*html.Node]string, 16)
	}
	s.texts[n] = t
	return t
}

// shortText is s.text(n) when it is shorter than k bytes, else false; a text
// not read yet is only read as far as needed to tell (a row or a whole card
// is not).
func (s *cardScan) shortText(n *html.Node, k int) (string, bool) {
	for i := range s.textList[:s.nTexts] {
		if s.textList[i].n == n {
			return s.textList[i].t, len(s.textList[i].t) < k
		}
	}
	if n == s.long && k <= s.longAtLeast {
		return "", false // (the card's texts ask about one parent in turn)
	}
	if textAtLeast(n, k) {
		if n != s.long || k > s.longAtLeast {
			s.long, s.longAtLeast = n, k
		}
		return "", false
	}
	return s.text(n), true
}

func (s *cardScan) scan(n *html.Node) {
	if n.Type != html.ElementNode {
		return
	}
	if n.DataAtom == atom.Script || n.DataAtom == atom.Style || n.DataAtom == atom.Template || n.DataAtom == atom.Noscript {
		return
	}
	// The attributes in one pass: class and itemprop (the first of each, as
	// attr finds them), test hooks, ids.
	// Test hooks name things where classes are hashed: data-testid="cardmfe-price-testid".
	// (No word looked for in them has a space, so each value is searched on its own.)
	var rawCls, ip string
	var hasCls, hasIP, tidTitle, tidPrice, tidLoc bool
	for _, a := range n.Attr {
		switch a.Key {
		case "class":
			if !hasCls {
				rawCls, hasCls = a.Val, true
			}
			continue
		case "itemprop":
			if !hasIP {
				ip, hasIP = a.Val, true
			}
			continue
		case "data-testid", "data-test", "data-test-id", "data-qa", "data-cy", "data-e2e":
			tidTitle = tidTitle || lowerContains(a.Val, "title", "headline")
			tidPrice = tidPrice || lowerContains(a.Val, "price", "preis")
			tidLoc = tidLoc || lowerContains(a.Val, "address", "location")
			continue
		}
		if idAttr(a) {
			s.idAttrs = append(s.idAttrs, a.Val)
		}
	}
	switch n.DataAtom {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		if s.heading == nil && !skipped(n) {
			if s.text(n) != "" {
				s.heading = n
			}
		}
	case atom.Img:
		if s.img == "" && !s.noImage {
			s.img = s.p.imageOf(n)
		}
	}
	cf := s.p.classFlags.of(rawCls)
	if s.titleEl == nil && (ip == "name" || cf&clsTitle != 0 || tidTitle) && !skipped(n) {
		if t := s.text(n); t != "" && len(t) < 300 {
			s.titleEl = n
		}
	}
	if ip == "price" || cf&clsPrice != 0 || tidPrice {
		s.priceEls = append(s.priceEls, n)
	}
	if s.locEl == nil && (ip == "address" || ip == "addressLocality" || cf&clsLocation != 0 || tidLoc) && cf&clsPin == 0 {
		if t := s.text(n); t != "" && len(t) <= 150 {
			s.locEl = n
		}
	}
	if s.locIcon == nil && cf&clsIcon != 0 {
		if s.text(n) == "" {
			s.locIcon = n
		}
	}
	if skipped(n) {
		return
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode {
			digit := hasDigit(c.Data)
			if s.onRequest == nil && len(c.Data) < 80 && !digit && onRequest(c.Data) {
				s.onRequest = n
			}
			if digit && (len(s.textEls) == 0 || s.textEls[len(s.textEls)-1] != n) {
				s.textEls = append(s.textEls, n)
			}
			continue
		}
		s.scan(c)
	}
}

// What cardScan.scan looks for in a (lower-case) class attribute.
const (
	clsTitle    = 1 << iota // a word "title" or "headline" (containsWord)
	clsPrice                // mentions "price" or "preis"
	clsLocation             // mentions "address", "location", "locality", "adresse" or "standort"
	clsPin                  // mentions "pin"
	clsIcon                 // mentions "pin", "marker" or "location", and not "spinner"
)

// classFlagsMemo remembers classFlagsOf of the class attributes seen last
// (lower-cased), kept as the page writes them, by a hash of their length and
// ends (the cards of a list repeat theirs; hashed CSS-module classes have
// capitals, lowered once per page).
type classFlagsMemo struct {
	cls   [32]string
	flags [32]uint8
	used  bool // something was stored (page.reset clears it then only)
}

func (m *classFlagsMemo) of(cls string) uint8 {
	if cls == "" {
		return 0
	}
	k := (len(cls)*7 + int(cls[0]) + int(cls[len(cls)-1])*3) % len(m.cls)
	if m.cls[k] == cls {
		return m.flags[k]
	}
	var buf [32]byte // (most class attributes: lowered on the stack)
	b := buf[:0]
	if len(cls) <= len(buf) {
		for i := 0; i < len(cls); i++ {
			c := cls[i]
			if c >= utf8.RuneSelf {
				b = nil
				break
			}
			b = append(b, lowerASCII(c))
		}
	}
	if b == nil || len(cls) > len(buf) {
		b = appendLower(buf[:0], cls)
	}
	f := classFlagsOf(string(b))
	m.cls[k], m.flags[k], m.used = cls, f, true
	return f
}

// classFlagsOf is what cardScan.scan looks for in cls, in one pass (most class
// attributes mention none of the words; TestMatchersMatchWhatTheyReplace holds
// it to the strings.Contains tests it replaces).
func classFlagsOf(cls string) uint8 {
	var title, headline, price, preis, address, adresse, location, locality, standort, pin, marker, spinner bool
	for i := 0; i < len(cls); i++ {
		rest := cls[i:]
		switch cls[i] {
		case 't':
			title = title || strings.HasPrefix(rest, "title")
		case 'h':
			headline = headline || strings.HasPrefix(rest, "headline")
		case 'p':
			price = price || strings.HasPrefix(rest, "price")
			preis = preis || strings.HasPrefix(rest, "preis")
			pin = pin || strings.HasPrefix(rest, "pin")
		case 'a':
			address = address || strings.HasPrefix(rest, "address")
			adresse = adresse || strings.HasPrefix(rest, "adresse")
		case 'l':
			location = location || strings.HasPrefix(rest, "location")
			locality = locality || strings.HasPrefix(rest, "locality")
		case 's':
			standort = standort || strings.HasPrefix(rest, "standort")
			spinner = spinner || strings.HasPrefix(rest, "spinner")
		case 'm':
			marker = marker || strings.HasPrefix(rest, "marker")
		}
	}
	var f uint8
	if title && containsWord(cls, "title") || headline && containsWord(cls, "headline") {
		f |= clsTitle
	}
	if price || preis {
		f |= clsPrice
	}
	if address || location || locality || adresse || standort {
		f |= clsLocation
	}
	if pin {
		f |= clsPin
	}
	if (pin || marker || location) && !spinner {
		f |= clsIcon
	}
	return f
}

func hasDigit(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			return true
		}
	}
	return false
}

// containsWord reports whether class list cls has a token that is w or ends
// in -w/_w/__w (BEM: "lr-card__title"), or starts with w- / w_.
func containsWord(cls, w string) bool {
	if !strings.Contains(cls, w) {
		return false
	}
	for cls != "" {
		// The fields of cls as strings.FieldsSeq gives them (by hand: the
		// sequence made cls escape, and memo.of passes a lowered copy on
		// its stack).
		cls = cls[spaceRun(cls, true):]
		n := spaceRun(cls, false)
		f := cls[:n]
		cls = cls[n:]
		if len(f) < len(w) {
			continue
		}
		if f == w {
			return true
		}
		if strings.HasSuffix(f, w) && len(f) > len(w) {
			if c := f[len(f)-len(w)-1]; c == '-' || c == '_' {
				return true
			}
		}
		if strings.HasPrefix(f, w) && len(f) > len(w) {
			if c := f[len(w)]; c == '-' || c == '_' {
				return true
			}
		}
	}
	return false
}

// spaceRun is the length of s's leading run of space (space true) or of
// non-space (false) characters, space as unicode.IsSpace says.
func spaceRun(s string, space bool) int {
	i := 0
	for i < len(s) {
		r, n := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRuneInString(s[i:])
		}
		if unicode.IsSpace(r) != space {
			break
		}
		i += n
	}
	return i
}

// imageOf returns an img element's picture URL (src, else a lazy-loading attribute).
func (p *page) imageOf(n *html.Node) string {
	for _, k := range []string{"src", "data-src", "data-original", "data-lazy", "data-lazy-src", "srcset", "data-srcset"} {
		v := strings.TrimSpace(attr(n, k))
		if v == "" || strings.HasPrefix(v, "data:") {
			continue
		}
		if strings.HasSuffix(k, "srcset") {
			v, _, _ = strings.Cut(v, " ")
			v, _, _ = strings.Cut(v, ",")
		}
		if lv := strings.ToLower(v); strings.HasSuffix(lv, ".svg") || strings.HasSuffix(lv, ".gif") {
			return "" // icons and spacers, not photos
		}
		if u := p.res.resolveAny(v); u != "" {
			return u
		}
	}
	return ""
}

// isBareNumber reports a number and nothing else (the regexp ^\d+(?:[.,]\d+)?$).
func isBareNumber(s string) bool {
	i := digitsAt(s, 0)
	if i == 0 {
		return false
	}
	if i == len(s) {
		return true
	}
	if s[i] != '.' && s[i] != ',' {
		return false
	}
	j := digitsAt(s, i+1)
	return j > i+1 && j == len(s)
}

// prevElement is n's previous element sibling.
func prevElement(n *html.Node) *html.Node {
	for s := n.PrevSibling; s != nil; s = s.PrevSibling {
		if s.Type == html.ElementNode {
			return s
		}
	}
	return nil
}

// distanceRe matches a trailing distance "(3 km)", "(ca. 5 km)".
var distanceRe = regexp.MustCompile(`\s*\((?:ca\.\s*)?[\d.,]+\s*km\)\s*$`)

// dropDistance removes a trailing distance (distanceRe) from t.
func dropDistance(t string) string {
	if !strings.Contains(t, "km)") {
		return t // distanceRe cannot match
	}
	return distanceRe.ReplaceAllString(t, "")
}

// cardListing builds a listing from a card and its chosen link.
func (p *page) cardListing(card *html.Node, a *anchor) Listing {
	return p.cardFields(card, a, wantAll)
}

// cardWant says which fields of a card cardFields reads.
type cardWant uint8

const (
	wantID cardWant = 1 << iota
	wantPromoted
	wantTitle
	wantPrice
	wantLocation
	wantSizeRooms
	wantImage
	wantAll = wantID | wantPromoted | wantTitle | wantPrice | wantLocation | wantSizeRooms | wantImage
)

// cardFields is cardListing reading only the fields in want (the others are
// left empty); a.u is only needed for the id.
func (p *page) cardFields(card *html.Node, a *anchor, want cardWant) Listing {
	if card.DataAtom == atom.Tr {
		want |= wantPrice | wantLocation | wantSizeRooms // the columns override them
	}
	if want == wantImage && card.DataAtom != atom.Tr {
		// Only the picture (what a profile's markup left open): the first
		// image the scan would find, without reading the rest of the card.
		return Listing{URL: a.canon, Image: p.firstImage(card)}
	}
	if want&^(wantID|wantPromoted|wantImage) == 0 && card.DataAtom != atom.Tr {
		// The id, promotion and picture only (a card that enriches
		// structured data which has the rest): no texts, no classes.
		l := Listing{URL: a.canon}
		var img *string
		if want&wantImage != 0 {
			img = &l.Image
		}
		ids := p.idsAndImage(card, p.cardIDAttrs[:0], img)
		p.cardIDAttrs = ids[:0]
		defer clear(ids)
		if want&wantPromoted != 0 {
			l.Promoted = p.promoted(card)
		}
		if want&wantID != 0 {
			l.ID = cardID(card, ids, a)
		}
		return l
	}
	// The scan's lists live on the page between cards (growing them for every
	// card was most of a card's allocations).
	s := cardScan{p: p, noImage: want&wantImage == 0, priceEls: p.cardPriceEls[:0], textEls: p.cardTextEls[:0], idAttrs: p.cardIDAttrs[:0]}
	defer func() {
		clear(s.priceEls)
		clear(s.textEls)
		clear(s.idAttrs)
		p.cardPriceEls, p.cardTextEls, p.cardIDAttrs = s.priceEls[:0], s.textEls[:0], s.idAttrs[:0]
	}()
	s.scan(card)
	l := Listing{URL: a.canon}
	if want&wantPromoted != 0 {
		l.Promoted = p.promoted(card)
	}
	if want&wantID != 0 {
		l.ID = cardID(card, s.idAttrs, a)
	}
	if want&wantTitle != 0 {
		l.Title = p.cardTitle(card, a, &s)
	}
	// A table row's cells, by their column headings, override what the
	// card scan would guess: it is not asked for what they give.
	var cells rowCells
	if card.DataAtom == atom.Tr {
		cells = p.tableColumns(card, &s)
	}
	if want&wantPrice != 0 {
		if l.Price = cells.price; l.Price == "" {
			if l.Price = s.price(); l.Price == "" {
				l.Price = cells.priceWords
			}
		}
	}
	if want&wantLocation != 0 {
		if l.Location = cells.location; l.Location == "" {
			l.Location = s.location()
		}
	}
	if want&wantSizeRooms != 0 {
		l.Size, l.Rooms = cells.size, cells.rooms
		if l.Size == "" || l.Rooms == "" {
			size, rooms := s.sizeRooms()
			if l.Size == "" {
				l.Size = size
			}
			if l.Rooms == "" {
				l.Rooms = rooms
			}
		}
	}
	l.Image = s.img
	return l
}

// idAttr reports whether a is an attribute that may carry the listing's id
// (data-…id with an id token; test hooks aside).
func idAttr(a html.Attribute) bool {
	return strings.HasPrefix(a.Key, "data-") && (strings.HasSuffix(a.Key, "id") || a.Key == "data-adid") &&
		a.Key != "data-testid" && a.Key != "data-test-id" && a.Val != "" && isIDToken(a.Val)
}

// idsAndImage appends to ids the id attributes cardScan.scan collects in n,
// and sets *img (when img is not nil) to the image it finds: what a card read
// for its id, promotion and picture only needs, without its texts and
// classes.
func (p *page) idsAndImage(n *html.Node, ids []string, img *string) []string {
	if n.Type != html.ElementNode {
		return ids
	}
	if n.DataAtom == atom.Script || n.DataAtom == atom.Style || n.DataAtom == atom.Template || n.DataAtom == atom.Noscript {
		return ids
	}
	for _, a := range n.Attr {
		if idAttr(a) {
			ids = append(ids, a.Val)
		}
	}
	if img != nil && *img == "" && n.DataAtom == atom.Img {
		*img = p.imageOf(n)
	}
	if skipped(n) {
		return ids
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		ids = p.idsAndImage(c, ids, img)
	}
	return ids
}

// firstImage is the image cardScan.scan finds in n: the first img (in document
// order, outside scripts, styles, templates and what skipped hides) that
// imageOf gives a URL.
func (p *page) firstImage(n *html.Node) string {
	if n.Type != html.ElementNode {
		return ""
	}
	if n.DataAtom == atom.Script || n.DataAtom == atom.Style || n.DataAtom == atom.Template || n.DataAtom == atom.Noscript {
		return ""
	}
	if n.DataAtom == atom.Img {
		if img := p.imageOf(n); img != "" {
			return img
		}
	}
	if skipped(n) {
		return ""
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if img := p.firstImage(c); img != "" {
			return img
		}
	}
	return ""
}

// cardTitle: a heading, else an element named title, else the link.
func (p *page) cardTitle(card *html.Node, a *anchor, s *cardScan) string {
	var title string
	byLink := false // title is the link's title already
	switch {
	case s.heading != nil:
		title = s.text(s.heading)
	case s.titleEl != nil:
		title = s.text(s.titleEl)
	case a.n.DataAtom != atom.A: // a row or card that navigates by script: its first text
		title = firstText(a.n)
	default:
		title, byLink = p.linkTitle(a.n), true
	}
	if title == "" && !byLink {
		title = p.linkTitle(a.n)
	}
	if title == "" { // an image link first: the text link to the same URL names it
		title = p.sameURLLinkTitle(card, a)
	}
	return title
}

// sameURLLinkTitle is the first non-empty linkTitle of the links (a[href]) in
// card, card included, other than a.n, that resolve to a.canon.
func (p *page) sameURLLinkTitle(card *html.Node, a *anchor) string {
	try := func(x *html.Node) string {
		if x.DataAtom != atom.A || x == a.n || !hasAttr(x, "href") {
			return ""
		}
		if c, ok := p.canonOf(attr(x, "href")); ok && c == a.canon {
			return linkTitle(x)
		}
		return ""
	}
	if t := try(card); t != "" {
		return t
	}
	var find func(n *html.Node) string
	find = func(n *html.Node) string {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && c.Data == "a" {
				if t := try(c); t != "" {
					return t
				}
			}
			if t := find(c); t != "" {
				return t
			}
		}
		return ""
	}
	return find(card)
}

// canonOf is the canonical URL an href resolves to (u.String() of
// p.res.resolve), from the anchors already resolved when one had that href.
func (p *page) canonOf(href string) (string, bool) {
	if j := p.resolvedHref(href, -1); j >= 0 {
		b := &p.anchors[j]
		return b.canon, b.ok
	}
	u, ok := p.res.resolve(href)
	if !ok {
		return "", false
	}
	return urlString(u), true
}

// firstText is the text of n's first element child that has any (descending
// into it while it is a wrapper), as long as it is short.
func firstText(n *html.Node) string {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode || skipped(c) {
			continue
		}
		if t := text(c); t != "" {
			if len(t) <= 150 {
				return t
			}
			return firstText(c)
		}
	}
	return ""
}

// rowCells is what a table row's cells say, by their column headings: the
// last non-empty cell of each kind, but for the price, the last cell showing
// a digit (price) and the first one without (priceWords). They override what
// the card scan guesses: a price cell with a digit always, one without only
// when the scan finds no price.
type rowCells struct {
	location, rooms, size, price, priceWords string
}

// tableColumns reads a table row's cells by their column headings
// ("Lage", "Zimmer", "Fläche", "Miete"); s is the row's card scan.
func (p *page) tableColumns(tr *html.Node, s *cardScan) (cells rowCells) {
	var table *html.Node
	for x := tr.Parent; x != nil; x = x.Parent {
		if x.DataAtom == atom.Table {
			table = x
			break
		}
	}
	if table == nil {
		return cells
	}
	// The rows of one table share its heading: found and read once.
	if p.table != table {
		p.table, p.tableHead, p.tableKinds = table, nil, p.tableKinds[:0]
		head := q(table, theadRow)
		if head == nil {
			if th := q(table, thCell); th != nil {
				head = th.Parent
			}
		}
		p.tableHead = head
		if head != nil {
			for c := head.FirstChild; c != nil; c = c.NextSibling {
				if c.Type == html.ElementNode && (c.DataAtom == atom.Th || c.DataAtom == atom.Td) {
					var buf [64]byte // (headings are short: lowered on the stack)
					p.tableKinds = append(p.tableKinds, columnKind(appendLower(buf[:0], text(c))))
				}
			}
		}
	}
	head, kinds := p.tableHead, p.tableKinds
	if head == nil || head == tr {
		return cells
	}
	i := 0
	for c := tr.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode || c.DataAtom != atom.Td && c.DataAtom != atom.Th {
			continue
		}
		if i < len(kinds) {
			if kind := kinds[i]; kind != columnOther {
				switch v := s.text(c); {
				case v == "":
				case kind == columnLocation:
					cells.location = v
				case kind == columnRooms:
					cells.rooms = v
				case kind == columnSize:
					cells.size = v
				case kind == columnPrice:
					if hasDigit(v) {
						cells.price = v
					} else if cells.priceWords == "" {
						cells.priceWords = v
					}
				}
			}
		}
		i++
	}
	return cells
}

// What a table column holds, by its heading (lower case).
const (
	columnOther = iota
	columnLocation
	columnRooms
	columnSize
	columnPrice
)

// columnWords are the words of each column kind, in columnKind's order.
var columnWords = [...][]string{
	columnLocation: {"lage", "ort", "stadtteil", "adresse", "location", "address", "bezirk", "region"},
	columnRooms:    {"zimmer", "räume", "rooms", "zi."},
	columnSize:     {"fläche", "größe", "size", "area", "m²"},
	columnPrice:    {"miete", "preis", "price", "rent", "gebühr", "kosten"},
}

// columnByFirst is columnWords by their first byte, with their kind.
var columnByFirst = func() (t [256][]struct {
	w    string
	kind int
}) {
	for kind, ws := range columnWords {
		for _, w := range ws {
			t[w[0]] = append(t[w[0]], struct {
				w    string
				kind int
			}{w, kind})
		}
	}
	return t
}()

// columnKind is the kind of the first of columnWords' lists with a word in
// lb, a heading in lower case, found in one pass (each word looked for where
// its first byte is, rather than searched for one by one).
func columnKind(lb []byte) int {
	found := 0 // bit k: a word of kind k
	for i, c := range lb {
		for _, cw := range columnByFirst[c] {
			if len(lb)-i >= len(cw.w) && string(lb[i:i+len(cw.w)]) == cw.w {
				found |= 1 << cw.kind
			}
		}
	}
	for k := columnLocation; k <= columnPrice; k++ {
		if found&(1<<k) != 0 {
			return k
		}
	}
	return columnOther
}

var (
	theadRow = sel("thead tr")
	thCell   = sel("tr > th")
)

// linkTitle is a link's text, else its title attribute, else an image's alt text.
func linkTitle(a *html.Node) string {
	if t := text(a); t != "" {
		return t
	}
	return linkTitleRest(a)
}

// linkTitle is linkTitle(a), with a's text remembered for the page (the card
// search has read the links' texts already).
func (p *page) linkTitle(a *html.Node) string {
	if t := p.textOf(a); t != "" {
		return t
	}
	return linkTitleRest(a)
}

// linkTitleRest is linkTitle of a link without text: its title, else the alt
// of its first image with one.
func linkTitleRest(a *html.Node) string {
	if t := fold(attr(a, "title")); t != "" {
		return t
	}
	var alt string
	var find func(*html.Node)
	find = func(n *html.Node) {
		for c := n.FirstChild; c != nil && alt == ""; c = c.NextSibling {
			if c.Type == html.ElementNode {
				if c.DataAtom == atom.Img {
					alt = fold(attr(c, "alt"))
				}
				find(c)
			}
		}
	}
	find(a)
	return alt
}

// inTitle reports whether n is inside the card's title.
func (s *cardScan) inTitle(n *html.Node) bool {
	for _, t := range []*html.Node{s.heading, s.titleEl} {
		if t == nil {
			continue
		}
		for x := n; x != nil; x = x.Parent {
			if x == t {
				return true
			}
		}
	}
	return false
}

// price: the innermost element named like a price that shows an amount with a
// currency; else the first short text that does (not the title's).
func (s *cardScan) price() string {
	var best *html.Node
	bestText := ""
	for _, el := range s.priceEls {
		if struck(el) || s.inTitle(el) {
			continue
		}
		t := s.text(el)
		if len(t) > 80 || !looksLikePrice(t) && !(hasDigit(t) && len(t) < 30) {
			continue
		}
		if best == nil {
			best, bestText = el, t
			continue
		}
		if isAncestor(best, el) {
			best, bestText = el, t
			continue
		}
		break
	}
	if best != nil && (looksLikePrice(bestText) || hasDigit(bestText)) {
		return bestText
	}
	for _, el := range s.textEls {
		if s.inTitle(el) || inProse(el) {
			continue
		}
		t := s.text(el)
		if len(t) <= 60 && looksLikePrice(t) {
			return pricePart(t)
		}
		// "<span>1.250</span> <span>€</span>": the parent adds only the currency.
		for x, up := el.Parent, 0; x != nil && up < 2; x, up = x.Parent, up+1 {
			tx, ok := s.shortText(x, len(t)+9)
			if !ok {
				break
			}
			if looksLikePrice(tx) {
				return pricePart(tx)
			}
		}
	}
	// A price shown as words only: "Preis auf Anfrage", "VB".
	if s.onRequest != nil {
		return s.text(s.onRequest)
	}
	return ""
}

// pricePart picks the price from a line of facts ("1.120 € · 85 m² · 3 Zimmer").
func pricePart(t string) string {
	if !mayHoldFactSep(t) {
		return t // (most prices: one pass rather than a search for each)
	}
	return factsPricePart(t)
}

// factsPricePart is pricePart by a search for each separator in turn.
func factsPricePart(t string) string {
	for _, sep := range []string{"·", "|", " - ", "•"} {
		if !strings.Contains(t, sep) {
			continue
		}
		for part := range strings.SplitSeq(t, sep) {
			if part = strings.TrimSpace(part); looksLikePrice(part) {
				return part
			}
		}
	}
	return t
}

// mayHoldFactSep reports whether t holds one of pricePart's separators:
// '|', " - ", "·" (C2 B7) or "•" (E2 80 A2), in one pass (a euro sign, E2 82
// AC, is not one: most prices).
func mayHoldFactSep(t string) bool {
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '|':
			return true
		case '-':
			if i > 0 && t[i-1] == ' ' && i+1 < len(t) && t[i+1] == ' ' {
				return true
			}
		case 0xC2:
			if i+1 < len(t) && t[i+1] == 0xB7 {
				return true
			}
		case 0xE2:
			if i+2 < len(t) && t[i+1] == 0x80 && t[i+2] == 0xA2 {
				return true
			}
		}
	}
	return false
}

// onRequest reports whether a short text says the price is on request.
func onRequest(t string) bool {
	// (The ends as they stand, when they are ASCII other than white space:
	// trimming keeps them. Most texts are ruled out without trimming.)
	if t != "" {
		if c := t[0]; c > ' ' && c < utf8.RuneSelf && !startsLikeOnRequest(c) {
			return false
		}
		if c := t[len(t)-1]; c > ' ' && c < utf8.RuneSelf && !endsLikeOnRequestByte(c) {
			return false
		}
	}
	t = strings.TrimSpace(t)
	if len(t) < 2 || len(t) > 40 {
		return false
	}
	// An ASCII character at either end is fold(t)'s too (folding drops and
	// repairs only other characters): most texts are ruled out unfolded.
	if c := t[0]; c < utf8.RuneSelf && !startsLikeOnRequest(c) {
		return false
	}
	if c := t[len(t)-1]; c < utf8.RuneSelf && !endsLikeOnRequestByte(c) {
		return false
	}
	f := fold(t)
	return endsLikeOnRequest(f) && onRequestPhrase(f)
}

// startsLikeOnRequest and endsLikeOnRequestByte are endsLikeOnRequest's tests
// of an ASCII first and last byte.
func startsLikeOnRequest(c byte) bool {
	switch c | 0x20 {
	case 'p', 'a', 'n', 'v', 'o', 's':
		return true
	}
	return false
}

func endsLikeOnRequestByte(c byte) bool {
	switch c | 0x20 {
	case 'e', 'g', 'b', 's', 't', 'r', 'a':
		return true
	}
	return false
}

// endsLikeOnRequest is a quick test before onRequestRe: every phrase it
// matches starts with p, a, n, v, o or s and ends in e, g, b, s, t, r or a, in
// any case (or ſ, which (?i) folds to s).
func endsLikeOnRequest(f string) bool {
	if f == "" {
		return false
	}
	if !startsLikeOnRequest(f[0]) && !strings.HasPrefix(f, "ſ") {
		return false
	}
	return endsLikeOnRequestByte(f[len(f)-1]) || strings.HasSuffix(f, "ſ")
}

// onRequestPhrases are the words of a price shown without an amount.
var onRequestPhrases = []string{"auf anfrage", "nach vereinbarung", "vb", "verhandlungsbasis", "on request",
	"price on request", "a consultar", "su richiesta", "sur demande"}

// onRequestPhrase reports whether f is one of onRequestPhrases, perhaps after
// "Preis " — in any case, as the regexp
// (?i)^(?:preis\s+)?(?:auf anfrage|…|sur demande)$ matches (held to it by
// TestOnRequestPhraseMatchesRegexp): strings.EqualFold folds case as (?i)
// does, and \s is ASCII white space.
func onRequestPhrase(f string) bool {
	const space = " \t\n\f\r"
	// The second character of every phrase, and of "preis", is one of
	// u, a, b, e, n, r or a space, in any case, and no character but
	// ASCII folds to them: most texts are ruled out by it. (After a first
	// character of two bytes, ſ, it is not looked at.)
	if len(f) >= 2 && f[0] < utf8.RuneSelf {
		switch f[1] | 0x20 {
		case 'u', 'a', 'b', 'e', 'n', 'r', ' ':
		default:
			return false
		}
	}
	for _, ph := range onRequestPhrases {
		if strings.EqualFold(f, ph) {
			return true
		}
	}
	i := strings.IndexAny(f, space)
	if i <= 0 || !strings.EqualFold(f[:i], "preis") {
		return false
	}
	rest := strings.TrimLeft(f[i:], space)
	for _, ph := range onRequestPhrases {
		if strings.EqualFold(rest, ph) {
			return true
		}
	}
	return false
}

// inProse reports whether n is inline markup inside running text (a price
// mentioned in a description: "Die Warmmiete beträgt <strong>890€</strong> …").
func inProse(n *html.Node) bool {
	for x := n; x != nil && x.Type == html.ElementNode; x = x.Parent {
		own := 0
		for c := x.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.TextNode {
				own += trimmedLen(c.Data)
			}
		}
		if own > 80 {
			return true
		}
		if !inline(x) {
			return false
		}
	}
	return false
}

// inline reports whether n is an inline formatting element.
func inline(n *html.Node) bool {
	switch n.DataAtom {
	case atom.Span, atom.Strong, atom.B, atom.Em, atom.I, atom.Small, atom.U, atom.Mark, atom.Sup, atom.Sub, atom.Font, atom.A:
		return true
	}
	return false
}

// within reports whether n is a or inside it.
func within(n, a *html.Node) bool {
	for x := n; x != nil; x = x.Parent {
		if x == a {
			return true
		}
	}
	return false
}

func isAncestor(a, n *html.Node) bool {
	for x := n.Parent; x != nil; x = x.Parent {
		if x == a {
			return true
		}
	}
	return false
}

// location: an element named like an address, else the text beside a pin icon.
func (s *cardScan) location() string {
	t := ""
	switch {
	case s.locEl != nil:
		t = s.text(s.locEl)
	case s.locIcon != nil:
		if sib := nextElement(s.locIcon); sib != nil && !isAncestor(sib, s.locIcon) {
			t = s.text(sib)
		}
		if t == "" && s.locIcon.Parent != nil {
			t = s.text(s.locIcon.Parent)
		}
		if len(t) > 150 {
			t = ""
		}
	}
	return dropDistance(t)
}

// sizeRooms: the first short texts showing square metres and rooms.
func (s *cardScan) sizeRooms() (size, rooms string) {
	for _, el := range s.textEls {
		if s.inTitle(el) {
			continue
		}
		t := s.text(el)
		if len(t) > 60 {
			continue
		}
		if size == "" && mayBeSize(t) {
			size = findSize(t)
		}
		if rooms == "" && mayBeRooms(t) {
			rooms = findRooms(t)
		}
		if isBareNumber(t) { // "3" with a label beside it: <dt>Zimmer</dt><dd>3</dd>
			var buf [32]byte // (labels are short: lowered on the stack)
			switch label := appendLower(buf[:0], strings.TrimSuffix(s.text(prevElement(el)), ":")); string(label) {
			case "zimmer", "zi.", "räume", "rooms", "bedrooms", "habitaciones", "locali", "pièces":
				if rooms == "" {
					rooms = t
				}
			case "fläche", "wohnfläche", "größe", "area", "size", "living space", "superficie", "surface":
				if size == "" {
					size = t + " m²"
				}
			}
		}
		if size != "" && rooms != "" {
			break
		}
	}
	return normSize(size), rooms
}

// cardID: an id attribute whose value appears in the listing URL, else the id
// in the URL, else the card's own data-id, else "" (the caller hashes the URL).
// a is the card's link.
func cardID(card *html.Node, idAttrs []string, a *anchor) string {
	u := a.u
	if u == nil {
		return ""
	}
	for _, v := range idAttrs {
		if len(v) >= 3 && tokenInURL(u, v) {
			return v
		}
	}
	if id := a.urlID(); id != "" {
		return id
	}
	for _, k := range []string{"data-id", "data-adid", "data-ad-id", "data-listing-id", "data-item-id", "data-object-id", "data-obid", "data-expose-id", "data-guid"} {
		if v := attr(card, k); v != "" && isIDToken(v) {
			return v
		}
	}
	return ""
}

// tokenInURL is tokenIn(u.Path+"?"+u.RawQuery, v), without building the string
// when v holds no '?' (no occurrence can span the two then).
func tokenInURL(u *url.URL, v string) bool {
	if strings.IndexByte(v, '?') >= 0 {
		return tokenIn(u.Path+"?"+u.RawQuery, v)
	}
	return tokenIn(u.Path, v) || tokenIn(u.RawQuery, v)
}

// tokenIn reports whether v occurs in hay delimited by non-alphanumerics.
func tokenIn(hay, v string) bool {
	for i := 0; ; {
		j := strings.Index(hay[i:], v)
		if j < 0 {
			return false
		}
		j += i
		k := j + len(v)
		if (j == 0 || !alnum(hay[j-1])) && (k == len(hay) || !alnum(hay[k])) {
			return true
		}
		i = j + 1
	}
}

func alnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
