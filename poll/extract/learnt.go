package extract

import (
	"slices"
	"strconv"
	"strings"

	"golang.org/x/net/html"

	"notifio/internal/model"
)

// This file reads a search's pages after the first the short way: the result
// list the search learnt (Result.Structure) is looked up by its place in the
// page and its cards are read, without the search through every group of the
// page for the list (on a page with a mega menu of a thousand links that
// search costs several times the parse). Whatever the short way cannot vouch
// for goes the full way: the list is gone, it shows fewer listings than it
// did, a card's link sits elsewhere or leads to a URL of another shape, or the
// cards leave a title or price open (then the page's data may add to them).
// The full way finds the list again, or a new one, and learns it.

// learnt is what a search keeps of its result list, written into
// Result.Structure as "KEY|N|SLOTS|SHAPES": the group's key (base 36, what
// candidate.structure gives), how many listings it showed, the link slots of
// its cards and the shapes of their URLs (comma-separated, sorted). A
// structure of the key alone (from older versions) is taken by the full
// search, which then writes all four.
type learnt struct {
	key    string
	n      int
	slots  []string
	shapes []string
}

// learntKey is the group key of a structure ("" for none).
func learntKey(structure string) string {
	key, _, _ := strings.Cut(structure, "|")
	return key
}

// parseLearnt reads a structure of all four parts; ok is false for any other.
func parseLearnt(structure string) (learnt, bool) {
	parts := strings.Split(structure, "|")
	if len(parts) != 4 || parts[0] == "" {
		return learnt{}, false
	}
	n, err := strconv.Atoi(parts[1])
	if err != nil || n < 1 {
		return learnt{}, false
	}
	return learnt{key: parts[0], n: n, slots: strings.Split(parts[2], ","), shapes: strings.Split(parts[3], ",")}, true
}

// learn is the structure of the list c whose cards gave the listings ls (""
// when the listings did not come from a list's cards).
func learn(c candidate, ls []model.PageListing) string {
	key := c.structure()
	if key == "" || len(c.cards) == 0 {
		return ""
	}
	slots, shapes := cardShapes(c.cards)
	return key + "|" + strconv.Itoa(len(ls)) + "|" + strings.Join(slots, ",") + "|" + strings.Join(shapes, ",")
}

// cardShapes are the distinct link slots and URL shapes of the cards, sorted.
func cardShapes(cards []card) (slots, shapes []string) {
	for _, c := range cards {
		if s := slotOf(c); !slices.Contains(slots, s) {
			slots = append(slots, s)
		}
		if s := shape(c.url); !slices.Contains(shapes, s) {
			shapes = append(shapes, s)
		}
	}
	slices.Sort(slots)
	slices.Sort(shapes)
	return slots, shapes
}

// slotOf is where a card's link sits in it, as memberLink.slot writes it:
// the tags from the card down to the link ("/li/article/div/h2/a").
func slotOf(c card) string {
	var tags []string
	for e := c.link; e != nil; e = e.Parent {
		tags = append(tags, e.Data)
		if e == c.node {
			break
		}
	}
	slices.Reverse(tags)
	return "/" + strings.Join(tags, "/")
}

// readLearnt reads the page by the learnt list of structure; ok is false when
// the page must be read the full way (see the top of this file).
func (pg *page) readLearnt(structure string) (model.PageResult, bool) {
	lt, ok := parseLearnt(structure)
	if !ok {
		return model.PageResult{}, false
	}
	key, err := strconv.ParseUint(lt.key, 36, 64)
	if err != nil {
		return model.PageResult{}, false
	}
	g := membersOf(pg.root, key, pg.memo)
	if g == nil {
		return model.PageResult{}, false
	}
	ix := newMembersIndex(g.members, pg.base, pg.memo)
	c := ix.evaluate(g, pg.url)
	if c.score <= 0 || len(c.cards) == 0 {
		return model.PageResult{}, false
	}
	slots, shapes := cardShapes(c.cards)
	if !subset(slots, lt.slots) || !subset(shapes, lt.shapes) {
		return model.PageResult{}, false
	}
	cards := pg.readCards(c.cards, fieldSel{})
	// Empty slots the page fills while scrolling send the full way to the
	// page's data, as automatic does (page.emptySlots).
	if len(cards) < lt.n || !complete(cards) || pg.emptySlots(c) {
		return model.PageResult{}, false
	}
	return model.PageResult{Method: model.MethodLearnt, Listings: cards, Container: true, Structure: learn(c, cards)}, true
}

// subset reports whether every one of a is in b.
func subset(a, b []string) bool {
	return !slices.ContainsFunc(a, func(s string) bool { return !slices.Contains(b, s) })
}

// membersOf is the group of the given key (nil when the page has none): the
// walk of newIndex's grouping, hashing alike, over the elements the index sees (those
// not hidden or skipped, nor inside such), without indexing the page.
func membersOf(root *html.Node, key uint64, memo *skipMemo) *group {
	var g *group
	var walk func(n *html.Node, path uint64, depth int)
	walk = func(n *html.Node, path uint64, depth int) {
		sig := (mix(path, n.Data) ^ memo.classOf(n).sig) * fnvPrime
		below := mix(path, n.Data)
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode || skipStructureAs(c, memo.classOf(c).hides) {
				continue
			}
			if mix(mix(sig, ">"), c.Data) == key {
				if g == nil {
					g = &group{key: key, depth: depth + 1}
				}
				g.members = append(g.members, c)
			}
			walk(c, below, depth+1)
		}
	}
	walk(root, fnvOffset, 0)
	return g
}
