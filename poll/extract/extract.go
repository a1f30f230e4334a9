// Package extract turns a saved or fetched search-result page into listings: a
// pure function of the page, the URL it came from and the search's selectors.
// It never fetches. Pages are read with goquery over the one parsed tree.
//
// Order: the user's selectors; else the site's profile (selectors as data),
// falling back to automatic extraction when it finds nothing; else automatic
// extraction — the page's repeated result cards, and listings the page carries
// as data (JSON-LD, app state), each filling what the other lacks.
package extract

import (
	"fmt"
	"hash/fnv"
	"net/url"
	"slices"
	"strings"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"

	"notifio/internal/model"
)

// MaxListings is the most listings read from one page; a page with more is
// cut there (Result.Note says so). No result page shows that many.
const MaxListings = 1000

// Options tune extraction beyond the user's selectors.
type Options struct {
	// NoProfiles switches site profiles off (automatic extraction only), to
	// measure how a site nobody wrote a profile for fares.
	NoProfiles bool
	// Structure is the Result.Structure of the search's earlier polls ("" =
	// none known): the result list that was found there is taken again while
	// the page has it, so a search down to one result (beside a longer list
	// of "similar offers") keeps reading its own list; and while it shows as
	// many listings in the same shapes, it is read without searching the page
	// for a list (Method "learnt", learnt.go).
	Structure string
}

// Extract finds the listings on one result page. body is the page as UTF-8 (the
// fetcher decodes the charset); pageURL is the absolute URL it came from.
func Extract(body []byte, pageURL *url.URL, sel model.PageSelectors) (model.PageResult, error) {
	return ExtractWith(body, pageURL, sel, Options{})
}

// ExtractWith is Extract with options.
func ExtractWith(body []byte, pageURL *url.URL, sel model.PageSelectors, opt Options) (model.PageResult, error) {
	return ExtractTree(parse(body), pageURL, sel, opt)
}

// Parse parses a page the way Extract does (the HTML5 parser, with a tolerant
// fallback for pages nested too deep), so the classifier and extraction share
// one tree.
func Parse(body []byte) *html.Node { return parse(body) }

// ExtractTree is ExtractWith on a tree from Parse. It only reads the tree, so
// several extractions may share one.
func ExtractTree(root *html.Node, pageURL *url.URL, sel model.PageSelectors, opt Options) (model.PageResult, error) {
	if pageURL == nil || !pageURL.IsAbs() || pageURL.Host == "" {
		return model.PageResult{}, fmt.Errorf("the page URL must be absolute (with http:// or https:// and a host), got %q", fmt.Sprint(pageURL))
	}
	us, err := compileSelectors(sel)
	if err != nil {
		return model.PageResult{}, err
	}
	pg := newPage(root, pageURL)
	var r model.PageResult
	switch prof := profileFor(pageURL.Hostname()); {
	case us != nil:
		r = pg.bySelectors(us)
		if len(r.Listings) == 0 {
			if auto := pg.automatic(opt.Structure); len(auto.Listings) > 0 {
				auto.Note = "The search's own selectors (Advanced) found nothing on this page — the site may have changed its layout; automatic extraction was used. Show Notifio one listing again, or clear the selectors."
				auto.Fallback = model.MethodSelectors
				r = auto
			}
		}
	case prof != nil && !opt.NoProfiles:
		r = pg.byProfile(prof)
		if len(r.Listings) == 0 && !r.NoResults {
			auto := pg.automatic(opt.Structure)
			if len(auto.Listings) > 0 {
				auto.Note = fmt.Sprintf("The %s profile found nothing on this page (the site may have changed its layout); automatic extraction was used.", prof.Name)
				auto.Fallback = prof.Name
				r = auto
			}
		}
	default:
		r = pg.automatic(opt.Structure)
	}
	if r.Site == "" {
		r.Site = siteOf(pageURL)
	}
	pg.finish(&r)
	return r, nil
}

// page is one page being read.
type page struct {
	root *html.Node
	doc  *goquery.Document
	url  *url.URL // where the page came from
	base *url.URL // what its links resolve against (<base href>)

	ix        *index    // the page's index, once asked for (see index)
	lowerText *string   // pageText in lower case, once asked for
	saysNone  *bool     // whether it holds a common no-results phrase, once asked
	memo      *skipMemo // its elements and classes as judged, for the list and its cards
}

