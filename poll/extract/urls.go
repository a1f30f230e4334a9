package extract

import (
	"crypto/sha256"
	"encoding/hex"
	"net"
	"net/url"
	"strings"
	"sync"

	"golang.org/x/net/publicsuffix"
)

// registrable returns host's registrable domain ("www.kleinanzeigen.de" →
// "kleinanzeigen.de"); IP addresses and single-label hosts are returned as they are.
// Answers are remembered (a process sees a bounded set of hosts, mostly the
// same few: looking each link's host up in the public suffix list again was a
// tenth of extraction on small pages).
func registrable(host string) string {
	domains.RLock()
	d, ok := domains.m[host]
	domains.RUnlock()
	if ok {
		return d
	}
	d = registrableUncached(host)
	domains.Lock()
	if len(domains.m) < maxDomains {
		domains.m[strings.Clone(host)] = d
	}
	domains.Unlock()
	return d
}

// maxDomains bounds the registrable cache; hosts past it are looked up each time.
const maxDomains = 4096

var domains = struct {
	sync.RWMutex
	m map[string]string
}{m: make(map[string]string)}

func registrableUncached(host string) string {
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
	host   string // the page's host name in lower case (its domain is domain)
	// baseDir is the page's escaped path up to its last '/'; baseDirPlain
	// reports that it holds plain characters only (see plainReference).
	baseDir      string
	baseDirPlain bool
	// pagePlain: the page (what links resolve against) is http(s) without
	// userinfo, on a plain lower-case host on the page's site: a plain href
	// resolved against it is canonical once its fragment and tracking
	// parameters are gone (see resolveCanon).
	pagePlain bool
}

func newResolver(page *url.URL) resolver {
	h := page.Hostname()
	r := resolver{domain: registrable(h), host: strings.ToLower(h)}
	r.setPage(page)
	return r
}

// resolve returns href as a canonical absolute http(s) URL on the page's site:
// resolved against the page URL, scheme and host lower-case, no fragment, no
// utm_* tracking parameters. It reports false for empty and fragment-only links,
// javascript:/data:/mailto: and other schemes, URLs with userinfo and other sites.
func (r *resolver) resolve(href string) (*url.URL, bool) {
	href, ok := linkable(href)
	if !ok {
		return nil, false
	}
	u, ok := r.reference(href)
	if !ok || !r.canonicalize(u) {
		return nil, false
	}
	return u, true
}

// resolveTo is resolve writing the URL to *dst, for a caller that only reads
// it for a while (dst may be on its stack: no allocation for a plain href).
func (r *resolver) resolveTo(href string, dst *url.URL) bool {
	href, ok := linkable(href)
	return ok && r.referenceTo(href, dst) && r.canonicalize(dst)
}

// resolveCanon is resolveTo giving the URL's string too (urlString). A plain
// href that resolves to the page's own host (most links: "/expose/123") is
// canonical as plainReferenceTo writes it but for its fragment and tracking
// parameters, and its string is built without checking it again.
func (r *resolver) resolveCanon(href string, dst *url.URL) (string, bool) {
	if r.pagePlain {
		if c, ok := r.sameOriginPlain(href, dst); ok {
			return c, true
		}
	}
	href, ok := linkable(href)
	if !ok {
		return "", false
	}
	if c, plain := r.plainReferenceCanon(href, dst, true); !plain {
		u, ok := r.parsedReference(href)
		if !ok {
			return "", false
		}
		*dst = *u
	} else if c != "" {
		return c, true
	} else if r.pagePlain && dst.Host == r.page.Host {
		if dst.RawQuery == "" && dst.Fragment == "" && len(href) == len(dst.Scheme)+3+len(dst.Host)+len(dst.Path) &&
			strings.HasPrefix(href, dst.Scheme) {
			// href is scheme://host/path as it will be written: the
			// string itself, not a copy (it may share the page's
			// memory: see detach).
			return href, true
		}
		dst.Fragment = ""
		dst.RawQuery = stripTracking(dst.RawQuery)
		if dst.RawQuery == "" {
			return dst.Scheme + "://" + dst.Host + dst.Path, true
		}
		return dst.Scheme + "://" + dst.Host + dst.Path + "?" + dst.RawQuery, true
	}
	if !r.canonicalize(dst) {
		return "", false
	}
	return urlString(dst), true
}

