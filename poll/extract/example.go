package extract

import (
	"cmp"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"

	"notifio/internal/model"
)

// This file is "show me one": the user points at one listing as their browser
// shows it (its title, price or link), and Notifio finds the repeated group
// around it and the selectors that read the rest; and the ranking of a page's
// repeated groups, for the user to pick from when automatic extraction picked
// the wrong one.

// Groups ranks the page's repeated groups that lead to distinct pages, most
// listing-like first, at most max of them (0: all).
func Groups(root *html.Node, pageURL *url.URL, max int) []model.Group {
	pg := newPage(root, pageURL)
	all := candidates(pg)
	chosen, _ := bestList(pg, "")
	var out []model.Group
	seen := map[string]bool{}
	for _, c := range all {
		key := cardsKey(c)
		if seen[key] || len(c.cards) < 2 && c.score == 0 {
			continue
		}
		seen[key] = true
		sel, ok := pg.derive(c, nil)
		if !ok {
			continue
		}
		g := model.Group{Count: len(distinctURLs(c)), Selectors: sel, Chosen: chosen.group != nil && c.group.key == chosen.group.key}
		if ls := pg.readCards(c.cards[:1], fieldSel{}); len(ls) > 0 {
			g.Example = exampleLine(ls[0])
		}
		out = append(out, g)
		if max > 0 && len(out) == max {
			break
		}
	}
	return out
}

// candidates are the page's lists, best first (by the score that shows
// listings, then by all links).
func candidates(pg *page) []candidate {
	ix := pg.index()
	var all []candidate
	for _, g := range ix.groups {
		if ix.mayBeList(g) {
			if c := ix.evaluate(g, pg.url); len(c.cards) > 0 {
				all = append(all, c)
			}
		}
	}
	slices.SortStableFunc(all, func(a, b candidate) int { return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(b.plain, a.plain)) })
	return all
}

// cardsKey tells lists apart by the listings they lead to (a list and the
// wrapper elements around its cards lead to the same ones).
func cardsKey(c candidate) string {
	return strings.Join(distinctURLs(c), "\n")
}

func distinctURLs(c candidate) []string {
	var out []string
	seen := map[string]bool{}
	for _, cd := range c.cards {
		if u := cd.url.String(); !seen[u] {
			seen[u] = true
			out = append(out, u)
		}
	}
	return out
}

func exampleLine(l model.PageListing) string {
	return joinNonEmpty(" · ", truncate(l.Title, 60), l.Price)
}

// ErrNoExample is returned when the page holds nothing that matches the
// user's example.
var ErrNoExample = errors.New("no listing on this page matches the example")

// exampleError says in the user's words why an example gave no list; it is
// ErrNoExample for errors.Is.
type exampleError string

func (e exampleError) Error() string      { return string(e) }
func (exampleError) Is(target error) bool { return target == ErrNoExample }

func noExample(format string, a ...any) error { return exampleError(fmt.Sprintf(format, a...)) }

// Example finds the listing the user showed (its title, price or link as the
// browser shows it), the repeated group around it, and selectors that read
// that group; the result is the page read with them. Where automatic
// extraction reads a listing the example names (a unit titled by its
// group, a listing only the page's data holds, a card whose selectors
// cannot be told apart) and selectors read fewer, the page needs none: the
// result is automatic extraction's.
func Example(root *html.Node, pageURL *url.URL, example string) (model.PageSelectors, model.PageResult, error) {
	pg := newPage(root, pageURL)
	target := pg.findExample(example)
	if target == nil {
		if r := pg.inData(example); len(r.Listings) > 0 {
			return model.PageSelectors{}, r, nil // a page that carries its listings as data: read already
		}
		return model.PageSelectors{}, model.PageResult{}, noExample("Nothing on this page reads %q: paste the title, price or link of one listing exactly as the page shows it.", example)
	}
	sel, r, err := pg.exampleList(target, example)
	if auto := pg.automatic(""); namesListing(auto.Listings, example) && len(auto.Listings) > len(r.Listings) {
		auto.Site = siteOf(pageURL)
		pg.finish(&auto)
		return model.PageSelectors{}, auto, nil
	}
	return sel, r, err
}

