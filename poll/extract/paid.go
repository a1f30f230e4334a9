package extract

import (
	"net/url"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/net/html"
)

// This file tells paid placements from results: an ad (a TOP ad, a sponsored
// slot, a block of premium ads) is no result; a paid highlight of a result
// (premium, featured, a badge) is one, promoted.

// promotedWords mark a paid highlight of a result in the list itself
// (a "sponsored" result is one too: it is a listing, shown or held back by
// the user's --hide-promoted, not dropped).
var promotedWords = []string{"premium", "highlight", "featured", "promoted", "boosted", "bumped", "top-listing", "spotlight", "sponsored"}

// badgeWords are the whole visible text of a badge that marks a paid result.
var badgeWords = map[string]bool{"anzeige": true, "gesponsert": true, "sponsored": true, "werbung": true, "promoted": true}

// promoted reports whether the card (or the wrapper that is all it holds) is
// marked as a paid highlight by its class, or shows a badge that says so.
// Badge classes inside a card do not count: some sites put every badge in
// every card and show them by style; a badge's visible text does.
func promoted(n *html.Node, m *skipMemo) bool {
	for e := n; e != nil; e = onlyChild(e) {
		if containsAny(strings.ToLower(attrOf(e, "class")), promotedWords) {
			return true
		}
	}
	return badgeInside(n, m)
}

// badgeInside reports an element in n whose whole visible text is a badge
// word ("Anzeige", "Gesponsert", "Sponsored").
func badgeInside(n *html.Node, m *skipMemo) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode || m.skip(c) {
			continue
		}
		if !hasElementChild(c) { // a badge is a leaf: its text is its text nodes'
			if t := strings.TrimSpace(leafText(c)); t != "" && len(t) <= maxBadge && badgeWords[strings.ToLower(clean(t))] {
				return true
			}
		} else if badgeInside(c, m) {
			return true
		}
	}
	return false
}

// leafText is the text of an element with no element inside, as lines reads
// it before cleaning.
func leafText(n *html.Node) string {
	if c := n.FirstChild; c != nil && c.NextSibling == nil && c.Type == html.TextNode {
		return c.Data
	}
	var b strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
	}
	return b.String()
}

// hasElementChild reports whether n holds an element.
func hasElementChild(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			return true
		}
	}
	return false
}

// maxBadge is longer than any badge word with the spaces a page may put in
// it: a longer text is not read as one. It also bounds the lines isAd
// lower-cases to compare with adLabels (lower-casing may shrink a text to a
// third of its bytes: TestAdLabelsFitMaxBadge).
const maxBadge = 64

// promotedLabels are a badge's words, as a line of its own, for a paid
// highlight of a result ("Premium", "Top"); ad labels are adLabels.
var promotedLabels = map[string]bool{
	"premium": true, "top": true, "featured": true, "highlight": true, "highlighted": true, "promoted": true,
	"hervorgehoben": true, "top-angebot": true, "promowane": true, "wyróżnione": true, "en vedette": true, "destacado": true, "in evidenza": true,
}

// highlighted reports a card that shows a badge of a paid highlight (a line
// of its own, or beside the price), or whose link says it was placed as
// promoted (promotedLink).
func (pg *page) highlighted(c card) bool {
	if promotedLink(attrOf(c.link, "href")) {
		return true
	}
	return slices.ContainsFunc(pg.memo.lines(c.node), func(l string) bool {
		if len(l) > 40 {
			return false // a badge, or a badge beside a price, is short
		}
		lower := strings.ToLower(l)
		if !mentionsBadge(lower) {
			return false // no badge in it: its price need not be looked for
		}
		if p := pg.memo.priceIn(l); p != "" {
			lower = strings.ToLower(strings.TrimSpace(strings.Replace(l, p, "", 1))) // the badge beside the price, "CHF 1,714.– Premium"
		}
		return promotedLabels[lower]
	})
}

