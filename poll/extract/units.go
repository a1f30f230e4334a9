package extract

import (
	"strings"

	"golang.org/x/net/html"
)

// This file is grouped listings: a card for one building or project that
// holds a table or list of its units, each with its own link, rent and size
// (a common layout in Japan, and for new-build projects elsewhere). The
// units are the listings; each is titled by its group's name with its own
// facts.

// unitTitles gives the cards that are units of a group their titles: the
// group's name (a heading or an element named as the title outside its
// units) and the unit's lines that are not its price or a link's words. A
// card with a heading or a named title of its own keeps it.
func (pg *page) unitTitles(cards []card) map[*html.Node]string {
	if len(cards) < 2 {
		return nil
	}
	lca := commonAncestor(cards)
	groups := map[*html.Node][]card{}
	for _, c := range cards {
		g := c.node
		for g.Parent != nil && g.Parent != lca {
			g = g.Parent
		}
		if g == c.node || g.Parent != lca {
			return nil // the cards are the list's members, not units in groups
		}
		groups[g] = append(groups[g], c)
	}
	out := map[*html.Node]string{}
	for g, units := range groups {
		name := pg.groupName(g, units)
		if name == "" {
			continue
		}
		for _, c := range units {
			if pg.hasOwnTitle(c.node) {
				continue
			}
			var facts []string
			for _, ln := range pg.memo.lines(c.node) {
				if findPrice(ln) == "" && !callToAction(ln) {
					facts = append(facts, ln)
				}
			}
			out[c.node] = joinNonEmpty(" · ", name, strings.Join(facts, " · "))
		}
	}
	return out
}

// commonAncestor is the innermost element that holds every card.
func commonAncestor(cards []card) *html.Node {
	depth := map[*html.Node]int{}
	var chain []*html.Node
	for n := cards[0].node; n != nil; n = n.Parent {
		chain = append(chain, n)
	}
	for i, n := range chain {
		depth[n] = i
	}
	lowest := 0
	for _, c := range cards[1:] {
		for n := c.node; n != nil; n = n.Parent {
			if d, ok := depth[n]; ok {
				lowest = max(lowest, d)
				break
			}
		}
	}
	return chain[lowest]
}

// groupName is the title of a group outside its units: its first heading or
// element named as the title.
func (pg *page) groupName(g *html.Node, units []card) string {
	inUnit := map[*html.Node]bool{}
	for _, c := range units {
		inUnit[c.node] = true
	}
	var name string
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil && name == ""; c = c.NextSibling {
			if c.Type != html.ElementNode || inUnit[c] || pg.memo.skip(c) {
				continue
			}
			if isHeading(c) || titleHint.in(hints(c, pg.memo)) && !notTitleHint.in(hints(c, pg.memo)) {
				if t := text(c); titleText(t) {
					name = t
					return
				}
			}
			walk(c)
		}
	}
	walk(g)
	return name
}

// hasOwnTitle: the card shows a heading or an element named as its title.
func (pg *page) hasOwnTitle(n *html.Node) bool {
	for _, e := range namedIn(n, pg.memo) {
		if titleHint.in(e.words) && !notTitleHint.in(e.words) {
			return true
		}
	}
	var found bool
	var walk func(*html.Node)
	walk = func(e *html.Node) {
		for c := e.FirstChild; c != nil && !found; c = c.NextSibling {
			found = isHeading(c)
			walk(c)
		}
	}
	walk(n)
	return found
}