// namesListing: the example is (part of) one listing's title, price or URL.
func namesListing(ls []model.PageListing, example string) bool {
	want := strings.ToLower(clean(example))
	return want != "" && slices.ContainsFunc(ls, func(l model.PageListing) bool {
		return strings.Contains(strings.ToLower(l.Title), want) || strings.ToLower(l.Price) == want || strings.ToLower(l.URL) == want
	})
}

// exampleList is the list of cards around the example's element, and the
// selectors that read it.
func (pg *page) exampleList(target *html.Node, example string) (model.PageSelectors, model.PageResult, error) {
	var best *candidate
	all := candidates(pg)
	if auto, _ := bestList(pg, ""); auto.group != nil && holds(auto, target) {
		all = []candidate{auto} // the list automatic extraction reads holds the example: that list
	}
	for i := range all {
		if !holds(all[i], target) {
			continue
		}
		if n, m := len(distinctURLs(all[i])), 0; best != nil {
			m = len(distinctURLs(*best))
			if n < m || n == m && !tieBreak(all[i], *best) {
				continue
			}
		}
		best = &all[i]
	}
	if best == nil {
		return model.PageSelectors{}, model.PageResult{}, noExample("%q is on the page, but not in a list of listings with links: is it the title of one of the results?", example)
	}
	sel, ok := pg.derive(*best, target)
	if !ok {
		return model.PageSelectors{}, model.PageResult{}, noExample("Notifio found %q but no way to pick out the list around it: try another listing's title, or set the selectors under Advanced.", example)
	}
	c, err := compileSelectors(sel)
	if err != nil {
		return model.PageSelectors{}, model.PageResult{}, err
	}
	r := pg.bySelectors(c)
	r.Site = siteOf(pg.url)
	pg.finish(&r)
	return sel, r, nil
}

// findExample is the innermost element whose visible text holds the example
// (case and spacing aside), or the link that leads to it.
func (pg *page) findExample(example string) *html.Node {
	want := strings.ToLower(clean(example))
	if want == "" {
		return nil
	}
	if u, err := url.Parse(want); err == nil && (u.IsAbs() || strings.HasPrefix(want, "/")) {
		if lu, ok := resolveLink(pg.base, want); ok {
			var found *html.Node
			pg.doc.FindMatcher(matcher("a[href], [data-href], [data-url]")).EachWithBreak(func(_ int, s *goquery.Selection) bool {
				if l, ok := linkOf(s.Get(0), pg.base); ok && l.String() == lu.String() {
					found = s.Get(0)
				}
				return found == nil
			})
			return found
		}
	}
	var found *html.Node
	var walk func(n *html.Node) bool
	walk = func(n *html.Node) bool {
		if n.Type != html.ElementNode && n.Type != html.DocumentNode || n.Type == html.ElementNode && skipText(n) {
			return false
		}
		if !strings.Contains(strings.ToLower(text(n)), want) {
			return false
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if walk(c) {
				return true
			}
		}
		found = n
		return true
	}
	walk(pg.root)
	if found == nil {
		found = pg.labelled(want)
	}
	return found
}

// labelled is the first element whose aria-label, title or alt holds want
// (a card whose only title is a link's label).
func (pg *page) labelled(want string) *html.Node {
	var found *html.Node
	pg.doc.FindMatcher(matcher("[aria-label], [title], img[alt]")).EachWithBreak(func(_ int, s *goquery.Selection) bool {
		for _, k := range []string{"aria-label", "title", "alt"} {
			if strings.Contains(strings.ToLower(clean(s.AttrOr(k, ""))), want) {
				found = s.Get(0)
				return false
			}
		}
		return true
	})
	return found
}

// inData is the page read automatically when one of its listings is the
// example (a page whose listings are data, not markup, has no selector).
func (pg *page) inData(example string) model.PageResult {
	want := strings.ToLower(clean(example))
	r := pg.automatic("")
	for _, l := range r.Listings {
		if strings.Contains(strings.ToLower(l.Title), want) || l.URL == example || strings.ToLower(l.Price) == want {
			r.Site = siteOf(pg.url)
			r.Note = "This page carries its listings as data, not as markup: Notifio reads them automatically, no selectors needed."
			pg.finish(&r)
			return r
		}
	}
	return model.PageResult{}
}