// sameOriginPlain is resolveCanon on a plain page (pagePlain) for the two
// hrefs most links are — a path from the root ("/expose/123") and the page's
// own origin followed by one ("https://www.x.de/expose/123") — of plain
// characters, without query, fragment or dot segment: their canonical
// string is the origin and the path, found in one pass (resolveCanon's
// general way cuts and scans the href five times over). False for any other
// href, left to the general way.
func (r *resolver) sameOriginPlain(href string, dst *url.URL) (string, bool) {
	scheme, host := r.page.Scheme, r.page.Host
	origin := len(scheme) + 3 + len(host)
	var path string
	switch {
	case len(href) > 1 && href[0] == '/' && href[1] != '/':
		path = href
	case len(href) > origin && href[origin] == '/' && href[:len(scheme)] == scheme &&
		href[len(scheme):len(scheme)+3] == "://" && href[len(scheme)+3:origin] == host:
		path = href[origin:]
	default:
		return "", false
	}
	dot := false
	for i := 0; i < len(path); i++ {
		c := path[i]
		if !plainPathByte(c) {
			return "", false
		}
		dot = dot || c == '.'
	}
	if dot && dotSegment(path) {
		return "", false
	}
	c := href // (the string itself: see detach)
	if len(path) == len(href) {
		c = scheme + "://" + host + path
	}
	*dst = url.URL{Scheme: scheme, Host: host, Path: c[origin:]}
	return c, true
}

// linkable trims href and reports whether it may be a listing link: not
// empty, not a fragment, no scheme other than http(s).
func linkable(href string) (string, bool) {
	href = strings.TrimSpace(href)
	if href == "" || href[0] == '#' {
		return "", false
	}
	if i := strings.IndexByte(href, ':'); i > 0 {
		switch strings.ToLower(strings.TrimSpace(href[:i])) {
		case "http", "https":
		default:
			if !strings.ContainsAny(href[:i], "/?#") { // a scheme, not a path with ':'
				return "", false
			}
		}
	}
	return href, true
}

// canonicalize makes the resolved u canonical (see resolve) and reports
// whether it is an http(s) URL on the page's site without userinfo.
func (r *resolver) canonicalize(u *url.URL) bool {
	u.Scheme = strings.ToLower(u.Scheme)
	if u.Scheme != "http" && u.Scheme != "https" || u.User != nil || u.Host == "" || u.Opaque != "" {
		return false
	}
	u.Host = strings.ToLower(u.Host)
	if h := u.Hostname(); h != r.host && registrable(h) != r.domain {
		return false
	}
	u.Fragment, u.RawFragment = "", ""
	u.RawQuery = stripTracking(u.RawQuery)
	u.ForceQuery = false
	return true
}

