package extract

import (
	"cmp"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"notifio/internal/model"
)

// This file reads one card: its title, price, size, rooms, location, picture
// and promotion, the same way for every site. A profile or the user's
// selectors may name an element for a field; what they leave open is read here.

// fieldSel names elements of a card for fields; "" means read it generically.
type fieldSel struct {
	Title, Price, Location, Size, Rooms string
	Promoted                            string // cards that are paid highlights of a result
	// LocationAfter: the location is what follows the first occurrence of
	// this in the location element ("3er WG | Köln Ehrenfeld | …" after "|").
	LocationAfter string
}

// readCard reads the listing of one card whose URL is known; memo is the
// page's (see skipMemo).
func readCard(c card, base *url.URL, fs fieldSel, memo *skipMemo) model.PageListing {
	s := goquery.NewDocumentFromNode(c.node).Selection
	f := factsOf(c.node, memo)
	nm := namedIn(c.node, memo)
	c.lines = memo.lines(c.node)
	l := model.PageListing{URL: c.url.String()}
	l.Title = reBadge.ReplaceAllString(pick(s, fs.Title, func() string { return cardTitle(s, c, f, nm) }), "")
	l.Price = pick(s, fs.Price, func() string {
		if p := cardPrice(c.lines, f, nm); p != "" {
			return p
		}
		return findPrice(clean(linkLabel(s, c))) // "… - Sassenberg - 2.474.300 € - 532 m²"
	})
	if fs.Price != "" {
		l.Price = cmp.Or(findPrice(l.Price), l.Price)
	}
	l.PriceValue, l.Currency = priceValue(l.Price)
	l.Location = pick(s, fs.Location, func() string { return cardLocation(c.lines, f, nm, l.Title) })
	if _, after, ok := strings.Cut(l.Location, fs.LocationAfter); ok && fs.LocationAfter != "" {
		l.Location = after
	}
	l.Location = strings.TrimSpace(reDistance.ReplaceAllString(l.Location, ""))
	fl := factLines(c.lines, l.Title)
	l.Size = pick(s, fs.Size, func() string { return cardSize(fl, f) })
	l.Rooms = pick(s, fs.Rooms, func() string { return cardRooms(fl, f) })
	l.Image = cardImage(s, base)
	l.Promoted = promoted(c.node) || fs.Promoted != "" && s.IsMatcher(matcher(fs.Promoted))
	return l
}

// pick reads a field with the named selector, else generically.
func pick(s *goquery.Selection, sel string, generic func() string) string {
	if sel == "" {
		return generic()
	}
	if m := s.FindMatcher(matcher(sel)).First(); m.Length() > 0 {
		return text(m.Get(0))
	}
	return ""
}

var (
	reCounter    = regexp.MustCompile(`^\d+\s*/\s*\d+$`)
	rePostcode   = regexp.MustCompile(`^(?:[A-Z]{1,2}-)?\d{4,5}\s+\p{Lu}`)
	titleHint    = hintSet("title", "titel", "headline", "heading", "subject", "name")
	notTitleHint = hintSet("subtitle", "username", "agent", "agency", "broker", "company", "provider", "publisher", "realtor", "makler", "user")
	priceHint    = hintSet("price", "prices", "preis", "kaufpreis", "mietpreis", "miete", "kaltmiete", "rent", "cost", "betrag", "amount")
	notPriceHint = hintSet("old", "before", "previous", "sqm", "m2", "qm", "label", "finanzierung", "rate", "monthly", "strike")
	placeHint    = hintSet("location", "address", "adress", "addr", "place", "city", "district", "region", "geo", "standort", "ort", "lage", "locality", "marker", "pin")
	addressHint  = hintSet("address", "adress", "addr", "adresse", "street", "strasse")
	reDistance   = regexp.MustCompile(`\s*\(?\s*(?:ca\.\s*)?\d+(?:[.,]\d+)?\s?km\s*\)?$`)
)

// hints are the words of the attributes that name what an element holds
// (class, itemprop, data-testid, id; an <address> is an address), split at punctuation and camelCase —
// "SearchResultCardContent-module__5Ax9ZW__price" holds "price" — of those
// any hint set knows (nil when none). The class's words come from m, judged
// once per page (a card's classes repeat on every card).
func hints(n *html.Node, m *skipMemo) []string {
	words := slices.Clip(m.hintsOfClass(attrOf(n, "class"))) // shared: append copies it
	for _, key := range []string{"itemprop", "data-testid", "data-test", "data-qa", "id"} {
		words = appendHintWords(words, attrOf(n, key))
	}
	if n.DataAtom == atom.Address && !slices.Contains(words, "address") {
		words = append(words, "address") // the element names what it holds
	}
	return words
}