// mentionsBadge reports a lower-case line that holds one of promotedLabels
// (as a badge, or beside a price).
func mentionsBadge(lower string) bool {
	for w := range promotedLabels {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

// promotedLink reports a listing link whose query says where the site
// placed it, and that is a paid highlight: a parameter whose value holds one
// of promotedParamWords (olx's "?search_reason=search|promoted",
// "?source=list|sponsored", "?reason=promowane"), which the listing's URL
// leaves out as tracking. A parameter's name says nothing ("?featured=false").
func promotedLink(href string) bool {
	_, query, ok := strings.Cut(href, "?")
	if !ok {
		return false
	}
	query, _, _ = strings.Cut(query, "#")
	for param := range strings.SplitSeq(query, "&") {
		_, v, ok := strings.Cut(param, "=")
		if !ok {
			continue
		}
		v, err := url.QueryUnescape(v)
		if err == nil && slices.ContainsFunc(strings.FieldsFunc(strings.ToLower(v), func(r rune) bool {
			return !unicode.IsLetter(r)
		}), func(w string) bool { return promotedParamWords[w] }) {
			return true
		}
	}
	return false
}

// promotedParamWords are the words of a paid highlight in a link's query
// value: the one-word marks of promotedWords and promotedLabels (promoted,
// featured, sponsored, boosted, hervorgehoben, promowane, wyróżnione,
// destacado …), without those a query also uses for other things ("top"
// sorts, "premium" or "highlight" may be a category or the search's words).
var promotedParamWords = func() map[string]bool {
	words := map[string]bool{}
	add := func(w string) {
		if !strings.ContainsFunc(w, func(r rune) bool { return !unicode.IsLetter(r) }) && w != "top" && w != "premium" && w != "highlight" {
			words[w] = true
		}
	}
	for _, w := range promotedWords {
		add(w)
	}
	for w := range promotedLabels {
		add(w)
	}
	return words
}()

// onlyChild is n's single element child, nil when it has none or several.
func onlyChild(n *html.Node) *html.Node {
	var only *html.Node
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && !skipStructure(c) {
			if only != nil {
				return nil
			}
			only = c
		}
	}
	return only
}

// adWords mark a paid placement that is not a result.
var adWords = map[string]bool{
	"is-topad": true, "topad": true, "top-ad": true, "ad": true, "ads": true, "advert": true, "advertisement": true,
	"ad-slot": true, "adslot": true, "banner": true, "commercial": true,
	"premium_sticky_asset": true, "partner-ad": true, "native-ad": true,
}

// isAd reports whether the card, or its link, is marked as a paid placement
// outside the results (TOP ads, premium blocks, sponsored slots), or shows a
// line that labels it so ("Betalt plassering", "Sponsored").
func isAd(c card, memo *skipMemo) bool {
	marked := adInside(c.node)
	for e := c.link; e != nil && e != c.node && !marked; e = e.Parent {
		marked = adMarked(e)
	}
	for e := c.node; e != nil && !marked; e = onlyChild(e) {
		marked = adMarked(e)
	}
	return marked || slices.ContainsFunc(memo.lines(c.node), func(l string) bool {
		return len(l) <= maxBadge && adLabels[strings.ToLower(l)] // a label is short: a card's long lines need no lower-casing
	})
}

// adLabels are the words a card shows, as a line of its own, when it is a
// paid placement and not a result: a highlight of a result says "Premium" or
// "Top" and stays (see promoted).
var adLabels = map[string]bool{
	"paid placement": true, "betalt plassering": true, "betald placering": true, "betalt placering": true,
	"sponsored": true, "gesponsert": true, "sponsorisé": true, "sponsorizzato": true, "patrocinado": true,
	"advertisement": true, "werbung": true, "reklama": true, "ad": true,
}

// adInside reports a card holding an element the site marks as a paid
// placement by a data attribute (a premium card's links).
func adInside(n *html.Node) bool {
	if adData(n) {
		return true
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && adInside(c) {
			return true
		}
	}
	return false
}

// adValue: a data attribute's value that marks a paid placement, by one of
// its words ("premium_ads", "promo_top_ads", "sponsored"); long values are
// data, not marks.
func adValue(v string) bool {
	if len(v) > 40 {
		return false
	}
	return slices.ContainsFunc(strings.FieldsFunc(strings.ToLower(v), func(r rune) bool { return r == '_' || r == '-' || r == ' ' }), func(w string) bool {
		return w == "ads" || w == "topads" || w == "sponsored" || w == "advertisement"
	})
}

// adData: one of n's data attributes marks it as a paid placement.
func adData(n *html.Node) bool {
	return slices.ContainsFunc(n.Attr, func(a html.Attribute) bool { return strings.HasPrefix(a.Key, "data-") && adValue(a.Val) })
}

// adMarked: n's class or data attributes mark it as a paid placement.
func adMarked(e *html.Node) bool {
	return slices.ContainsFunc(strings.Fields(strings.ToLower(attrOf(e, "class"))), func(c string) bool { return adWords[c] }) || adData(e)
}