// resolveAny resolves href against the page without the same-site rule (images
// live on CDNs); only http(s) without userinfo.
func (r *resolver) resolveAny(href string) string {
	href = strings.TrimSpace(href)
	if href == "" || strings.HasPrefix(href, "data:") {
		return ""
	}
	if plainAbsolute(href) {
		return href // (what the plain way below gives it, in one pass)
	}
	var u url.URL // (only its string is kept)
	if r.pagePlain {
		// A plain path from the root ("/media/1.jpg"): the page's origin
		// and the path, as urlString writes the URL the plain way gives.
		if c, ok := r.sameOriginPlain(href, &u); ok {
			return c
		}
	}
	if r.plainReferenceTo(href, &u) {
		if (strings.HasPrefix(href, "https://") || strings.HasPrefix(href, "http://")) && u.User == nil && u.Host != "" {
			// A plain absolute href is its URL's string as it stands
			// (urlString would write it again): the string itself (it
			// may share the page's memory: see detach).
			return href
		}
	} else if pu, ok := r.parsedReference(href); ok {
		u = *pu
	} else {
		return ""
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.User != nil || u.Host == "" {
		return ""
	}
	return urlString(&u)
}

// plainAbsolute reports whether href is an http(s) URL that the plain way
// (plainReferenceTo) reads as it stands — lower-case scheme, a plain host,
// a path, query and fragment of plain characters, no dot segment — whose
// string resolveAny gives back as it is (images: "https://cdn.x.de/i/1.jpg").
func plainAbsolute(href string) bool {
	var rest string
	switch {
	case strings.HasPrefix(href, "https://"):
		rest = href[len("https://"):]
	case strings.HasPrefix(href, "http://"):
		rest = href[len("http://"):]
	default:
		return false
	}
	end := len(rest)
	for i := 0; i < len(rest); i++ {
		if c := rest[i]; c == '/' || c == '?' || c == '#' {
			end = i
			break
		}
	}
	if !plainHost(rest[:end]) {
		return false
	}
	path, query, frag := rest[end:], "", ""
	if i := strings.IndexByte(path, '#'); i >= 0 {
		if path, frag = path[:i], path[i+1:]; frag == "" {
			return false
		}
	}
	if i := strings.IndexByte(path, '?'); i >= 0 {
		if path, query = path[:i], path[i+1:]; query == "" {
			return false
		}
	}
	for i := 0; i < len(path); i++ {
		if !plainPathByte(path[i]) {
			return false
		}
	}
	for i := 0; i < len(frag); i++ {
		if !plainPathByte(frag[i]) {
			return false
		}
	}
	for i := 0; i < len(query); i++ {
		if c := query[i]; c <= ' ' || c >= 0x7f {
			return false
		}
	}
	return !dotSegment(path)
}

// reference is href parsed and resolved against the page (url.Parse, then
// ResolveReference); false if href does not parse.
func (r *resolver) reference(href string) (*url.URL, bool) {
	if u, ok := r.plainReference(href); ok {
		return u, true
	}
	return r.parsedReference(href)
}

// referenceTo is reference writing the URL to *dst.
func (r *resolver) referenceTo(href string, dst *url.URL) bool {
	if r.plainReferenceTo(href, dst) {
		return true
	}
	u, ok := r.parsedReference(href)
	if ok {
		*dst = *u
	}
	return ok
}

// parsedReference is reference by url.Parse and ResolveReference.
func (r *resolver) parsedReference(href string) (*url.URL, bool) {
	u, err := url.Parse(href)
	if err != nil {
		return nil, false
	}
	if r.page != nil {
		u = r.page.ResolveReference(u)
	}
	return u, true
}

// plainReference resolves the hrefs most links are — a path of plain
// characters, maybe a query, maybe a fragment of plain characters — without
// url.Parse and ResolveReference (most of a link's cost), to the very URL they
// give; false for any other href.
func (r *resolver) plainReference(href string) (*url.URL, bool) {
	var u url.URL
	if !r.plainReferenceTo(href, &u) {
		return nil, false
	}
	c := u // (allocated only when href is plain)
	return &c, true
}

// plainReferenceTo is plainReference writing the URL to *dst (left alone
// when it reports false).
func (r *resolver) plainReferenceTo(href string, dst *url.URL) bool {
	_, ok := r.plainReferenceCanon(href, dst, false)
	return ok
}

// plainReferenceCanon is plainReferenceTo; with canon, on a plain page (see
// pagePlain), a relative href is also given its canonical string (resolve,
// urlString) in one allocation, dst.Path a part of it (joining the page's
// directory and the path first, then the canonical string, was two). The
// string is "" otherwise.
func (r *resolver) plainReferenceCanon(href string, dst *url.URL, canon bool) (string, bool) {
	if r.page == nil {
		return "", false
	}
	href, frag, hasFrag := strings.Cut(href, "#")
	if hasFrag && frag == "" {
		return "", false
	}
	for i := 0; i < len(frag); i++ {
		if !plainPathByte(frag[i]) { // (what url.Parse keeps as it is, RawFragment "")
			return "", false
		}
	}
	path, query, hasQuery := strings.Cut(href, "?")
	if hasQuery && query == "" {
		return "", false
	}
	scheme, host := "", ""
	if i := strings.Index(path, "://"); i >= 0 { // absolute: http(s)://host[:port]/path
		scheme = path[:i]
		if !strings.EqualFold(scheme, "http") && !strings.EqualFold(scheme, "https") {
			return "", false
		}
		host, path = path[i+3:], ""
		if j := strings.IndexByte(host, '/'); j >= 0 {
			host, path = host[:j], host[j:]
		}
		if !plainHost(host) {
			return "", false
		}
	} else if path == "" || strings.HasPrefix(path, "//") {
		return "", false
	}
	for i := 0; i < len(path); i++ {
		if !plainPathByte(path[i]) {
			return "", false
		}
	}
	for i := 0; i < len(query); i++ {
		if c := query[i]; c <= ' ' || c >= 0x7f || c == '#' {
			return "", false
		}
	}
	if scheme != "" {
		if dotSegment(path) {
			return "", false
		}
		*dst = url.URL{Scheme: strings.ToLower(scheme), Host: host, Path: path, RawQuery: query, Fragment: frag}
		return "", true
	}
	if canon && r.pagePlain {
		// (The directory ends in '/', or is empty: no segment spans the
		// join, so it has a dot segment if one of the two has.)
		dir, lead := "", ""
		if path[0] != '/' { // relative to the page's directory
			if !r.baseDirPlain {
				return "", false
			}
			if dir = r.baseDir; dir == "" {
				lead = "/"
			}
		}
		if dotSegment(dir) || dotSegment(path) {
			return "", false
		}
		q := stripTracking(query)
		var c string
		if q == "" {
			c = r.page.Scheme + "://" + r.page.Host + lead + dir + path
		} else {
			c = r.page.Scheme + "://" + r.page.Host + lead + dir + path + "?" + q
		}
		at := len(r.page.Scheme) + 3 + len(r.page.Host)
		*dst = url.URL{Scheme: r.page.Scheme, Host: r.page.Host, Path: c[at : at+len(lead)+len(dir)+len(path)], RawQuery: q}
		return c, true
	}
	full := path
	if path[0] != '/' { // relative to the page's directory
		if !r.baseDirPlain {
			return "", false
		}
		full = r.baseDir + path
	}
	if dotSegment(full) {
		return "", false
	}
	if full[0] != '/' {
		full = "/" + full
	}
	*dst = url.URL{Scheme: r.page.Scheme, User: r.page.User, Host: r.page.Host, Path: full, RawQuery: query, Fragment: frag}
	return "", true
}

// urlString is u.String(), built in one concatenation for the URLs resolve
// gives from plain hrefs (http(s), a plain host, a plain path, no userinfo):
// String escapes the host and the path again and sizes a builder for them.
// Other URLs go to String.
func urlString(u *url.URL) string {
	if u.Scheme == "" || u.Opaque != "" || u.User != nil || u.RawPath != "" || u.RawFragment != "" || u.OmitHost ||
		!plainHost(u.Host) || u.Path != "" && u.Path[0] != '/' || !plainPath(u.Path) || !plainPath(u.Fragment) {
		return u.String()
	}
	q, f := "", ""
	if u.ForceQuery || u.RawQuery != "" {
		q = "?"
	}
	if u.Fragment != "" {
		f = "#"
	}
	return u.Scheme + "://" + u.Host + u.Path + q + u.RawQuery + f + u.Fragment
}

// plainHost reports a host name of letters, digits, dots and dashes, with an
// optional port of digits: what url.Parse keeps as it is.
func plainHost(h string) bool {
	name, port, hasPort := strings.Cut(h, ":")
	if name == "" || hasPort && port == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-') {
			return false
		}
	}
	for i := 0; i < len(port); i++ {
		if port[i] < '0' || port[i] > '9' {
			return false
		}
	}
	return true
}