// hintsOfClass is appendHintWords of a class attribute, once per page.
func (m *skipMemo) hintsOfClass(class string) []string {
	if m == nil {
		return appendHintWords(nil, class)
	}
	words, ok := m.classHints[class]
	if !ok {
		words = appendHintWords(nil, class)
		m.classHints[class] = words
	}
	return words
}

// appendHintWords appends the words of v that a hint set knows.
func appendHintWords(words []string, v string) []string {
	start := -1
	for i := 0; i <= len(v); i++ {
		letter := i < len(v) && (v[i] >= 'a' && v[i] <= 'z' || v[i] >= 'A' && v[i] <= 'Z')
		upper := letter && v[i] <= 'Z'
		if start >= 0 && (!letter || upper && v[i-1] >= 'a') {
			if w := strings.ToLower(v[start:i]); hintVocabulary[w] && !slices.Contains(words, w) {
				words = append(words, w)
			}
			start = -1
		}
		if letter && start < 0 {
			start = i
		}
	}
	return words
}

// hintVocabulary is every word a hint set knows: only those are kept.
var hintVocabulary = func() map[string]bool {
	all := map[string]bool{}
	for _, h := range []hintWords{titleHint, notTitleHint, priceHint, notPriceHint, placeHint, addressHint} {
		for w := range h {
			all[w] = true
		}
	}
	return all
}()

// named is an element of a card whose attributes name what it holds.
type named struct {
	node  *html.Node
	words []string
}