func newPage(root *html.Node, u *url.URL) *page {
	base := u
	if href, ok := baseHref(root); ok {
		if b, err := url.Parse(strings.TrimSpace(href)); err == nil {
			base = u.ResolveReference(b)
		}
	}
	return &page{root: root, doc: goquery.NewDocumentFromNode(root), url: u, base: base, memo: newSkipMemo()}
}

// baseHref is the href of the page's first <base href>: a walk that stops
// there (a selector query would collect every match of the whole page first).
func baseHref(n *html.Node) (string, bool) {
	if n.Type == html.ElementNode && n.Data == "base" {
		for _, a := range n.Attr {
			if a.Key == "href" {
				return a.Val, true
			}
		}
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if href, ok := baseHref(c); ok {
			return href, true
		}
	}
	return "", false
}

// index is the page's index (its elements, groups and data sources), built
// at the first ask.
func (pg *page) index() *index {
	if pg.ix == nil {
		pg.ix = newIndex(pg.root, pg.base, pg.memo)
	}
	return pg.ix
}

// automatic reads a page no profile or selector describes: the repeated
// result cards and the listings carried as data, whichever shows more, the
// other filling in what it lacks. A list learnt on earlier polls is read
// directly while the page shows it as it did (readLearnt).
func (pg *page) automatic(structure string) model.PageResult {
	if r, ok := pg.readLearnt(structure); ok {
		return r
	}
	list, ok := bestList(pg, learntKey(structure))
	var cards []model.PageListing
	if ok {
		cards = pg.readCards(list.cards, fieldSel{})
	}
	if complete(cards) && !pg.emptySlots(list) {
		return model.PageResult{Method: model.MethodCards, Listings: cards, Container: true, Structure: learn(list, cards)}
	}
	js := jsonOf(pg.index())
	sv := surveyOf(js.docs, pg.base.Host)
	recs, method := bestRecords(sv.arrays)
	data := pg.recordListings(recs, sv.paths)
	js.release()
	switch {
	case len(data) > len(cards) && coveredBy(cards, data):
		enrichAll(data, cards)
		return model.PageResult{Method: method, Listings: data, Container: true}
	case len(cards) > 0:
		enrichAll(cards, data)
		return model.PageResult{Method: model.MethodCards, Listings: cards, Container: true, Structure: learn(list, cards)}
	case len(data) > 0:
		return model.PageResult{Method: method, Listings: data, Container: true}
	}
	r := model.PageResult{Method: model.MethodNone, NoResults: pg.saysNoResults(nil)}
	return r
}

// emptySlots reports a list whose group holds members that show nothing
// (slots the page fills while the user scrolls): its data may hold the rest.
// (The members' lines are the page's, read once: a member that is a card has
// them read for its card.)
func (pg *page) emptySlots(list candidate) bool {
	return list.group != nil && len(list.group.members) > len(list.cards) &&
		slices.ContainsFunc(list.group.members, func(m *html.Node) bool { return len(pg.memo.lines(m)) == 0 })
}

// complete reports a card list that the page's data could not add to: enough
// cards that each show a title and a price. (Decoding a page's JSON costs more
// than parsing its HTML; it is read when it can fill or extend the cards.)
func complete(cards []model.PageListing) bool {
	if len(cards) < completeList {
		return false
	}
	for _, l := range cards {
		if l.Title == "" || l.Price == "" {
			return false
		}
	}
	return true
}

// completeList is the fewest cards a list needs to be read without its data:
// a shorter list may be the first few of a longer one the data holds.
const completeList = 8