// plainPathByte is a byte a path may hold as it is: escaping and unescaping
// leave it alone, and it starts no scheme, query or fragment.
func plainPathByte(c byte) bool { return plainPathBytes[c] }

// plainPathBytes is plainPathByte as a table (every link's path goes
// through it).
var plainPathBytes = func() (t [256]bool) {
	for c := range t {
		t[c] = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			c == '-' || c == '_' || c == '.' || c == '~' || c == '/' || c == '+' || c == ',' || c == ';' || c == '=' || c == '@'
	}
	return t
}()

// dotSegment reports whether path has a "." or ".." segment.
func dotSegment(path string) bool {
	if strings.IndexByte(path, '.') < 0 {
		return false // (most paths: no segment to look at)
	}
	for path != "" {
		seg, rest, _ := strings.Cut(path, "/")
		if seg == "." || seg == ".." {
			return true
		}
		path = rest
	}
	return false
}

// setPage makes u the URL links are resolved against.
func (r *resolver) setPage(u *url.URL) {
	r.page = u
	// A path of plain characters is its own escaped form (no need for
	// EscapedPath's escaping pass on every page).
	ep := u.Path
	if u.RawPath != "" || !plainPath(ep) {
		ep = u.EscapedPath()
	}
	r.baseDir = ep[:strings.LastIndexByte(ep, '/')+1]
	r.baseDirPlain = plainPath(r.baseDir)
	h := u.Hostname()
	r.pagePlain = (u.Scheme == "http" || u.Scheme == "https") && u.User == nil && u.Opaque == "" && plainHost(u.Host) &&
		u.Host == strings.ToLower(u.Host) && (h == r.host || registrable(h) == r.domain)
}