// namedIn lists a card's elements that have hint words, in document order.
func namedIn(n *html.Node, m *skipMemo) []named {
	var out []named
	var walk func(*html.Node)
	walk = func(e *html.Node) {
		if e.Type != html.ElementNode {
			return
		}
		ct := m.classOf(e)
		icon := e.DataAtom == atom.Svg || iconGlyphAs(e, ct.icon)
		if m.skip(e) && !(icon && !hiddenAs(e, ct.hides)) {
			return
		}
		if w := hints(e, m); len(w) > 0 {
			out = append(out, named{e, w})
		}
		if icon {
			return // an icon names what stands beside it; it holds no text
		}
		for c := e.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return out
}

// hintSet matches hint words.
type hintWords map[string]bool

func hintSet(words ...string) hintWords {
	h := hintWords{}
	for _, w := range words {
		h[w] = true
	}
	return h
}

// in reports whether any of an element's hint words is in the set.
func (h hintWords) in(words []string) bool {
	return slices.ContainsFunc(words, func(w string) bool { return h[w] })
}

// cardTitle: the card's own heading; else an element named as its title; else
// the listing link's text; else the link's aria-label or title without the
// parts the card shows elsewhere; else a picture's alt text.
func cardTitle(s *goquery.Selection, c card, f facts, nm []named) string {
	return untruncated(shownTitle(s, c, f, nm), c.link)
}

// reBadge is a badge written before the title ("NEU Sonnige 3-Zimmer-Wohnung").
var reBadge = regexp.MustCompile(`^(?:NEU|NEW|TOP|HOT)\s+`)

// untruncated gives the full title when the card cuts it short ("Gemein…")
// and the link's title attribute holds the whole of it.
func untruncated(t string, link *html.Node) string {
	cut := strings.TrimSuffix(strings.TrimSuffix(t, "…"), "...")
	if cut == t || cut == "" {
		return t
	}
	if full := clean(attrOf(link, "title")); strings.HasPrefix(full, strings.TrimSpace(cut)) {
		return full
	}
	return t
}

// factsLine: a summary of the card's facts ("2 Zimmer, 50 m², 800 € | …").
func factsLine(ln string) bool {
	n := 0
	for _, found := range []bool{findPrice(ln) != "", findSize(ln) != "", findRooms(ln) != ""} {
		if found {
			n++
		}
	}
	return n >= 2
}

// labelled: a "Label: value" line.
func labelled(ln string) bool {
	k, _, ok := strings.Cut(ln, ":")
	return ok && label(k) != ""
}

func shownTitle(s *goquery.Selection, c card, f facts, nm []named) string {
	if t := headingTitle(s); t != "" {
		return t
	}
	for _, e := range nm {
		if titleHint.in(e.words) && !notTitleHint.in(e.words) {
			if t := namedTitle(e.node); titleText(t) && !factsLine(t) && !callToAction(t) {
				return t
			}
		}
	}
	// A link around the whole card gives its first title-like line, which
	// may be a badge: its address line says more.
	wraps := len(lines(c.link))*5 >= len(c.lines)*4
	if t := addressTitle(s, nm); t != "" && wraps {
		return t
	}
	if t := linkTitle(s, c); t != "" {
		return t
	}
	if t := labelTitle(s, c); t != "" && !callToAction(t) {
		return t
	}
	if t := addressTitle(s, nm); t != "" {
		return t
	}
	if t := f.get(titleLabels); t != "" {
		return t
	}
	for _, ln := range c.lines {
		if len(strings.Fields(ln)) >= 3 && titleLike(ln) && !callToAction(ln) && !labelled(ln) && !factsLine(ln) {
			return ln
		}
	}
	return strings.TrimSpace(s.FindMatcher(matcher("img[alt]")).First().AttrOr("alt", ""))
}

// namedTitle is the text of an element named as the title; one that holds
// the card's facts under the title in short lines of their own ("St. Helens
// Gardens W10" over "Terraced", "3", "2") gives its first line.
func namedTitle(n *html.Node) string {
	ls := lines(n)
	if len(ls) > 1 && titleText(ls[0]) && !slices.ContainsFunc(ls[1:], func(l string) bool { return len(strings.Fields(l)) > 3 }) {
		return ls[0]
	}
	return text(n)
}

var reCallToAction = regexp.MustCompile(`(?i)^(alle details|details|mehr( erfahren| details| infos)?|more|view|see|ansehen|anzeigen|read more|weiterlesen|zur anzeige|zum angebot|zum expos[eé]|expos[eé] ansehen|show|open)\b`)

// callToAction: link words that say what clicking does, not what the listing is.
func callToAction(t string) bool {
	t = strings.TrimSpace(t)
	return reCallToAction.MatchString(t) || reControl.MatchString(t)
}

// reControl is the whole text of a control on a card (a button, a tab, a
// widget's caption), never a listing's title.
var reControl = regexp.MustCompile(`(?i)^(?:save|saved|map|show on map|view on map|travel time|commute|share|compare|contact|call|message|hide|report|favou?rites?|add to favou?rites|merken|gemerkt|speichern|karte|auf der karte|fahrzeit|teilen|vergleichen|kontakt|zapisz|mapa|pokaż na mapie|udostępnij|enregistrer|carte|partager|guardar|mapa|compartir|salva|mappa|condividi|lagre|kart|del|spara|karta|dela|詳細を見る|詳細|詳しく見る|查看详情)$`)

// headingTitle is the text of the card's most important heading that is not a
// location or a price line.
func headingTitle(s *goquery.Selection) string {
	best, bestLevel := "", 7
	s.FindMatcher(matcher("h1, h2, h3, h4, h5, h6, [role=heading]")).Each(func(_ int, h *goquery.Selection) {
		n := h.Get(0)
		level := 6
		if len(n.Data) == 2 && n.Data[0] == 'h' {
			level, _ = strconv.Atoi(n.Data[1:])
		}
		t := headingText(n)
		if level < bestLevel && titleLike(t) && !placeHint.in(hints(n, nil)) {
			best, bestLevel = t, level
		}
	})
	return best
}

// headingText is a heading's text without the place lines inside it: a card
// may write the postcode and town under the street in one heading
// ("Kerkstraat 12 A" over "1017 GB Amsterdam").
func headingText(n *html.Node) string {
	ls := lines(n)
	if kept := slices.DeleteFunc(slices.Clone(ls), placeLike); len(kept) > 0 {
		ls = kept
	}
	return strings.Join(ls, " ") // as text(n) joins them
}

// titleLike: text that can be a listing's title (not a price, a place, a counter).
func titleLike(t string) bool { return titleText(t) && !placeLike(t) }

// titleText: text that can be a title where the card says it is one, though
// it may read as a place ("2204 Rio Grande St" as "40627 Düsseldorf" does).
func titleText(t string) bool {
	if len([]rune(t)) < 3 || reCounter.MatchString(t) || dateLine(t) {
		return false
	}
	return !(letters(t) < 1 || onlyPrices(t) || priceLine(t))
}

// reDateLine: a date after the word for posting it ("dodane: 27-10-2017",
// "added: 2017-10-27", "eingestellt am 27.10.2017") or an age ("14 mins ago",
// "vor 3 Tagen", "2 godz. temu"); a date alone may be the title's ("bis
// 28.09.2023").
var reDateLine = regexp.MustCompile(`(?i)\b(?:added|posted|listed|updated|dodane|dodano|eingestellt(?: am)?|online seit|hinzugefügt|aktualisiert|publié le|pubblicato|publicado|lagt inn|upplagd)\s*:?\s*(?:\d{1,2}[-./]\d{1,2}[-./]\d{2,4}|\d{4}-\d{2}-\d{2})\b|\b\d+\s*(?:mins?|minutes?|hours?|hrs?|h|days?|weeks?)\s+ago\b|\bvor\s+\d+\s+(?:Minuten|Stunden|Tagen|Wochen)\b|\b\d+\s+(?:min|godz|dni)\.?\s+temu\b`)

// dateLine: a line that says when the listing was posted, with a few words
// of its kind or place ("Mieszkanie do wynajęcia, dodane: 27-10-2017",
// "14 mins ago · Brockton"), not a title.
func dateLine(t string) bool {
	loc := reDateLine.FindStringIndex(t)
	return loc != nil && len(strings.Fields(t[:loc[0]]+t[loc[1]:])) <= 6
}

// onlyPrices: a text of prices and no words ("1.250 €", "ab 1.234 € – 2.345 €");
// one longer than 80 bytes has words.
func onlyPrices(t string) bool {
	return len(t) <= 80 && hasDigit(t) && mentionsCurrency(t) && letters(rePrice.ReplaceAllString(t, "")) < 2
}

// priceLine: a price and a few words of its period or kind after it, no
// other number ("€2,450 per month", "850 € Kaltmiete", "£2,600 pcm").
func priceLine(t string) bool {
	t = strings.TrimSpace(t)
	if len(t) > 60 {
		return false // a price and a few words are short
	}
	p := findPrice(t)
	if p == "" || !strings.HasPrefix(t, p) {
		return false
	}
	rest := t[len(p):]
	return !hasDigit(rest) && len(strings.Fields(rest)) <= 3
}

// placeLike: a postcode line ("40627 Düsseldorf") or a distance.
func placeLike(t string) bool {
	return rePostcode.MatchString(t) && len(strings.Fields(t)) <= 5
}

// addressTitle: a card with no heading and no element named as its title is
// titled by its address line (an <address>, or an element named as the
// address), as the card shows it first.
func addressTitle(s *goquery.Selection, nm []named) string {
	if a := s.FindMatcher(matcher("address")).First(); a.Length() > 0 {
		if t := text(a.Get(0)); titleText(t) {
			return t
		}
	}
	for _, e := range nm {
		if addressHint.in(e.words) {
			if t := text(e.node); titleText(t) && !factsLine(t) {
				return t
			}
		}
	}
	return ""
}

// linkTitle: the text of a link to the listing. A link that wraps the whole
// card gives its first line that is a title and not a price or a fact.
func linkTitle(s *goquery.Selection, c card) string {
	best := ""
	s.FindMatcher(matcher("a[href]")).AddNodes(c.node).Each(func(_ int, a *goquery.Selection) {
		n := a.Get(0)
		if u, ok := resolveLink(c.url, attrOf(n, "href")); !ok || u.String() != c.url.String() {
			return
		}
		for _, ln := range lines(n) {
			if titleLike(ln) && findSize(ln) != ln && findRooms(ln) != ln && !bareAmount(ln) && !callToAction(ln) {
				if len(ln) > len(best) && best == "" {
					best = ln
				}
				return
			}
		}
	})
	return best
}

// labelTitle: aria-label or title of the listing link, cut before the first
// part the card shows elsewhere or that is a fact ("Title, 40627 Düsseldorf,
// 475.000 €" → "Title"; "Title - Sassenberg - 2.474.300 € - 532 m²" →
// "Title"); a card line that begins with that part is the fuller title.
func labelTitle(s *goquery.Selection, c card) string {
	label := linkLabel(s, c)
	if label == "" {
		return ""
	}
	t := clean(label)
	for _, sep := range reLabelSep.FindAllStringIndex(label, -1) {
		if elsewhere(label[sep[1]:], c.lines) {
			t = clean(label[:sep[0]])
			break
		}
	}
	for _, ln := range c.lines {
		if len(ln) > len(t) && strings.HasPrefix(ln, t) && !factsLine(ln) {
			return ln
		}
	}
	return t
}

// linkLabel is the aria-label or title of the listing link, else of the
// first link in the card that has one.
func linkLabel(s *goquery.Selection, c card) string {
	label := strings.TrimSpace(cmp.Or(attrOf(c.link, "aria-label"), attrOf(c.link, "title")))
	if label == "" {
		s.FindMatcher(matcher("a[aria-label], a[title]")).EachWithBreak(func(_ int, a *goquery.Selection) bool {
			label = strings.TrimSpace(cmp.Or(a.AttrOr("aria-label", ""), a.AttrOr("title", "")))
			return label == ""
		})
	}
	return label
}

// reLabelSep separates the parts a label joins: ", ", " - ", " | ", " · ".
var reLabelSep = regexp.MustCompile(`,\s+|\s+[-–|·]\s+`)

// elsewhere: the rest of a label, from one of its parts on, starts with what
// the card shows elsewhere: a price, or a part that is, or stands in, one of
// the card's lines.
func elsewhere(rest string, lines []string) bool {
	part := rest
	if loc := reLabelSep.FindStringIndex(rest); loc != nil {
		part = rest[:loc[0]]
	}
	part = clean(part)
	if findPrice(part) != "" {
		return true
	}
	return letters(part) >= 3 && slices.ContainsFunc(lines, func(ln string) bool { return containsWords(ln, part) })
}

// containsWords: s holds w as whole words ("Sassenberg" in "Straße 2,
// Sassenberg (48336)", not in "Sassenberger").
func containsWords(s, w string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(w)
		before, _ := utf8.DecodeLastRuneInString(s[:start])
		after, _ := utf8.DecodeRuneInString(s[end:])
		if !unicode.IsLetter(before) && !unicode.IsDigit(before) && !unicode.IsLetter(after) && !unicode.IsDigit(after) {
			return true
		}
		i = start + 1
	}
}

