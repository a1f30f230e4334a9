package extract

import (
	"net/url"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// index is what the search for the result list asks of every element,
// computed in one walk of the tree, so that an element nested in many groups
// is read once, not once per group.
type index struct {
	link map[*html.Node]*url.URL // the resolved link of each visible link element
	feat map[*html.Node]feat     // what each visible element that holds a link holds, its subtree included
	str  map[*url.URL]string     // each link as a string, once written
	ids  map[string]string       // idFromURL of each distinct link, once read
	head map[*html.Node]feat     // what each table's row of headings names (currency, unit)
	slot map[string]string       // each link slot (see memberLink) as one string, made once
	path []byte                  // linksIn's buffer, one for the page

	// An index of the whole page (newIndex) also holds, found in the same
	// walk: its groups (see group) of at least one member, in document order;
	// and its data sources for jsonOf, in document order — scripts, and
	// attribute values that hold JSON (hidden and skipped elements
	// included). An index of one list's members (readLearnt) has none of
	// these: byKey is nil.
	groups  []*group
	byKey   map[uint64]*group
	scripts []*html.Node
	states  []string
}

// urlOf is a link of the index as a string, written once.
func (ix *index) urlOf(u *url.URL) string {
	s, ok := ix.str[u]
	if !ok {
		s = u.String()
		ix.str[u] = s
	}
	return s
}

// idOf is idFromURL of a link of the index, read once.
func (ix *index) idOf(u *url.URL) string {
	s := ix.urlOf(u)
	id, ok := ix.ids[s]
	if !ok {
		id = idFromURL(u)
		ix.ids[s] = id
	}
	return id
}

// feat sums up an element's subtree for scoring a list (cheap signs, not the
// careful reading of a card).
type feat struct {
	links    int  // visible link elements
	textLen  int  // bytes of visible text
	currency bool // a currency sign or code beside a digit
	unit     bool // m², m2, qm, Zimmer, Zi., rooms …
	image    bool // an <img>, <picture> or a background image
	heading  bool // an h1–h6
	ad       bool // an element marked as a paid placement by a data attribute
}

// newIndex indexes the page under root and finds its groups and data
// sources; memo judges its classes.
func newIndex(root *html.Node, base *url.URL, memo *skipMemo) *index {
	ix := emptyIndex()
	ix.byKey = map[uint64]*group{}
	ix.walk(root, base, memo, groupPos{path: fnvOffset})
	return ix
}

// newMembersIndex indexes the members of one list (and what they hold).
func newMembersIndex(members []*html.Node, base *url.URL, memo *skipMemo) *index {
	ix := emptyIndex()
	for _, m := range members {
		ix.walk(m, base, memo, groupPos{})
	}
	return ix
}

func emptyIndex() *index {
	return &index{link: map[*html.Node]*url.URL{}, feat: map[*html.Node]feat{}, str: map[*url.URL]string{}, ids: map[string]string{}, head: map[*html.Node]feat{}, slot: map[string]string{}, path: make([]byte, 0, 128)}
}

// groupPos is where the walk stands for grouping: the key of the parent's
// tags and classes (sig), the tags of the parent's ancestors (path), its
// depth, and whether there is a parent to group under (not at the root).
type groupPos struct {
	sig, path uint64
	depth     int
	parent    bool
}

func (ix *index) walk(n *html.Node, base *url.URL, memo *skipMemo, at groupPos) feat {
	var f feat
	below := at
	switch n.Type {
	case html.TextNode:
		return textFeat(n.Data)
	case html.ElementNode:
		var ok bool
		if f, below, ok = ix.element(n, base, memo, at); !ok {
			return f
		}
	case html.DocumentNode:
		if ix.byKey != nil {
			below = groupPos{sig: mix(at.path, n.Data) * fnvPrime, path: mix(at.path, n.Data), depth: at.depth, parent: true}
		}
	default:
		return f
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		cf := ix.walk(c, base, memo, below)
		f.links += cf.links
		f.textLen += cf.textLen
		f.currency = f.currency || cf.currency
		f.unit = f.unit || cf.unit
		f.image = f.image || cf.image
		f.heading = f.heading || cf.heading
		f.ad = f.ad || cf.ad
	}
	if n.DataAtom == atom.Tr && n.Parent != nil {
		h := ix.headingsOf(n) // a row shows what its column headings say: "Miete (€)"
		f.currency, f.unit = f.currency || h.currency, f.unit || h.unit
	}
	if n.Type == html.ElementNode && f.links > 0 {
		// Only an element with a link can be a card or hold one: the others
		// (most of a page) are not asked for, and stay out of the map.
		ix.feat[n] = f
	}
	return f
}

// element is what walk reads of an element itself: ok false for one that is
// hidden or skipped (then only its data sources are taken); below is where
// its children stand for grouping.
func (ix *index) element(n *html.Node, base *url.URL, memo *skipMemo, at groupPos) (f feat, below groupPos, ok bool) {
	ct := memo.classOf(n)
	if skipStructureAs(n, ct.hides) {
		if ix.byKey != nil {
			ix.dataIn(n)
		}
		return f, at, false
	}
	if ix.byKey != nil {
		ix.states = appendStates(ix.states, n)
		if at.parent {
			ix.addMember(mix(mix(at.sig, ">"), n.Data), at.depth+1, n)
		}
		below = groupPos{sig: (mix(at.path, n.Data) ^ ct.sig) * fnvPrime, path: mix(at.path, n.Data), depth: at.depth + 1, parent: true}
	}
	if u, ok := linkOf(n, base); ok {
		ix.link[n] = u
		f.links++
	}
	switch n.DataAtom {
	case atom.Img, atom.Picture:
		f.image = true
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		f.heading = true
	}
	if strings.Contains(attrOf(n, "style"), "background-image") {
		f.image = true
	}
	f.ad = adData(n)
	return f, below, true
}

// dataIn takes the data sources of an element the index skips (a script, the
// head, something hidden) and of what it holds.
func (ix *index) dataIn(n *html.Node) {
	if n.Type != html.ElementNode {
		return
	}
	if n.Data == "script" {
		ix.scripts = append(ix.scripts, n)
	}
	ix.states = appendStates(ix.states, n)
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		ix.dataIn(c)
	}
}