// readCards reads each card of a list, ads left out, ids given.
func (pg *page) readCards(cards []card, fs fieldSel) []model.PageListing {
	var kept []card
	for _, c := range cards {
		if len(kept) > MaxListings {
			break // finish says the page was cut
		}
		if !isAd(c, pg.memo) {
			kept = append(kept, c)
		}
	}
	dropSharedParams(kept)
	ids := cardIDs(kept, pg.url)
	var units map[*html.Node]string
	if fs.Title == "" {
		units = pg.unitTitles(kept)
	}
	out := make([]model.PageListing, 0, len(kept))
	var badged []int // listings a badge or their link marks as highlighted
	for i, c := range kept {
		if ids[i] == "" {
			continue
		}
		l := readCard(c, pg.base, fs, pg.memo)
		l.ID = ids[i]
		if t := units[c.node]; t != "" {
			l.Title = t
		}
		if !l.Promoted && pg.highlighted(c) {
			badged = append(badged, len(out))
		}
		out = append(out, l)
	}
	if len(badged) < len(out) { // a badge every card shows marks none
		for _, i := range badged {
			out[i].Promoted = true
		}
	}
	return out
}

// recordListings turns data records into listings; a record without a link
// takes the page link that carries its id.
func (pg *page) recordListings(recs []record, paths []string) []model.PageListing {
	var out []model.PageListing
	for _, r := range recs {
		if r.url == "" && r.id != "" {
			r.url = linkWithID(pg.root, pg.base, r.id)
		}
		if l, ok := r.listing(pg.base, paths); ok {
			out = append(out, l)
		}
	}
	return out
}

// coveredBy reports whether the data listings include the cards (so the data
// is the fuller reading of the same list, not another list).
func coveredBy(cards, data []model.PageListing) bool {
	if len(cards) == 0 {
		return true
	}
	hit := 0
	for _, c := range cards {
		if match(c, data) >= 0 {
			hit++
		}
	}
	return hit*2 >= len(cards)
}

// match is the index of the listing in ls with the same id or URL, -1 if none.
func match(l model.PageListing, ls []model.PageListing) int {
	for i, o := range ls {
		if o.ID == l.ID && l.ID != "" || o.URL == l.URL {
			return i
		}
	}
	return -1
}

func enrichAll(dst, src []model.PageListing) {
	for i := range dst {
		if j := match(dst[i], src); j >= 0 {
			enrich(&dst[i], src[j])
		}
	}
}

// finish makes the listings safe to keep: ids unique, at most MaxListings,
// never nil, sizes and rooms as numbers; and on a page without listings,
// whether it is a bot check.
func (pg *page) finish(r *model.PageResult) {
	seen := map[string]bool{}
	out := make([]model.PageListing, 0, len(r.Listings))
	for _, l := range r.Listings {
		if l.ID == "" {
			l.ID = hashID(l.URL)
		}
		l.ID = clean(l.ID)
		if seen[l.ID] {
			continue
		}
		seen[l.ID] = true
		if len(out) == MaxListings {
			r.Note = strings.TrimSpace(r.Note + fmt.Sprintf(" The page holds more than %d listings; only the first %d were read.", MaxListings, MaxListings))
			break
		}
		readAmounts(&l)
		out = append(out, l)
	}
	r.Listings = out
	if len(out) == 0 && !r.NoResults {
		r.Blocked = pg.blocked()
	}
}

// Fingerprint identifies a page with the search it is read for (its URL and
// selectors change what extraction makes of it); never 0. A page whose
// fingerprint is that of the last page read holds the same bytes, so the same
// listings at the same prices: it need not be read again. Nothing short of
// the same bytes is taken as unchanged (a page with the same links may show a
// new price).
func Fingerprint(body []byte, pageURL string, sel model.PageSelectors) uint64 {
	h := fnv.New64a()
	for _, s := range []string{pageURL, sel.Item, sel.Link, sel.Title, sel.Price} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	h.Write(body)
	return h.Sum64() | 1
}

// enrich fills what a listing lacks from another reading of it.
func enrich(l *model.PageListing, o model.PageListing) {
	for _, f := range []struct {
		dst *string
		src string
	}{
		{&l.Title, o.Title}, {&l.Location, o.Location}, {&l.Size, o.Size}, {&l.Rooms, o.Rooms}, {&l.Image, o.Image},
	} {
		if *f.dst == "" {
			*f.dst = f.src
		}
	}
	if l.Price == "" && o.Price != "" {
		l.Price, l.PriceValue, l.Currency = o.Price, o.PriceValue, o.Currency
	}
}