// cardPrice: the first price in an element named as the price, else a
// labelled price (Kaltmiete, Kaufpreis …), else the first price line that is
// not a rate per m² or a monthly financing teaser.
func cardPrice(ls []string, f facts, nm []named) string {
	for _, e := range nm {
		if !priceHint.in(e.words) || notPriceHint.in(e.words) {
			continue
		}
		for _, ln := range lines(e.node) {
			if p := findPrice(ln); p != "" && !rateAt(ln, p) {
				return p
			}
		}
	}
	if v := f.get(priceLabels); v != "" {
		if p := findPrice(v); p != "" {
			return p
		}
	}
	// A line that is a price beats a price inside a sentence.
	for _, prose := range []bool{false, true} {
		for _, ln := range ls {
			if p := findPrice(ln); p != "" && !rateAt(ln, p) && (prose || len(ln) <= len(p)+12) {
				return p
			}
		}
	}
	return ""
}

// letters counts the letters of s.
func letters(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			n++
		}
	}
	return n
}

var rePerUnit = regexp.MustCompile(`(?i)(/\s?m²|/\s?m2|/\s?qm|(?:pro|per)\s?(?:m²|m2|qm|sq)|\brate\b|ab\s+\d|finanzier|nebenkosten|\bnk\b)`)

func perUnit(line string) bool { return rePerUnit.MatchString(line) }

