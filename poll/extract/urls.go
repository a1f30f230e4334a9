package extract

import (
	"crypto/sha256"
	"encoding/hex"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"notifio/internal/model"
)

// This file is the one way a link becomes a listing URL (url.Parse +
// ResolveReference, then canonicalise) and the one reader of a site's id in a URL.

// resolveLink resolves href against base and returns the canonical listing URL:
// http(s) only (never javascript:, data:, mailto:, nor a link with user info), no fragment,
// scheme and host in lower case, default ports and tracking parameters dropped.
func resolveLink(base *url.URL, href string) (*url.URL, bool) {
	href = strings.TrimSpace(href)
	if href == "" || strings.HasPrefix(href, "#") {
		return nil, false
	}
	ref, err := url.Parse(href)
	if err != nil {
		return nil, false
	}
	u := base.ResolveReference(ref)
	u.Scheme = strings.ToLower(u.Scheme)
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return nil, false
	}
	if u.User != nil {
		return nil, false // "https://site.de@evil.example/": a link that hides where it goes
	}
	u.Fragment, u.RawFragment = "", ""
	u.Host = strings.ToLower(u.Host)
	if p := u.Port(); p == "80" && u.Scheme == "http" || p == "443" && u.Scheme == "https" {
		u.Host = u.Hostname()
	}
	u.RawQuery = dropTracking(u.RawQuery)
	u.ForceQuery = false
	return u, true
}

// trackingParams say where a click came from, not what it points to.
var trackingParams = map[string]bool{
	"fbclid": true, "gclid": true, "dclid": true, "msclkid": true, "yclid": true, "igshid": true,
	"mc_cid": true, "mc_eid": true, "_ga": true, "_gl": true, "ref": true, "ref_src": true, "referrer": true,
	"referral_code": true, "referral_story_type": true, "tracking": true, "tracking_id": true, "trk": true,
	"__tn__": true, "__cft__": true, "search_reason": true, "serp_view": true, "search": true, "searchid": true,
	"search_id": true, "sessionid": true, "session_id": true, "sid": true, "click_source": true, "source": true,
	"from": true, "campaign": true, "position": true, "pos": true, "rank": true, "origin": true, "context": true,
	"asset_id": true, "iid": true, "spm": true, "scm": true, "feature": true, "zanpid": true,
	"correlationid": true, "reason": true,
}

// dropTracking removes tracking parameters from a raw query, keeping the order
// of the others.
func dropTracking(raw string) string {
	return keepParams(raw, func(key string) bool {
		key = strings.ToLower(key)
		return !trackingParams[key] && !strings.HasPrefix(key, "utm_")
	})
}

// keepParams is a raw query with only the parameters whose (unescaped) key
// keep accepts, in their order.
func keepParams(raw string, keep func(key string) bool) string {
	if raw == "" {
		return ""
	}
	var kept []string
	for _, part := range strings.Split(raw, "&") {
		if part == "" {
			continue
		}
		key, _, _ := strings.Cut(part, "=")
		if k, err := url.QueryUnescape(key); err == nil {
			key = k
		}
		if keep(key) {
			kept = append(kept, part)
		}
	}
	return strings.Join(kept, "&")
}

// dropSharedParams takes from the cards' URLs the query parameters that have
// one value on every card, where each card's path is its own (the path names
// the listing): such a parameter says where the list was shown
// (?search_identifier=…), not which listing a card is. Fewer than three cards
// tell nothing, and a list whose cards share a path (index.php?id=…) keeps
// its parameters.
func dropSharedParams(cards []card) {
	paths := map[string]bool{}
	for _, c := range cards {
		paths[c.url.Host+c.url.Path] = true
	}
	shared := sharedParams(cards)
	if len(cards) < 3 || len(paths) < len(cards) || len(shared) == 0 {
		return
	}
	for i := range cards {
		u := *cards[i].url
		u.RawQuery = keepParams(u.RawQuery, func(key string) bool { return !shared[key] })
		cards[i].url = &u
	}
}

// siteOf is the registrable domain of u's host: the product's one definition.
func siteOf(u *url.URL) string { return model.SiteOf(u.Host) }

// samePage reports whether u is the page itself or the same search shown
// otherwise: the same path, and a query that differs from the page's only in
// pagination and sorting — not a page of its own behind the same script
// (a CMS's index.php?id=25&object=4711 beside the list's index.php?id=24).
func samePage(u, page *url.URL) bool {
	if !strings.EqualFold(u.Host, page.Host) || strings.TrimSuffix(u.Path, "/") != strings.TrimSuffix(page.Path, "/") {
		return false
	}
	q, pq := u.Query(), page.Query()
	for _, keys := range []url.Values{q, pq} {
		for k := range keys {
			if !listParams[strings.ToLower(k)] && !slices.Equal(q[k], pq[k]) {
				return false
			}
		}
	}
	return true
}

// listParams page and sort a list without making it another search.
var listParams = map[string]bool{
	"page": true, "p": true, "pg": true, "pn": true, "seite": true, "pagenumber": true, "offset": true, "start": true,
	"o": true, "sort": true, "sortby": true, "order": true, "orderby": true, "dir": true, "limit": true, "per_page": true,
}