// plainPath reports whether every byte of p is a plainPathByte.
func plainPath(p string) bool {
	for i := 0; i < len(p); i++ {
		if !plainPathByte(p[i]) {
			return false
		}
	}
	return true
}

// stripTracking removes utm_* parameters, keeping the others in their order.
func stripTracking(q string) string {
	if q == "" || !strings.Contains(q, "utm_") {
		return q
	}
	// The parameters kept, joined by '&', in one buffer. (A parameter
	// whose lower case starts with "utm_" is one whose first four bytes
	// are "utm_" in any case: no other character lowers to u, t, m or _.)
	var b strings.Builder
	b.Grow(len(q))
	for rest, more := q, true; more; {
		var p string
		p, rest, more = strings.Cut(rest, "&")
		if p == "" || len(p) >= 4 && strings.EqualFold(p[:4], "utm_") {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('&')
		}
		b.WriteString(p)
	}
	return b.String()
}

// hashID is the stable id of a listing whose site shows none: the first 16 hex
// digits of the SHA-256 of its canonical URL.
func hashID(canonical string) string {
	sum := sha256.Sum256([]byte(canonical))
	return hex.EncodeToString(sum[:8])
}

// idQueryKeys are query parameters that carry a listing id.
var idQueryKeys = idQueryKeyArray[:]

var idQueryKeyArray = [...]string{"id", "adid", "ad_id", "adId", "expose", "exposeId", "expose_id", "listing", "listingId",
	"listing_id", "objectId", "object_id", "objektid", "obj", "objekt", "itemId", "item_id", "oid", "immo_id", "angebot", "anzeige"}

// idFromURL finds the site's listing id in a listing URL: an id query parameter,
// else the longest run of at least four digits in the last path segment (then the
// segments before it), else an upper-case alphanumeric token with letters and
// digits at the end of the last segment ("…-GZTNQ2"). "" if there is none.
func idFromURL(u *url.URL) string {
	if u.RawQuery != "" {
		if v := queryID(u.RawQuery); v != "" {
			return v
		}
	}
	// The path's segments, last first (strings.Split(strings.Trim(path, "/"), "/")).
	rest := strings.Trim(u.Path, "/")
	for last := true; ; last = false {
		seg := rest
		j := strings.LastIndexByte(rest, '/')
		if j >= 0 {
			seg, rest = rest[j+1:], rest[:j]
		}
		if last {
			seg = trimExt(seg)
			if isUUID(seg) {
				return seg
			}
		}
		if d := longestDigits(seg); len(d) >= 4 {
			return d
		}
		if last {
			if opaqueID(seg) {
				return seg
			}
			if t := trailingToken(seg); t != "" {
				return t
			}
		}
		if j < 0 {
			return ""
		}
	}
}

// queryID returns the value of the first of idQueryKeys that the query
// carries with an id as its (first) value, "" if none: what looking each key
// up with newQuery(raw).get gives, in one pass over a raw query that needs no
// unescaping (looking the keys up one by one went over the query 21 times).
func queryID(raw string) string {
	if strings.IndexByte(raw, '%') >= 0 || strings.IndexByte(raw, '+') >= 0 || len(raw) >= 1000 && strings.Count(raw, "&") >= 1000 {
		q := newQuery(raw) // (the same test: parsed)
		for _, k := range idQueryKeys {
			if v := strings.TrimSpace(q.get(k)); v != "" && isIDToken(v) {
				return v
			}
		}
		return ""
	}
	// The id key listed first whose first value is an id: keys are
	// looked at once each (seen), in the query's order, keeping the best.
	var seen uint32
	best, id := len(idQueryKeyArray), ""
	for rest := raw; rest != ""; {
		var kv string
		kv, rest, _ = strings.Cut(rest, "&")
		if kv == "" || strings.IndexByte(kv, ';') >= 0 {
			continue // ParseQuery skips these
		}
		k, v, _ := strings.Cut(kv, "=")
		i := idQueryKeyIndex(k)
		if i < 0 || seen&(1<<i) != 0 {
			continue
		}
		seen |= 1 << i
		if i < best {
			if v = strings.TrimSpace(v); v != "" && isIDToken(v) {
				best, id = i, v
			}
		}
	}
	return id
}