// rateAt: the price p of the line is a rate (per m², a financing teaser), read
// up to p and the words after it: a price beside its rate per m² ("2.474.300 €
// 4.651 €/m²") is the price.
func rateAt(ln, p string) bool {
	i := strings.Index(ln, p)
	if i < 0 {
		return perUnit(ln)
	}
	after := ln[i+len(p):]
	if j := strings.IndexFunc(after, unicode.IsDigit); j >= 0 {
		after = after[:j]
	}
	return perUnit(ln[:i+len(p)] + after)
}

// cardSize: a labelled living area, else the first area the fact lines show.
func cardSize(fl []string, f facts) string {
	if v := f.get(sizeLabels); v != "" {
		if m := findSize(v); m != "" {
			return m
		}
		if bareAmount(v) {
			return v + " m²"
		}
	}
	for _, ln := range fl {
		if strings.Contains(strings.ToLower(ln), "grundst") {
			continue // a plot, not a living area
		}
		if m := findSize(ln); m != "" {
			return m
		}
	}
	return ""
}

// factLines are a card's lines but its title, short ones (facts) before long
// ones (descriptions), so "2 Zi." beats "Schöne 2-Zimmer-Wohnung".
func factLines(ls []string, title string) []string {
	var short, long []string
	for _, ln := range ls {
		switch {
		case ln == title || strings.Contains(title, ln) && !wholeFact(ln):
		case len(ln) <= 30 || factList(ln):
			short = append(short, ln)
		default:
			long = append(long, ln)
		}
	}
	return append(short, long...)
}