// appendStates appends n's attribute values that hold a JSON object
// (Livewire's wire:snapshot).
func appendStates(states []string, n *html.Node) []string {
	for _, a := range n.Attr {
		if len(a.Val) <= 20 {
			continue // too short for a state, before or after trimming
		}
		if v := strings.TrimSpace(a.Val); len(v) > 20 && v[0] == '{' && strings.Contains(v, `"`) {
			states = append(states, v)
		}
	}
	return states
}

// addMember puts an element in the group of key (members at depth), made at
// its first member.
func (ix *index) addMember(key uint64, depth int, n *html.Node) {
	g := ix.byKey[key]
	if g == nil {
		g = &group{key: key, depth: depth}
		ix.byKey[key] = g
		ix.groups = append(ix.groups, g)
	}
	g.members = append(g.members, n)
}

// headingsOf is what the headings of tr's table name, read once per table.
func (ix *index) headingsOf(tr *html.Node) feat {
	table := tableOf(tr)
	h, ok := ix.head[table]
	if !ok && table != nil {
		t := text(headRow(tr))
		h = feat{currency: mentionsCurrency(t), unit: containsAny(t, unitWords)}
		ix.head[table] = h
	}
	return h
}

var unitWords = []string{"m²", "m2", "qm", "Zimmer", "zimmer", "Zi.", "Zi ", "room", "Room", "sq"}

func textFeat(s string) feat {
	f := feat{textLen: len(strings.TrimSpace(s))}
	if f.textLen == 0 || !strings.ContainsAny(s, "0123456789") {
		return f
	}
	f.currency = mentionsCurrency(s)
	f.unit = containsAny(s, unitWords)
	return f
}