// idQueryKeyLens are the shortest and the longest key's lengths.
var idQueryKeyLens = func() [2]int {
	l := [2]int{len(idQueryKeyArray[0]), len(idQueryKeyArray[0])}
	for _, k := range idQueryKeyArray {
		l[0], l[1] = min(l[0], len(k)), max(l[1], len(k))
	}
	return l
}()

// idQueryKeyIndex is k's place in idQueryKeys, -1 if it is none of them.
func idQueryKeyIndex(k string) int {
	if len(k) < idQueryKeyLens[0] || len(k) > idQueryKeyLens[1] {
		return -1
	}
	for i, ik := range idQueryKeys {
		if k == ik {
			return i
		}
	}
	return -1
}

// query reads values from a raw query as url.ParseQuery(raw).Get does, without
// building the map when nothing in raw needs unescaping.
type query struct {
	raw    string
	parsed url.Values // when raw has escapes (or very many parameters)
}

func newQuery(raw string) query {
	if strings.ContainsAny(raw, "%+") || strings.Count(raw, "&") >= 1000 {
		v, _ := url.ParseQuery(raw)
		return query{parsed: v}
	}
	return query{raw: raw}
}

// get is url.Values.Get: the first value of key, "" if none.
func (q query) get(key string) string {
	if q.parsed != nil {
		return q.parsed.Get(key)
	}
	for rest := q.raw; rest != ""; {
		var kv string
		kv, rest, _ = strings.Cut(rest, "&")
		if kv == "" || strings.IndexByte(kv, ';') >= 0 {
			continue // ParseQuery skips these
		}
		if k, v, _ := strings.Cut(kv, "="); k == key {
			return v
		}
	}
	return ""
}

func trimExt(seg string) string {
	// The extensions are at most four letters: a dot before the last five
	// bytes starts none of them (only the end is searched).
	from := max(len(seg)-5, 0)
	if i := strings.LastIndexByte(seg[from:], '.') + from; i > 0 && i >= from {
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

// isUUID reports whether s is a UUID: 8-4-4-4-12 hex digits (the regexp
// ^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$).
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch i {
		case 8, 13, 18, 23:
			if s[i] != '-' {
				return false
			}
		default:
			if !isHex(s[i]) {
				return false
			}
		}
	}
	return true
}

// opaqueID reports whether a whole path segment is an identifier rather than
// a slug: a UUID, or 5-40 letters and digits (at least one of each, no dashes):
// "/expose/2bnvg5k", "/wohnung/a7f3c2".
func opaqueID(seg string) bool {
	if isUUID(seg) {
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
	var buf [96]byte
	return string(appendPathPattern(buf[:0], u))
}

// appendPathPattern appends pathPattern(u) to b.
func appendPathPattern(b []byte, u *url.URL) []byte {
	p := u.Path
	b = append(b, u.Host...)
	trimmed := strings.Trim(p, "/")
	nsegs := 0
	if trimmed != "" {
		nsegs = strings.Count(trimmed, "/") + 1
	}
	b = append(b, '|', byte('0'+min(nsegs, 9)))
	if nsegs > 1 {
		first, _, _ := strings.Cut(trimmed, "/")
		b = append(b, '|')
		if len(longestDigits(first)) >= 4 {
			b = append(b, '#')
		} else {
			b = appendLower(b, first)
		}
	}
	if nsegs > 0 {
		last := trimmed[strings.LastIndexByte(trimmed, '/')+1:]
		if t := trimExt(last); len(t) < len(last) {
			b = appendLower(b, last[len(t):])
		}
	}
	if strings.HasSuffix(p, "/") && len(p) > 1 {
		b = append(b, '/')
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
			b = append(b, '?')
			for i, k := range keys {
				if i > 0 {
					b = append(b, '&')
				}
				b = append(b, k...)
			}
		}
	}
	return b
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
