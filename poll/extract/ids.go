package extract

import (
	"net/url"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// This file gives each card of a list the site's own id for its listing, so
// the same flat keeps its identity whatever the tracking in its link says.
//
// In order: a value of a card attribute that also stands in the listing's URL
// (data-adid="123" and /anzeige/123); the id in the URL, when the URL is on the
// page's own site and no two URLs share it; the card attribute that holds an
// id on most cards (an <input name="objekt_id">, id="apartment-19537"), which
// is also how a card linking to a partner site keeps this site's id; last, a
// hash of the URL without the parameters every card shares.

type idSlot struct {
	key   string // where the value sits in the card: tags and attribute
	value string
}

// cardIDs returns one id per card; "" for a card without one on a list where
// most cards have one (a promo tile among the results is not a listing).
func cardIDs(cards []card, page *url.URL) []string {
	ids := make([]string, len(cards))
	slots := make([][]idSlot, len(cards))
	fromURL := make([]string, len(cards))
	// an id in URLs → the one URL that holds it, "" once two do (a set of
	// URLs per id would be a map per card, to ask only whether it has one)
	urlWith := map[string]string{}
	site := siteOf(page)
	for i, c := range cards {
		slots[i] = idSlotsOf(c.node)
		if siteOf(c.url) == site {
			fromURL[i] = idFromURL(c.url)
			u := c.url.String()
			if prev, ok := urlWith[fromURL[i]]; !ok {
				urlWith[fromURL[i]] = u
			} else if prev != u {
				urlWith[fromURL[i]] = ""
			}
		}
	}
	slot := commonSlot(slots, fromURL)
	for i, c := range cards {
		for _, s := range slots[i] {
			if inURL(s.value, c.url) {
				ids[i] = s.value
				break
			}
		}
		if ids[i] == "" && fromURL[i] != "" && urlWith[fromURL[i]] != "" {
			ids[i] = fromURL[i]
		}
		if ids[i] == "" && slot != "" {
			for _, s := range slots[i] {
				if s.key == slot {
					ids[i] = s.value
					break
				}
			}
		}
	}
	have := 0
	for _, id := range ids {
		if id != "" {
			have++
		}
	}
	if have*4 < len(ids)*3 {
		fillHashIDs(ids, cards)
	}
	return ids
}

// fillHashIDs gives the cards without an id a hash of their URL, leaving out
// query parameters that have one value on every card (they carry no identity).
func fillHashIDs(ids []string, cards []card) {
	shared := sharedParams(cards)
	for i, c := range cards {
		if ids[i] != "" {
			continue
		}
		u := *c.url
		q := u.Query()
		for k := range shared {
			q.Del(k)
		}
		u.RawQuery = q.Encode()
		ids[i] = hashID(u.String())
	}
}

func sharedParams(cards []card) map[string]bool {
	shared := map[string]bool{}
	if len(cards) < 2 {
		return shared
	}
	first := cards[0].url.Query()
	for k, v := range first {
		if !slices.ContainsFunc(cards[1:], func(c card) bool { return !slices.Equal(c.url.Query()[k], v) }) {
			shared[k] = true
		}
	}
	return shared
}

var (
	reIDPrefix = regexp.MustCompile(`^[a-z]+(?:[-_][a-z]+)*[-_]`)
	reCode     = regexp.MustCompile(`^[A-Z0-9]{5,}$`) // "GZTKMB": an id of capitals
)

// idSlotsOf lists the attribute values of a card that may be its listing's id,
// the card's own first: id, data-…id…, a hidden input named …id… .
func idSlotsOf(n *html.Node) []idSlot {
	var out []idSlot
	// the tags from the card down to e (at most 13: the walk stops below
	// depth 12); a slot's path is written only for a slot
	tags := make([]string, 0, 13)
	var walk func(e *html.Node, depth int)
	walk = func(e *html.Node, depth int) {
		if e.Type != html.ElementNode || depth > 12 {
			return
		}
		tags = append(tags, e.Data)
		for _, a := range e.Attr {
			if !idAttr(e, a) {
				continue
			}
			if v := idCore(a.Val); v != "" {
				out = append(out, idSlot{key: "/" + strings.Join(tags, "/") + "@" + a.Key + "=" + attrOf(e, "name"), value: v})
			}
		}
		for c := e.FirstChild; c != nil; c = c.NextSibling {
			walk(c, depth+1)
		}
		tags = tags[:len(tags)-1]
	}
	walk(n, 0)
	return out
}

// idAttr: id, data-…id…, or the value of a hidden input named …id….
func idAttr(e *html.Node, a html.Attribute) bool {
	k := strings.ToLower(a.Key)
	return k == "id" ||
		strings.HasPrefix(k, "data-") && (strings.HasSuffix(k, "id") || strings.Contains(k, "-id") || strings.Contains(k, "_id")) ||
		k == "value" && e.DataAtom == atom.Input && strings.Contains(strings.ToLower(attrOf(e, "name")), "id")
}

// idCore is an attribute value as an id: without a word prefix ("oid-123" →
// "123", "apartment-19537" → "19537"); "" when it holds no digit, spaces, or
// is too long to be an id.
func idCore(v string) string {
	v = strings.TrimSpace(v)
	if len(v) > 64 || strings.ContainsAny(v, " {}[]\"'/") || !strings.ContainsAny(v, "0123456789") && !reCode.MatchString(v) {
		return ""
	}
	if m := reIDPrefix.FindString(v); m != "" && strings.ContainsAny(v[len(m):], "0123456789") {
		v = v[len(m):]
	}
	if len(v) < 3 {
		return ""
	}
	return v
}

// commonSlot is the attribute that holds an id on most cards, with distinct
// values, and agrees best with the ids the URLs carry.
func commonSlot(slots [][]idSlot, fromURL []string) string {
	type stat struct {
		cards, agree int
		values       map[string]bool
	}
	stats := map[string]*stat{}
	var order []string
	for i, ss := range slots {
		seen := map[string]bool{}
		for _, s := range ss {
			if seen[s.key] {
				continue
			}
			seen[s.key] = true
			st := stats[s.key]
			if st == nil {
				st = &stat{values: map[string]bool{}}
				stats[s.key] = st
				order = append(order, s.key)
			}
			st.cards++
			st.values[s.value] = true
			if s.value == fromURL[i] {
				st.agree++
			}
		}
	}
	best, bestAgree := "", -1
	for _, k := range order {
		st := stats[k]
		if st.cards*10 < len(slots)*6 || len(st.values) < st.cards {
			continue
		}
		if st.agree > bestAgree {
			best, bestAgree = k, st.agree
		}
	}
	return best
}
