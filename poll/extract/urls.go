package extract

import (
	"crypto/sha256"
	"encoding/hex"
	"net"
	"net/url"
	"regexp"
	"strings"

	"golang.org/x/net/publicsuffix"
)

// registrable returns host's registrable domain ("www.kleinanzeigen.de" →
// "kleinanzeigen.de"); IP addresses and single-label hosts are returned as they are.
func registrable(host string) string {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if net.ParseIP(host) != nil || !strings.Contains(host, ".") {
		return host
	}
	d, err := publicsuffix.EffectiveTLDPlusOne(host)
	if err != nil {
		return host
	}
	return d
}

// resolver turns the hrefs of one page into canonical absolute listing URLs.
type resolver struct {
	page   *url.URL
	domain string // registrable domain of the page host
}

func newResolver(page *url.URL) *resolver {
	return &resolver{page: page, domain: registrable(page.Hostname())}
}

// resolve returns href as a canonical absolute http(s) URL on the page's site:
// resolved against the page URL, scheme and host lower-case, no fragment, no
// utm_* tracking parameters. It reports false for empty and fragment-only links,
// javascript:/data:/mailto: and other schemes, URLs with userinfo and other sites.
func (r *resolver) resolve(href string) (*url.URL, bool) {
	href = strings.TrimSpace(href)
	if href == "" || href[0] == '#' {
		return nil, false
	}
	if i := strings.IndexByte(href, ':'); i > 0 {
		switch strings.ToLower(strings.TrimSpace(href[:i])) {
		case "http", "https":
		default:
			if !strings.ContainsAny(href[:i], "/?#") { // a scheme, not a path with ':'
				return nil, false
			}
		}
	}
	u, err := url.Parse(href)
	if err != nil {
		return nil, false
	}
	if r.page != nil {
		u = r.page.ResolveReference(u)
	}
	u.Scheme = strings.ToLower(u.Scheme)
	if u.Scheme != "http" && u.Scheme != "https" || u.User != nil || u.Host == "" || u.Opaque != "" {
		return nil, false
	}
	u.Host = strings.ToLower(u.Host)
	if registrable(u.Hostname()) != r.domain {
		return nil, false
	}
	u.Fragment, u.RawFragment = "", ""
	u.RawQuery = stripTracking(u.RawQuery)
	u.ForceQuery = false
	return u, true
}