var (
	// reUpperCode: a code of capitals and digits ending a segment ("…-GZTNQ2").
	reUpperCode = regexp.MustCompile(`(?:^|[-_.])([A-Z0-9]*[A-Z][A-Z0-9]*\d[A-Z0-9]*|[A-Z0-9]*\d[A-Z0-9]*[A-Z][A-Z0-9]*)$`)
	reIDKey     = regexp.MustCompile(`(?i)^(id|uid|object|ad_?id|listing_?id|object_?id|oid|item_?id|expose_?id|estate_?id|offer_?id|property_?id|immo_?id|obj|obj_?id|objekt|objekt_?id|anzeige_?id|inserat_?id|ref_?id|immo_ref)$`)
	reOpaque    = regexp.MustCompile(`^(?:[a-z]+\d|\d+[a-z])[a-z0-9]{3,18}$`) // "2bnvg5k": letters and digits, no words
)

// idFromURL reads the site's id from a listing URL: an id query parameter, a
// UUID, the longest run of at least four digits in the last path segment that
// has one, an upper-case code ending the last segment ("…-GZTNQ2"), or an
// opaque segment of letters and digits ("/expose/2bnvg5k").
func idFromURL(u *url.URL) string {
	if id := idInQuery(u); id != "" {
		return id
	}
	// the last path segment, then the one before it
	p := strings.Trim(u.Path, "/")
	for range 2 {
		i := strings.LastIndexByte(p, '/')
		seg := p[i+1:]
		// (each pattern only where it can match: it runs on every link of the page)
		if m := findUUID(seg); m != "" {
			return strings.ToLower(m)
		}
		if m := longestDigits(seg); m != "" {
			return m
		}
		if strings.ContainsFunc(seg, func(r rune) bool { return r >= 'A' && r <= 'Z' }) {
			if m := reUpperCode.FindStringSubmatch(trimExt(seg)); m != nil {
				return m[1]
			}
		}
		if t := trimExt(seg); hasDigit(t) && reOpaque.MatchString(t) {
			return t
		}
		if i < 0 {
			break
		}
		p = p[:i]
	}
	return ""
}

// idInQuery is an id query parameter's value ("?objectId=…", a CMS plugin's
// "tx_immo_pi1[object]=…"; a bare "id" only when no other names one).
func idInQuery(u *url.URL) string {
	if u.RawQuery == "" {
		return "" // most listing links: no query to parse
	}
	q := u.Query()
	plainID := "" // a bare ?id= may be a CMS's page, beside its plugin's object
	for _, k := range slices.Sorted(maps.Keys(q)) {
		name := k // a CMS plugin's tx_immo_pi1[object]: the name in brackets
		if i := strings.LastIndexByte(k, '['); i >= 0 && strings.HasSuffix(k, "]") {
			name = k[i+1 : len(k)-1]
		}
		if v := q.Get(k); v != "" && reIDKey.MatchString(name) && len(v) <= 64 {
			if !strings.EqualFold(k, "id") {
				return v
			}
			plainID = v
		}
	}
	return plainID
}

// trimExt drops a file extension of up to five letters ("27024863.html").
func trimExt(seg string) string {
	if i := strings.LastIndexByte(seg, '.'); i > 0 && len(seg)-i <= 6 {
		return seg[:i]
	}
	return seg
}

// findUUID is the first UUID in s (8-4-4-4-12 hex digits), "" for none: a
// scan, not a pattern tried at every position of every link's segments.
func findUUID(s string) string {
	for i := 0; i+36 <= len(s); i++ {
		if uuidAt(s[i : i+36]) {
			return s[i : i+36]
		}
	}
	return ""
}

func uuidAt(s string) bool {
	for i := 0; i < 36; i++ {
		c := s[i]
		if i == 8 || i == 13 || i == 18 || i == 23 {
			if c != '-' {
				return false
			}
		} else if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// longestDigits is the first of the longest runs of at least four digits in
// s ("" for none), as the pattern \d{4,} finds them.
func longestDigits(s string) string {
	best := ""
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j-i >= 4 && j-i > len(best) {
			best = s[i:j]
		}
		i = max(j, i+1)
	}
	return best
}

// hashID is the id of a listing whose site gives none: a hash of its URL.
func hashID(u string) string {
	sum := sha256.Sum256([]byte(u))
	return hex.EncodeToString(sum[:8])
}

// inURL reports whether the token v occurs in u's path or query, bounded by
// characters that are not letters or digits ("123" in "/a-123.html", not in "/a1234").
func inURL(v string, u *url.URL) bool {
	if len(v) < 3 {
		return false
	}
	s := u.EscapedPath() + "?" + u.RawQuery
	for i := 0; ; {
		j := strings.Index(s[i:], v)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(v)
		if (j == 0 || !alnum(s[j-1])) && (end == len(s) || !alnum(s[end])) {
			return true
		}
		i = j + 1
	}
}

func alnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
