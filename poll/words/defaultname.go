package words

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// MaxNameRunes is the longest default name: a 10,000-character URL does not
// make a 10,000-character name.
const MaxNameRunes = 60

// DefaultName is the one name Notifio gives a search the user did not name:
// the site, the words of the URL's path (not its codes and numbers) and what
// its query asks for, e.g. "kleinanzeigen.de: wohnung mieten, berlin, up to
// 1200". It is at most 60 characters, one line, without control characters.
// The window's suggestion for a page without a useful title is this too.
func DefaultName(u *url.URL, site string) string {
	parts := pathWords(u.Path)
	parts = append(parts, queryWords(u.Query())...)
	name := site
	if len(parts) > 0 {
		name = site + ": " + strings.Join(parts, ", ")
	}
	name = strings.Join(strings.Fields(strings.Map(nameRune, name)), " ")
	if r := []rune(name); len(r) > MaxNameRunes {
		name = strings.TrimSpace(string(r[:MaxNameRunes-1])) + "…"
	}
	return name
}

// nameRune drops what a name must not hold (controls, bidi overrides).
func nameRune(r rune) rune {
	if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029' {
		return ' '
	}
	return r
}

// pathWords are the words of a URL path's segments: "s-wohnung-mieten" is
// "wohnung mieten" (a one-letter prefix is the site's own); segments with
// digits (c203l3331, an ID, a page number) say nothing to the user.
func pathWords(path string) []string {
	var parts []string
	for _, seg := range strings.Split(path, "/") {
		seg = strings.TrimSuffix(strings.TrimSuffix(seg, ".html"), ".htm")
		if seg == "" || strings.ContainsAny(seg, "0123456789") {
			continue
		}
		words := strings.FieldsFunc(seg, func(r rune) bool { return r == '-' || r == '_' || r == '+' || r == '.' })
		if len(words) > 1 && len(words[0]) == 1 {
			words = words[1:]
		}
		if len(words) > 0 {
			parts = append(parts, strings.Join(words, " "))
		}
	}
	return parts
}

// queryWords are what a query asks for, by key: "up to 1200" for a maximum,
// "from 2" for a minimum, and short words as they are ("q=balkon": balkon),
// so searches that differ only in their query get different names.
func queryWords(q url.Values) []string {
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var parts []string
	for _, k := range keys {
		v := strings.Trim(q.Get(k), ": ")
		if _, err := strconv.ParseFloat(v, 64); err == nil {
			switch lk := strings.ToLower(k); {
			case strings.Contains(lk, "max") || strings.HasSuffix(lk, "bis") || strings.HasSuffix(lk, "to"):
				parts = append(parts, "up to "+v)
			case strings.Contains(lk, "min") || strings.HasSuffix(lk, "von") || strings.HasSuffix(lk, "from"):
				parts = append(parts, "from "+v)
			}
			continue
		}
		if v != "" && len([]rune(v)) <= 30 && !strings.ContainsFunc(v, func(r rune) bool { return unicode.IsDigit(r) || r == '/' || r == '=' }) {
			parts = append(parts, v)
		}
	}
	return parts
}

// SuggestName suggests a search name for a results page: its title without
// the portal's name ("Wohnung mieten in Berlin" from "Wohnung mieten in Berlin
// | kleinanzeigen.de"), or, when the title is only the portal's name, missing,
// or already another search's name (every search of a portal often has one
// title), DefaultName: the site and what the URL's path and query say.
// A name still taken gets " (2)", " (3)", … Only for results: a refusal page's
// title ("Just a moment...") names nothing the user watches.
func SuggestName(title, rawURL, site string, taken func(string) bool) string {
	t := strings.Join(strings.Fields(title), " ")
	for _, sep := range []string{" | ", " – ", " — ", " - "} {
		if i := strings.Index(t, sep); i > 0 {
			t = t[:i]
		}
	}
	brand := strings.ToLower(strings.SplitN(site, ".", 2)[0])
	if i := strings.Index(strings.ToLower(t), " bei "+brand); i > 0 { // "… bei immobilien.de"
		t = t[:i]
	}
	if t == "" || taken(t) || brand != "" && strings.EqualFold(strings.ReplaceAll(t, " ", ""), brand) {
		if u, err := url.Parse(rawURL); err == nil && site != "" {
			t = DefaultName(u, site)
		}
	}
	const maxRunes = 60
	if r := []rune(t); len(r) > maxRunes {
		t = strings.TrimSpace(string(r[:maxRunes])) + "…"
	}
	for n, try := 2, t; t != ""; n++ {
		if !taken(try) {
			return try
		}
		try = fmt.Sprintf("%s (%d)", t, n)
	}
	return t
}