// holds reports whether one of the list's cards holds n.
func holds(c candidate, n *html.Node) bool {
	for _, cd := range c.cards {
		for p := n; p != nil; p = p.Parent {
			if p == cd.node {
				return true
			}
		}
	}
	return false
}

// derive finds selectors that read the list: an item selector that matches
// its cards and no other element, the link inside them when it is not the
// item's first, and the title element when the user's example was the title.
func (pg *page) derive(c candidate, target *html.Node) (model.PageSelectors, bool) {
	members := map[*html.Node]bool{}
	for _, cd := range c.cards {
		members[cd.node] = true
	}
	want := map[string]bool{}
	for _, u := range distinctURLs(c) {
		want[u] = true
	}
	var sel model.PageSelectors
	links := []string{""}
	if l := c.cards[0].link; l != c.cards[0].node {
		links = append(links, l.Data, elementSelector(l))
	}
	link := ""
	items := pg.itemSelectors(c.cards[0].node, c.cards)
found:
	for _, strict := range []bool{true, false} { // first selectors that read nothing else (not a paid card of the same class elsewhere)
		for _, cand := range items {
			for _, l := range links {
				if pg.onlyInList(cand, members) && pg.readsList(cand, l, want, len(c.cards), strict) {
					sel.Item, link = cand, l
					break found
				}
			}
		}
	}
	if sel.Item == "" {
		return model.PageSelectors{}, false
	}
	sel.Link = link
	// The element the user's example is in reads the titles, unless it is a
	// price, a size or another figure: an example "672" must find the card,
	// never make every title "820 €" (issue 37).
	if txt := clean(text(target)); target != nil && target != c.cards[0].link && letters(txt) >= 2 && !onlyPrices(txt) && !priceLine(txt) &&
		!besideHeading(c, target) {
		if t := elementSelector(target); t != "" && t != "a" {
			if tx := text(target); tx != "" && findPrice(tx) == tx {
				sel.Price = t // the example is the listing's price
			} else {
				sel.Title = t
			}
		}
	}
	return sel, true
}

// besideHeading reports whether the example is outside the heading of the
// card that holds it: the heading is the card's title, and an example of its
// address ("Maybachufer 3, 12047 Berlin") finds the card but does not make
// every title an address (issue 37).
func besideHeading(c candidate, target *html.Node) bool {
	for _, cd := range c.cards {
		if !holds(candidate{cards: []card{cd}}, target) {
			continue
		}
		for p := target; p != nil && p != cd.node; p = p.Parent {
			if heading(p) {
				return false
			}
		}
		h := goquery.NewDocumentFromNode(cd.node).FindMatcher(matcher("h1, h2, h3, h4, h5, h6")).First()
		return h.Length() > 0 && letters(clean(text(h.Get(0)))) >= 2 && !strings.Contains(text(target), text(h.Get(0)))
	}
	return false
}

// heading reports whether n is an h1 to h6.
func heading(n *html.Node) bool {
	return n.Type == html.ElementNode && len(n.Data) == 2 && n.Data[0] == 'h' && n.Data[1] >= '1' && n.Data[1] <= '6'
}

// onlyInList reports whether every element the item selector matches is one
// of the list's cards or beside them in the list (an ad slot): a bare "li"
// that matched the menus, the footer and the feature lists inside the cards
// was saved because its link selector picked the cards out on this page
// (issue 37); on the next page a menu link of that class is a listing.
func (pg *page) onlyInList(item string, members map[*html.Node]bool) bool {
	parents := map[*html.Node]bool{}
	for n := range members {
		parents[n.Parent] = true
	}
	ok := true
	pg.doc.FindMatcher(matcher(item)).EachWithBreak(func(_ int, s *goquery.Selection) bool {
		n := s.Get(0)
		ok = members[n] || parents[n.Parent]
		return ok
	})
	return ok
}