// reFactSep separates the parts of a line of facts ("50 m² · 2 Zi. · Balkon").
var reFactSep = regexp.MustCompile(`\s+[·•|]\s+`)

// factList: a line of short parts between separators lists facts; it is no
// sentence of a description.
func factList(ln string) bool {
	if !strings.ContainsAny(ln, "·•|") {
		return false
	}
	parts := reFactSep.Split(ln, -1)
	for _, p := range parts {
		if len(p) > 30 {
			return false
		}
	}
	return len(parts) > 1
}

// wholeFact: the line is a size or a room count and nothing else — a fact of
// the card even where the title mentions it too ("2 Zi." beside
// "Altbau 2 Zi. mit Balkon").
func wholeFact(ln string) bool {
	return findSize(ln) == ln || findRooms(ln) == ln
}

// cardRooms: a labelled room count, else the first the fact lines show.
func cardRooms(fl []string, f facts) string {
	if v := f.get(roomLabels); v != "" {
		if bareAmount(v) {
			return v
		}
		if m := findRooms(v); m != "" {
			return m
		}
	}
	for _, ln := range fl {
		if m := findRooms(ln); m != "" {
			return m
		}
	}
	return ""
}

// cardImage: the first picture of the card (lazy-loading attributes first).
func cardImage(s *goquery.Selection, base *url.URL) string {
	img := s.FindMatcher(matcher("img")).First()
	if img.Length() == 0 {
		return ""
	}
	for _, key := range []string{"data-src", "data-lazy-src", "data-original", "src"} {
		if v, ok := img.Attr(key); ok && !strings.HasPrefix(v, "data:") {
			if u, ok := resolveLink(base, v); ok {
				return u.String()
			}
		}
	}
	return ""
}

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
func promoted(n *html.Node) bool {
	for e := n; e != nil; e = onlyChild(e) {
		if containsAny(strings.ToLower(attrOf(e, "class")), promotedWords) {
			return true
		}
	}
	return badgeInside(n)
}

// badgeInside reports an element in n whose whole visible text is a badge
// word ("Anzeige", "Gesponsert", "Sponsored").
func badgeInside(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode || skipText(c) {
			continue
		}
		if !hasElementChild(c) { // a badge is a leaf: text is read once per node
			if badgeWords[strings.ToLower(strings.TrimSpace(text(c)))] {
				return true
			}
		} else if badgeInside(c) {
			return true
		}
	}
	return false
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

// promotedLabels are a badge's words, as a line of its own, for a paid
// highlight of a result ("Premium", "Top"); ad labels are adLabels.
var promotedLabels = map[string]bool{
	"premium": true, "top": true, "featured": true, "highlight": true, "highlighted": true, "promoted": true,
	"hervorgehoben": true, "top-angebot": true, "promowane": true, "wyróżnione": true, "en vedette": true, "destacado": true, "in evidenza": true,
}

// highlighted reports a card that shows a badge of a paid highlight (a line
// of its own, or beside the price), or
// whose link says it was placed as promoted (olx's "?search_reason=
// search|promoted", which the listing's URL leaves out).
func (pg *page) highlighted(c card) bool {
	if href := strings.ToLower(attrOf(c.link, "href")); strings.Contains(href, "promoted") || strings.Contains(href, "featured") {
		_, query, _ := strings.Cut(href, "?")
		if q, err := url.QueryUnescape(query); err == nil && slices.ContainsFunc(strings.FieldsFunc(q, func(r rune) bool {
			return !unicode.IsLetter(r)
		}), func(w string) bool { return w == "promoted" || w == "featured" }) {
			return true
		}
	}
	return slices.ContainsFunc(pg.memo.lines(c.node), func(l string) bool {
		if len(l) > 40 {
			return false // a badge, or a badge beside a price, is short
		}
		if p := findPrice(l); p != "" {
			l = strings.TrimSpace(strings.Replace(l, p, "", 1)) // the badge beside the price, "CHF 1,714.– Premium"
		}
		return promotedLabels[strings.ToLower(l)]
	})
}

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
	return marked || slices.ContainsFunc(memo.lines(c.node), func(l string) bool { return adLabels[strings.ToLower(l)] })
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
