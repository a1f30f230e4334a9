package extract

import (
	"cmp"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// This file reads a card's title: its heading, an element named as the
// title, the listing link's text or label, its address line — never a price,
// a place, a date line, a control's caption or an agency's name.

var (
	reCounter  = regexp.MustCompile(`^\d+\s*/\s*\d+$`)
	rePostcode = regexp.MustCompile(`^(?:[A-Z]{1,2}-)?\d{4,5}\s+\p{Lu}`)
)

// cardTitle: the card's own heading; else an element named as its title; else
// the listing link's text; else the link's aria-label or title without the
// parts the card shows elsewhere; else a picture's alt text.
func cardTitle(s *goquery.Selection, c card, f facts, nm []named, m *skipMemo) string {
	return untruncated(shownTitle(s, c, f, nm, m), c.link)
}

// reBadge is a badge written before the title ("NEU Sonnige 3-Zimmer-Wohnung").
var reBadge = regexp.MustCompile(`^(?:NEU|NEW|TOP|HOT)\s+`)

// withoutBadge is a title without the badge written before it (reBadge, run
// only on a title that starts with one of its words).
func withoutBadge(t string) string {
	if len(t) < 3 {
		return t
	}
	switch t[:3] {
	case "NEU", "NEW", "TOP", "HOT":
		return reBadge.ReplaceAllString(t, "")
	}
	return t
}

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

// factsLine: a summary of the card's facts ("2 Zimmer, 50 m², 800 € | …"):
// two of a price, a size and a room count (read in turn, until two are
// found or two cannot be; through m, which may have read them for the
// card's fields already).
func factsLine(ln string, m *skipMemo) bool {
	if !hasDigit(ln) {
		return false // each of them has a digit
	}
	price, size := m.priceIn(ln) != "", m.sizeIn(ln) != ""
	if price == size {
		return price // both, or neither: the rooms cannot make two
	}
	return m.roomsIn(ln) != ""
}

// labelled: a "Label: value" line.
func labelled(ln string) bool {
	k, _, ok := strings.Cut(ln, ":")
	return ok && label(k) != ""
}

func shownTitle(s *goquery.Selection, c card, f facts, nm []named, m *skipMemo) string {
	if t := headingTitle(c.node, m); t != "" {
		return t
	}
	for _, e := range nm {
		if titleHint.in(e.words) && !notTitleHint.in(e.words) {
			if t := namedTitle(e.node, m); titleText(t) && !factsLine(t, m) && !callToAction(t) {
				return t
			}
		}
	}
	// A link around the whole card gives its first title-like line, which
	// may be a badge: its address line says more.
	wraps := len(m.lines(c.link))*5 >= len(c.lines)*4
	if t := addressTitle(c.node, nm, m); t != "" && wraps {
		return t
	}
	if t := linkTitle(c, m); t != "" {
		return t
	}
	if t := labelTitle(s, c, m); t != "" && !callToAction(t) {
		return t
	}
	if t := addressTitle(c.node, nm, m); t != "" {
		return t
	}
	if t := f.get(titleLabels); t != "" {
		return t
	}
	for _, ln := range c.lines {
		if len(strings.Fields(ln)) >= 3 && titleLike(ln) && !callToAction(ln) && !labelled(ln) && !factsLine(ln, m) {
			return ln
		}
	}
	return strings.TrimSpace(s.FindMatcher(matcher("img[alt]")).First().AttrOr("alt", ""))
}

// namedTitle is the text of an element named as the title; one that holds
// the card's facts under the title in short lines of their own ("St. Helens
// Gardens W10" over "Terraced", "3", "2") gives its first line.
func namedTitle(n *html.Node, m *skipMemo) string {
	ls := m.lines(n)
	if len(ls) > 1 && titleText(ls[0]) && !slices.ContainsFunc(ls[1:], func(l string) bool { return len(strings.Fields(l)) > 3 }) {
		return ls[0]
	}
	return strings.Join(ls, " ") // text(n), from the lines m read
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
func headingTitle(card *html.Node, m *skipMemo) string {
	best, bestLevel := "", 7
	eachInside(card, func(n *html.Node) {
		if !isHeading(n) && attrOf(n, "role") != "heading" {
			return
		}
		level := 6
		if isHeading(n) {
			level, _ = strconv.Atoi(n.Data[1:])
		}
		t := headingText(n, m)
		if level < bestLevel && titleLike(t) && !placeHint.in(hints(n, m)) {
			best, bestLevel = t, level
		}
	})
	return best
}

// headingText is a heading's text without the place lines inside it: a card
// may write the postcode and town under the street in one heading
// ("Kerkstraat 12 A" over "1017 GB Amsterdam").
func headingText(n *html.Node, m *skipMemo) string {
	ls := m.lines(n)
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

// dateWords are the words of reDateLine, one of which every match holds.
var dateWords = []string{"added", "posted", "listed", "updated", "dodan", "eingestellt", "online seit", "hinzugefügt", "aktualisiert", "publié le", "pubblicato", "publicado", "lagt inn", "upplagd", "ago", "vor", "temu"}

// dateLine: a line that says when the listing was posted, with a few words
// of its kind or place ("Mieszkanie do wynajęcia, dodane: 27-10-2017",
// "14 mins ago · Brockton"), not a title.
func dateLine(t string) bool {
	if !hasDigit(t) || !containsAny(strings.ToLower(t), dateWords) {
		return false // every date and age has a digit and one of these words: the pattern need not run
	}
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
func addressTitle(card *html.Node, nm []named, m *skipMemo) string {
	if a := firstInside(card, atom.Address); a != nil {
		if t := m.text(a); titleText(t) {
			return t
		}
	}
	for _, e := range nm {
		if addressHint.in(e.words) {
			if t := m.text(e.node); titleText(t) && !factsLine(t, m) {
				return t
			}
		}
	}
	return ""
}

// linkTitle: the text of a link to the listing. A link that wraps the whole
// card gives its first line that is a title and not a price or a fact.
func linkTitle(c card, m *skipMemo) string {
	best, want := "", c.url.String()
	read := func(n *html.Node) {
		if u, ok := resolveLink(c.url, attrOf(n, "href")); !ok || u.String() != want {
			return
		}
		for _, ln := range m.lines(n) {
			if titleLike(ln) && m.sizeIn(ln) != ln && m.roomsIn(ln) != ln && !bareAmount(ln) && !callToAction(ln) {
				if len(ln) > len(best) && best == "" {
					best = ln
				}
				return
			}
		}
	}
	eachInside(c.node, func(n *html.Node) {
		if n.DataAtom == atom.A && hasAttr(n, "href") {
			read(n)
		}
	})
	read(c.node) // the card itself, when it is the link
	return best
}

// labelTitle: aria-label or title of the listing link, cut before the first
// part the card shows elsewhere or that is a fact ("Title, 40627 Düsseldorf,
// 475.000 €" → "Title"; "Title - Sassenberg - 2.474.300 € - 532 m²" →
// "Title"); a card line that begins with that part is the fuller title.
func labelTitle(s *goquery.Selection, c card, m *skipMemo) string {
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
		if len(ln) > len(t) && strings.HasPrefix(ln, t) && !factsLine(ln, m) {
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