// readsList reports whether an item (and link) selector leads to the list's
// listings: at least 95% of them, and few others (none when strict; items
// without a link, such as ad slots, lead nowhere and do not count), with
// about one item a card.
func (pg *page) readsList(item, link string, want map[string]bool, cards int, strict bool) bool {
	found := pg.itemCards(pg.doc.FindMatcher(matcher(item)), link)
	if len(found)*100 > cards*105+100 {
		return false // more items than the list has cards: elements around or inside them too
	}
	hit := map[string]bool{}
	other := 0
	for _, cd := range found {
		if u := cd.url.String(); want[u] {
			hit[u] = true
		} else {
			other++
		}
	}
	return len(hit)*100 >= len(want)*95 && other*20 <= len(want) && (!strict || other == 0)
}

// itemSelectors are CSS selectors for a list's cards, plainest first: the
// cards' tag, with one of their shared classes (the rarest on the page first),
// with all of them; then the same under their parent, then grandparent.
func (pg *page) itemSelectors(first *html.Node, cards []card) []string {
	shared := sharedClasses(cards)
	rarity := pg.classCounts()
	sort.SliceStable(shared, func(i, j int) bool { return rarity[shared[i]] < rarity[shared[j]] })
	own := []string{first.Data}
	for _, c := range shared[:min(len(shared), 4)] {
		own = append(own, first.Data+"."+cssIdent(c))
	}
	if len(shared) > 1 {
		all := first.Data
		for _, c := range shared {
			all += "." + cssIdent(c)
		}
		own = append(own, all)
	}
	out := append([]string(nil), own...)
	ctx := ""
	for p, level := first.Parent, 0; p != nil && p.Type == html.ElementNode && level < 2; p, level = p.Parent, level+1 {
		ctx = elementSelector(p) + " > " + ctx
		for _, o := range own {
			out = append(out, ctx+o)
		}
	}
	// Last, the list by its place among its parent's children of its tag: a
	// bare <ul> of results beside the sorting and paging <ul>s has no name.
	if p := first.Parent; p != nil && p.Type == html.ElementNode && p.Parent != nil && p.Parent.Type == html.ElementNode {
		at := elementSelector(p.Parent) + " > " + elementSelector(p) + ":nth-of-type(" + strconv.Itoa(ofType(p)) + ") > "
		for _, o := range own {
			out = append(out, at+o)
		}
	}
	return out
}

// ofType is n's place among its parent's children of its tag, from 1.
func ofType(n *html.Node) int {
	k := 1
	for s := n.PrevSibling; s != nil; s = s.PrevSibling {
		if s.Type == html.ElementNode && s.Data == n.Data {
			k++
		}
	}
	return k
}

// classCounts is how many elements of the page carry each class.
func (pg *page) classCounts() map[string]int {
	counts := map[string]int{}
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			for _, c := range strings.Fields(attrOf(n, "class")) {
				counts[c]++
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(pg.root)
	return counts
}

// sharedClasses are the classes every card has.
func sharedClasses(cards []card) []string {
	count := map[string]int{}
	for _, cd := range cards {
		seen := map[string]bool{}
		for _, c := range strings.Fields(attrOf(cd.node, "class")) {
			if !seen[c] {
				seen[c] = true
				count[c]++
			}
		}
	}
	var shared []string
	for c, n := range count {
		if n == len(cards) {
			shared = append(shared, c)
		}
	}
	sort.Strings(shared)
	return shared
}

// elementSelector is an element's tag with its id (when it reads like a
// name, not a number) or its classes.
func elementSelector(n *html.Node) string {
	if id := attrOf(n, "id"); id != "" && !strings.ContainsAny(id, "0123456789") {
		return n.Data + "#" + cssIdent(id)
	}
	s := n.Data
	for _, c := range strings.Fields(attrOf(n, "class")) {
		s += "." + cssIdent(c)
	}
	return s
}

// cssIdent escapes a class or id for a selector ("md:block" → "md\:block").
func cssIdent(s string) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 0x7f:
			b.WriteRune(r)
		case r >= '0' && r <= '9':
			if i == 0 {
				fmt.Fprintf(&b, "\\%x ", r)
			} else {
				b.WriteRune(r)
			}
		default:
			b.WriteString("\\" + string(r))
		}
	}
	return b.String()
}