// resolveAny resolves href against the page without the same-site rule (images
// live on CDNs); only http(s) without userinfo.
func (r *resolver) resolveAny(href string) string {
	href = strings.TrimSpace(href)
	if href == "" || strings.HasPrefix(href, "data:") {
		return ""
	}
	u, err := url.Parse(href)
	if err != nil {
		return ""
	}
	if r.page != nil {
		u = r.page.ResolveReference(u)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.User != nil || u.Host == "" {
		return ""
	}
	return u.String()
}

// stripTracking removes utm_* parameters, keeping the others in their order.
func stripTracking(q string) string {
	if q == "" || !strings.Contains(q, "utm_") {
		return q
	}
	parts := strings.Split(q, "&")
	out := parts[:0]
	for _, p := range parts {
		if p == "" || strings.HasPrefix(strings.ToLower(p), "utm_") {
			continue
		}
		out = append(out, p)
	}
	return strings.Join(out, "&")
}

// hashID is the stable id of a listing whose site shows none: the first 16 hex
// digits of the SHA-256 of its canonical URL.
func hashID(canonical string) string {
	sum := sha256.Sum256([]byte(canonical))
	return hex.EncodeToString(sum[:8])
}

// idQueryKeys are query parameters that carry a listing id.
var idQueryKeys = []string{"id", "adid", "ad_id", "adId", "expose", "exposeId", "expose_id", "listing", "listingId",
	"listing_id", "objectId", "object_id", "objektid", "obj", "objekt", "itemId", "item_id", "oid", "immo_id", "angebot", "anzeige"}

// idFromURL finds the site's listing id in a listing URL: an id query parameter,
// else the longest run of at least four digits in the last path segment (then the
// segments before it), else an upper-case alphanumeric token with letters and
// digits at the end of the last segment ("…-GZTNQ2"). "" if there is none.
func idFromURL(u *url.URL) string {
	if u.RawQuery != "" {
		q := u.Query()
		for _, k := range idQueryKeys {
			if v := strings.TrimSpace(q.Get(k)); v != "" && isIDToken(v) {
				return v
			}
		}
	}
	segs := strings.Split(strings.Trim(u.Path, "/"), "/")
	for i := len(segs) - 1; i >= 0; i-- {
		seg := segs[i]
		if i == len(segs)-1 {
			seg = trimExt(seg)
			if uuidRe.MatchString(seg) {
				return seg
			}
		}
		if d := longestDigits(seg); len(d) >= 4 {
			return d
		}
		if i == len(segs)-1 {
			if opaqueID(seg) {
				return seg
			}
			if t := trailingToken(seg); t != "" {
				return t
			}
		}
	}
	return ""
}

func trimExt(seg string) string {
	if i := strings.LastIndexByte(seg, '.'); i > 0 {
		switch strings.ToLower(seg[i+1:]) {
		case "html", "htm", "php", "aspx", "asp", "jsp", "cfm":
			return seg[:i]
		}
	}
	return seg
}

func longestDigits(s string) string {
	best := ""
	for i := 0; i < len(s); {
		if s[i] < '0' || s[i] > '9' {
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j-i > len(best) {
			best = s[i:j]
		}
		i = j
	}
	return best
}

// uuidRe is a UUID.
var uuidRe = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// opaqueID reports whether a whole path segment is an identifier rather than
// a slug: a UUID, or 5-40 letters and digits (at least one of each, no dashes):
// "/expose/2bnvg5k", "/wohnung/a7f3c2".
func opaqueID(seg string) bool {
	if uuidRe.MatchString(seg) {
		return true
	}
	if len(seg) < 5 || len(seg) > 40 {
		return false
	}
	letters, digits := 0, 0
	for i := 0; i < len(seg); i++ {
		switch c := seg[i]; {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			letters++
		case c >= '0' && c <= '9':
			digits++
		default:
			return false
		}
	}
	return letters > 0 && digits > 0
}

// trailingToken returns the last '-'/'_'/'.' separated token of seg when it looks
// like an opaque id: 5-16 upper-case letters and digits with at least one of each.
func trailingToken(seg string) string {
	i := strings.LastIndexAny(seg, "-_.")
	t := seg[i+1:]
	if len(t) < 5 || len(t) > 16 {
		return ""
	}
	letters, digits := 0, 0
	for j := 0; j < len(t); j++ {
		switch c := t[j]; {
		case c >= 'A' && c <= 'Z':
			letters++
		case c >= '0' && c <= '9':
			digits++
		default:
			return ""
		}
	}
	if letters == 0 || digits == 0 {
		return ""
	}
	return t
}

// isIDToken reports whether v can be an identifier: 1-64 letters, digits, '-' or '_'.
func isIDToken(v string) bool {
	if len(v) == 0 || len(v) > 64 {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// pathPattern is the shape of a listing URL: the number of path segments, the
// first segment when there are several, the last segment's extension, a trailing
// slash, and the sorted id-carrying query keys. Listing links of one list share it;
// navigation and paid links usually do not.
func pathPattern(u *url.URL) string {
	p := u.Path
	var b strings.Builder
	b.WriteString(u.Host)
	trimmed := strings.Trim(p, "/")
	segs := strings.Split(trimmed, "/")
	if trimmed == "" {
		segs = nil
	}
	b.WriteByte('|')
	b.WriteByte(byte('0' + min(len(segs), 9)))
	if len(segs) > 1 {
		b.WriteByte('|')
		if len(longestDigits(segs[0])) >= 4 {
			b.WriteByte('#')
		} else {
			b.WriteString(strings.ToLower(segs[0]))
		}
	}
	if len(segs) > 0 {
		last := segs[len(segs)-1]
		if t := trimExt(last); len(t) < len(last) {
			b.WriteString(strings.ToLower(last[len(t):]))
		}
	}
	if strings.HasSuffix(p, "/") && len(p) > 1 {
		b.WriteByte('/')
	}
	if u.RawQuery != "" {
		// Only keys that carry an id shape the pattern: tracking and paging
		// parameters (ref, pos, utm_*) vary between the links of one list.
		keys := []string{}
		for kv := range strings.SplitSeq(u.RawQuery, "&") {
			k, _, _ := strings.Cut(kv, "=")
			for _, ik := range idQueryKeys {
				if strings.EqualFold(k, ik) {
					keys = append(keys, strings.ToLower(k))
					break
				}
			}
		}
		if len(keys) > 0 {
			sortStrings(keys)
			b.WriteByte('?')
			b.WriteString(strings.Join(keys, "&"))
		}
	}
	return b.String()
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
