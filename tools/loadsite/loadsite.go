// Package loadsite is a farm of fake rental portals on loopback addresses, for
// measuring Notifio (issue 7) and for screenshots. Each site listens on its own
// loopback IP (127.0.1.1, 127.0.1.2, …), so Notifio treats each one as a
// separate site (its site key is the IP), and serves realistic ~300 KB result
// pages: a head with inline style and script, a navigation bar, a filter
// sidebar, a list of listing cards (picture, title link, price, size, rooms,
// location, icons), pagination, and a long footer of related-search links, in
// the proportions of the real pages in ../shared/sites (about 105 bytes per tag;
// the real pages have 110-200). With Vary every response carries a per-request
// token, as real portals' pages do, so no two are byte-identical.
//
// Every URL path of a site is one search page with its own stream of listings:
// the page shows the newest Listings of the stream, newest first, and a new
// listing appears every NewEvery (each path has its own phase, so new listings
// are spread out over time rather than all appearing at once). The first time a
// page with a listing is served, OnNew is called with the instant it was served:
// the latency benchmark measures from there to the SMTP server accepting the
// email that names it.
//
// Some sites refuse, chosen by their 1-based index: "429" (rate limited, with
// Retry-After: 120), "403" (denied), "503", "challenge" (a Cloudflare-style "Just
// a moment..." page with status 403 and cf-mitigated: challenge), "soft" (200 with
// a page that has neither results nor a no-results marker), "login" (a redirect
// to a login page), "script" (an empty shell that only JavaScript would fill in).
//
// The program tools/loadsite/cmd/loadsite wraps it:
//
//	loadsite -sites 100 -base-ip 127.0.1.1 -port 0 -listings 25 -page-kb 300 -mega-menu 0 \
//	  -refuse "3:429,4:challenge,5:403" -new-every 5m -addr-file sites.txt [-vary] \
//	  [-events events.jsonl] [-for 10m]
//
// writes the base URL of each site (http://127.0.1.N:PORT/) to the addr file, one
// per line, in site order, and serves until SIGINT/SIGTERM (or -for elapses).
// Search URLs are any path under a base URL, e.g. http://127.0.1.7:PORT/search/3.
//
// The bench driver tools/loadsite/cmd/benchdrive (seed, headless) and the script
// tools/loadsite/bench.sh (`make bench`) use it; docs/PERFORMANCE.md has the
// figures.
//
// A Farm is safe for concurrent use.
package loadsite

import (
	"compress/gzip"
	"errors"
	"fmt"
	"hash/fnv"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Config describes a farm. Zero values are replaced by the defaults named on
// each field.
type Config struct {
	// Sites is how many sites to serve (0 means 1).
	Sites int
	// BaseIP is the loopback address of the first site; the next sites take the
	// following addresses ("" means 127.0.1.1). It must be in 127.0.0.0/8.
	BaseIP string
	// Port is the TCP port every site listens on (0 means a free port per site).
	Port int
	// Listings is how many listings a results page shows (0 means 25).
	Listings int
	// PageKB is the approximate page size in KiB (0 means 300).
	PageKB int
	// MegaMenu is how many links the header's menu holds, in ten sections
	// (0 means 50: five a section), as portals' mega menus of every city and
	// district do; the footer fills what remains of PageKB.
	MegaMenu int
	// Refuse maps a site's 1-based index to how it refuses: 429, 403, 503,
	// challenge, soft or login (nil means no site refuses).
	Refuse map[int]string
	// NewEvery is how often a new listing appears on each search page (0 means
	// 5 minutes; negative means never).
	NewEvery time.Duration
	// Vary puts a per-request token (a CSRF meta tag and a request id) in every
	// page, as most real portals do, so no two responses are byte-identical
	// (false: a page changes only when a listing appears).
	Vary bool
	// Gzip compresses pages for clients that accept it (the zero value does not;
	// real portals do, so the program's default is true).
	Gzip bool
	// OnNew, when not nil, is called the first time a page showing a listing is
	// served (from the serving goroutine; keep it short).
	OnNew func(Event)
	// Now is the clock (nil means time.Now).
	Now func() time.Time
}

// Event is the first serving of a new listing.
type Event struct {
	Site   string    `json:"site"`   // the site's base URL
	Path   string    `json:"path"`   // the search page's path
	ID     string    `json:"id"`     // the listing's id as the page shows it
	URL    string    `json:"url"`    // the listing's absolute URL
	Served time.Time `json:"served"` // when the response was written
}

// ParseRefuse parses "3:429,4:challenge,5:403" into a Config.Refuse map.
func ParseRefuse(spec string) (map[int]string, error) {
	out := map[int]string{}
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		i, mode, ok := strings.Cut(part, ":")
		if !ok {
			return nil, fmt.Errorf("loadsite: refuse %q: want INDEX:MODE", part)
		}
		n, err := strconv.Atoi(i)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("loadsite: refuse %q: the site index must be 1 or more", part)
		}
		switch mode {
		case "429", "403", "503", "challenge", "soft", "login", "script":
		default:
			return nil, fmt.Errorf("loadsite: refuse %q: the mode must be 429, 403, 503, challenge, soft, login or script", part)
		}
		out[n] = mode
	}
	return out, nil
}

// Farm is a running set of sites.
type Farm struct {
	cfg     Config
	start   time.Time
	sites   []*site
	servers []*http.Server
	wg      sync.WaitGroup

	requests atomic.Int64
	bytes    atomic.Int64
}

type site struct {
	farm   *Farm
	index  int
	base   string
	refuse string
	filler string // the constant part of the page (head, nav, sidebar, footer)

	mu   sync.Mutex
	last map[string]int64 // path → newest listing index served
}

// Start listens on every site's address and serves until Close.
func Start(cfg Config) (*Farm, error) {
	if cfg.Sites <= 0 {
		cfg.Sites = 1
	}
	if cfg.BaseIP == "" {
		cfg.BaseIP = "127.0.1.1"
	}
	if cfg.Listings <= 0 {
		cfg.Listings = 25
	}
	if cfg.PageKB <= 0 {
		cfg.PageKB = 300
	}
	if cfg.NewEvery == 0 {
		cfg.NewEvery = 5 * time.Minute
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	ip, err := netip.ParseAddr(cfg.BaseIP)
	if err != nil || !ip.Is4() || !netip.MustParsePrefix("127.0.0.0/8").Contains(ip) {
		return nil, fmt.Errorf("loadsite: base IP %q must be an IPv4 loopback address (127.x.y.z)", cfg.BaseIP)
	}
	f := &Farm{cfg: cfg, start: cfg.Now()}
	for i := 1; i <= cfg.Sites; i++ {
		if !netip.MustParsePrefix("127.0.0.0/8").Contains(ip) {
			f.Close()
			return nil, errors.New("loadsite: too many sites for the loopback range after the base IP")
		}
		ln, err := net.Listen("tcp", net.JoinHostPort(ip.String(), strconv.Itoa(cfg.Port)))
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("loadsite: listen for site %d: %w", i, err)
		}
		s := &site{farm: f, index: i, base: "http://" + ln.Addr().String() + "/", refuse: cfg.Refuse[i], last: map[string]int64{}}
		s.filler = filler(i, cfg.PageKB*1024-cfg.Listings*1700, max(cfg.MegaMenu/10, 5))
		srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
		f.sites = append(f.sites, s)
		f.servers = append(f.servers, srv)
		f.wg.Add(1)
		go func() {
			defer f.wg.Done()
			_ = srv.Serve(ln)
		}()
		ip = ip.Next()
	}
	return f, nil
}

// URLs returns the base URL of each site, in site order.
func (f *Farm) URLs() []string {
	out := make([]string, len(f.sites))
	for i, s := range f.sites {
		out[i] = s.base
	}
	return out
}

// Stats returns how many requests were served and how many body bytes were written.
func (f *Farm) Stats() (requests, bytes int64) { return f.requests.Load(), f.bytes.Load() }

// Close stops every site and waits for the servers to return.
func (f *Farm) Close() {
	for _, srv := range f.servers {
		_ = srv.Close()
	}
	f.wg.Wait()
}

// streamIndex is the newest listing index of a path's stream at now.
func (f *Farm) streamIndex(site int, path string, now time.Time) int64 {
	base := int64(f.cfg.Listings) // the first page already shows a full list
	if f.cfg.NewEvery < 0 {
		return base
	}
	h := hash(strconv.Itoa(site) + path)
	phase := time.Duration(h % uint64(f.cfg.NewEvery))
	return base + int64((now.Sub(f.start)+phase)/f.cfg.NewEvery)
}

func hash(s string) uint64 {
	h := fnv.New64a()
	_, _ = h.Write([]byte(s))
	return h.Sum64()
}

func (s *site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f := s.farm
	f.requests.Add(1)
	switch s.refuse {
	case "429":
		w.Header().Set("Retry-After", "120")
		http.Error(w, "Too Many Requests", http.StatusTooManyRequests)
		return
	case "403":
		http.Error(w, "Forbidden", http.StatusForbidden)
		return
	case "503":
		http.Error(w, "Service Unavailable", http.StatusServiceUnavailable)
		return
	case "challenge":
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cf-Mitigated", "challenge")
		w.WriteHeader(http.StatusForbidden)
		n, _ := w.Write([]byte(challengePage))
		f.bytes.Add(int64(n))
		return
	case "login":
		if !strings.HasPrefix(r.URL.Path, "/login") {
			http.Redirect(w, r, "/login?redirect="+r.URL.Path, http.StatusFound)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(`<!doctype html><html><head><title>Anmelden</title></head><body><form action="/login" method="post"><input type="password" name="password"></form></body></html>`))
		return
	case "script":
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(`<!doctype html><html><head><title>Wohnungen mieten</title><script src="/static/app.js" defer></script></head><body><div id="app"></div><noscript>Bitte aktivieren Sie JavaScript.</noscript></body></html>`))
		return
	}
	if r.URL.Path == "/favicon.ico" || r.URL.Path == "/robots.txt" {
		http.NotFound(w, r)
		return
	}
	now := f.cfg.Now()
	path := r.URL.Path
	var body string
	var newest int64
	if s.refuse == "soft" {
		body = softPage
	} else {
		newest = f.streamIndex(s.index, path, now)
		body = s.page(path, newest)
		if f.cfg.Vary {
			n := f.requests.Load()
			body = strings.Replace(body, "<head>", fmt.Sprintf(`<head><meta name="csrf-token" content="%016x"><script>window.__REQ__={"id":"%x","ts":%d};</script>`,
				hash(strconv.FormatInt(n, 10)), n, now.UnixMilli()), 1)
		}
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	var n int
	if f.cfg.Gzip && strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
		w.Header().Set("Content-Encoding", "gzip")
		cw := &countWriter{w: w}
		zw, _ := gzip.NewWriterLevel(cw, gzip.BestSpeed)
		_, _ = zw.Write([]byte(body))
		_ = zw.Close()
		n = cw.n
	} else {
		n, _ = w.Write([]byte(body))
	}
	f.bytes.Add(int64(n))
	if s.refuse == "soft" || f.cfg.OnNew == nil {
		return
	}
	served := f.cfg.Now()
	s.mu.Lock()
	prev, seen := s.last[path]
	if !seen || newest > prev {
		s.last[path] = newest
	}
	s.mu.Unlock()
	if !seen {
		return // the first serving is the baseline, not news
	}
	for k := prev + 1; k <= newest; k++ {
		f.cfg.OnNew(Event{Site: s.base, Path: path, ID: listingID(s.index, path, k),
			URL: strings.TrimSuffix(s.base, "/") + listingPath(s.index, path, k), Served: served})
	}
}

type countWriter struct {
	w interface{ Write([]byte) (int, error) }
	n int
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += n
	return n, err
}

// listingID is the id a listing carries on the page (data-id and in its URL).
func listingID(site int, path string, k int64) string {
	return fmt.Sprintf("%d%04d%06d", site, hash(path)%10000, k)
}

func listingPath(site int, path string, k int64) string {
	return "/expose/" + listingID(site, path, k)
}

var districts = []string{"Altstadt", "Neustadt", "Südstadt", "Weststadt", "Oststadt", "Nordstadt", "Bahnhofsviertel", "Hafen", "Lindenau", "Plagwitz", "Gohlis", "Connewitz"}

// page renders a results page with the stream's newest listings.
func (s *site) page(path string, newest int64) string {
	f := s.farm
	var b strings.Builder
	b.Grow(f.cfg.PageKB*1024 + 4096)
	head, tail, _ := strings.Cut(s.filler, "<!--RESULTS-->")
	b.WriteString(head)
	fmt.Fprintf(&b, `<main id="main" class="results-main"><h1 class="results-title">%d Wohnungen zur Miete in Teststadt %d</h1>`, 400+s.index, s.index)
	b.WriteString(`<div class="sort-bar"><label for="sort">Sortieren</label><select id="sort" name="sort"><option value="new" selected>Neueste zuerst</option><option value="price">Preis</option><option value="size">Fläche</option></select></div>`)
	b.WriteString(`<ul class="result-list" id="result-list" data-testid="result-list">`)
	for i := 0; i < f.cfg.Listings; i++ {
		k := newest - int64(i)
		if k < 1 {
			break
		}
		id := listingID(s.index, path, k)
		h := hash(id)
		rooms := 1 + h%5
		size := 25 + h%110
		price := 350 + (h>>8)%2200
		d := districts[(h>>16)%uint64(len(districts))]
		fmt.Fprintf(&b, `<li class="result-list__listing card card--elevated" data-id="%s" data-obid="%s">`, id, id)
		fmt.Fprintf(&b, `<article class="listing-card"><div class="listing-card__gallery"><a class="listing-card__media-link" href="%s" tabindex="-1" aria-hidden="true"><picture><source type="image/webp" srcset="https://img.example.invalid/%s/0.webp?w=320 320w, https://img.example.invalid/%s/0.webp?w=640 640w, https://img.example.invalid/%s/0.webp?w=960 960w"><img class="listing-card__image" src="https://img.example.invalid/%s/0.jpg" alt="Bild 1 von 12" loading="lazy" width="320" height="240"></picture></a><span class="listing-card__image-count"><svg class="icon icon--camera" aria-hidden="true" viewBox="0 0 24 24"><use href="#icon-camera"></use></svg>12</span></div>`,
			listingPath(s.index, path, k), id, id, id, id)
		fmt.Fprintf(&b, `<div class="listing-card__body"><h2 class="listing-card__title"><a class="listing-card__title-link" href="%s">%d-Zimmer-Wohnung in %s, hell und ruhig, Balkon (%d)</a></h2>`, listingPath(s.index, path, k), rooms, d, k)
		fmt.Fprintf(&b, `<div class="listing-card__address"><svg class="icon icon--pin" aria-hidden="true" viewBox="0 0 24 24"><use href="#icon-pin"></use></svg><span>%s, Teststadt %d</span></div>`, d, s.index)
		fmt.Fprintf(&b, `<dl class="listing-card__facts"><div class="fact"><dt class="fact__label">Kaltmiete</dt><dd class="fact__value listing-card__price">%d €</dd></div><div class="fact"><dt class="fact__label">Wohnfläche</dt><dd class="fact__value">%d m²</dd></div><div class="fact"><dt class="fact__label">Zimmer</dt><dd class="fact__value">%d</dd></div></dl>`, price, size, rooms)
		b.WriteString(`<ul class="listing-card__tags"><li class="tag">Balkon/Terrasse</li><li class="tag">Einbauküche</li><li class="tag">Keller</li></ul>`)
		fmt.Fprintf(&b, `<div class="listing-card__footer"><span class="listing-card__provider">Hausverwaltung Beispiel GmbH</span><button class="listing-card__save button button--icon" type="button" aria-label="Merken" data-id="%s"><svg class="icon icon--heart" aria-hidden="true" viewBox="0 0 24 24"><use href="#icon-heart"></use></svg></button></div></div></article></li>`, id)
	}
	b.WriteString(`</ul><nav class="pagination" aria-label="Seiten"><ul class="pagination__list">`)
	for p := 1; p <= 8; p++ {
		fmt.Fprintf(&b, `<li class="pagination__item"><a class="pagination__link" href="%s?page=%d">%d</a></li>`, path, p, p)
	}
	b.WriteString(`</ul></nav></main>`)
	b.WriteString(tail)
	return b.String()
}

// filler renders the constant part of a site's pages, about n bytes (more
// when the menu alone takes more), with menu links in each of the menu's ten
// sections, and the marker <!--RESULTS--> where the results go.
func filler(site, n, menu int) string {
	if n < 20000 {
		n = 20000
	}
	var b strings.Builder
	b.Grow(n + 4096)
	fmt.Fprintf(&b, `<!DOCTYPE html><html lang="de"><head><meta charset="utf-8"><title>Wohnungen mieten in Teststadt %d | Testportal %d</title><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="description" content="Mietwohnungen in Teststadt %d: aktuelle Angebote."><link rel="canonical" href="/"><link rel="preconnect" href="https://img.example.invalid">`, site, site, site)
	// Inline style, about 4% of the page.
	b.WriteString(`<style>`)
	for i := 0; b.Len() < n/25; i++ {
		fmt.Fprintf(&b, `.c%d{display:flex;margin:0 %dpx;padding:%dpx;color:#%06x;font:400 14px/1.4 system-ui,sans-serif}`, i, i%16, i%8, i*2654435761%0xffffff)
	}
	b.WriteString(`</style>`)
	// Inline script (tracking and app config), about 20% of the page.
	b.WriteString(`<script>window.dataLayer=window.dataLayer||[];(function(){var cfg={`)
	for i := 0; b.Len() < n/4; i++ {
		fmt.Fprintf(&b, `"feature_%d":{"enabled":%t,"variant":"v%d","weight":%d},`, i, i%3 == 0, i%7, i*37%100)
	}
	b.WriteString(`"end":true};window.__CFG__=cfg;})();</script></head><body class="page page--results">`)
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" style="display:none"><symbol id="icon-camera" viewBox="0 0 24 24"><path d="M9 3L7.17 5H4c-1.1 0-2 .9-2 2v12c0 1.1.9 2 2 2h16c1.1 0 2-.9 2-2V7c0-1.1-.9-2-2-2h-3.17L15 3H9zm3 15c-2.76 0-5-2.24-5-5s2.24-5 5-5 5 2.24 5 5-2.24 5-5 5z"></path></symbol><symbol id="icon-pin" viewBox="0 0 24 24"><path d="M12 2C8.13 2 5 5.13 5 9c0 5.25 7 13 7 13s7-7.75 7-13c0-3.87-3.13-7-7-7z"></path></symbol><symbol id="icon-heart" viewBox="0 0 24 24"><path d="M12 21.35l-1.45-1.32C5.4 15.36 2 12.28 2 8.5 2 5.42 4.42 3 7.5 3c1.74 0 3.41.81 4.5 2.09C13.09 3.81 14.76 3 16.5 3 19.58 3 22 5.42 22 8.5c0 3.78-3.4 6.86-8.55 11.54L12 21.35z"></path></symbol></svg>`)
	fmt.Fprintf(&b, `<header class="site-header"><a class="site-header__logo" href="/">Testportal %d</a><nav class="site-nav" aria-label="Hauptmenü"><ul class="site-nav__list">`, site)
	for i, m := range []string{"Mieten", "Kaufen", "WG-Zimmer", "Häuser", "Gewerbe", "Neubau", "Ratgeber", "Umzug", "Anbieter", "Hilfe"} {
		fmt.Fprintf(&b, `<li class="site-nav__item"><a class="site-nav__link" href="/%s">%s</a><ul class="site-nav__sub">`, strings.ToLower(m), m)
		for j := 0; j < menu; j++ {
			fmt.Fprintf(&b, `<li><a href="/%s/thema-%d">%s Thema %d</a></li>`, strings.ToLower(m), i*menu+j, m, j+1)
		}
		b.WriteString(`</ul></li>`)
	}
	b.WriteString(`</ul></nav><a class="button button--login" href="/login">Anmelden</a></header><div class="layout"><aside class="filters"><form class="filters__form" action="/search" method="get">`)
	for i, g := range []string{"Zimmer", "Ausstattung", "Wohnungstyp", "Etage", "Energie", "Baujahr"} {
		fmt.Fprintf(&b, `<fieldset class="filters__group"><legend>%s</legend>`, g)
		for j := 0; j < 7; j++ {
			fmt.Fprintf(&b, `<label class="checkbox"><input type="checkbox" name="f%d" value="%d"><span class="checkbox__label">%s Option %d</span><span class="checkbox__count">(%d)</span></label>`, i, j, g, j+1, (i*7+j)*13%200)
		}
		b.WriteString(`</fieldset>`)
	}
	b.WriteString(`<button class="button button--primary" type="submit">Ergebnisse anzeigen</button></form></aside><!--RESULTS--></div><footer class="site-footer"><section class="seo-links"><h2>Beliebte Suchen</h2><ul class="seo-links__list">`)
	for i := 0; b.Len() < n-600; i++ {
		fmt.Fprintf(&b, `<li class="seo-links__item"><a class="seo-links__link link link--muted" href="/mieten/teststadt-%d/%d-zimmer" data-track='{"event":"seo_click","section":"footer","pos":%d}'>%d-Zimmer-Wohnungen in Teststadt %d</a></li>`, i%97, i%6+1, i, i%6+1, i%97)
	}
	fmt.Fprintf(&b, `</ul></section><p class="site-footer__legal">© 2026 Testportal %d · <a href="/impressum">Impressum</a> · <a href="/datenschutz">Datenschutz</a> · <a href="/agb">AGB</a></p></footer></body></html>`, site)
	return b.String()
}

// challengePage is a Cloudflare-style browser check.
const challengePage = `<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title><meta http-equiv="refresh" content="390"></head><body><div class="main-wrapper" role="main"><div class="main-content"><h1 class="zone-name-title h1">loadsite</h1><h2 class="h2" id="challenge-running">Checking if the site connection is secure</h2><noscript><div id="challenge-error-title"><div class="h2"><span class="icon-wrapper"></span><span id="challenge-error-text">Enable JavaScript and cookies to continue</span></div></div></noscript></div></div><script>(function(){window._cf_chl_opt={cvId: '2',cZone: 'loadsite',cType: 'managed',cNounce: '12345'};var cpo = document.createElement('script');cpo.src = '/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1?ray=1';document.getElementsByTagName('head')[0].appendChild(cpo);}());</script></body></html>`

// softPage is a 200 page with neither results nor a no-results marker.
const softPage = `<!DOCTYPE html><html lang="de"><head><title>Testportal</title></head><body><header><a href="/">Testportal</a></header><main><p>Bitte versuchen Sie es später noch einmal.</p></main></body></html>`
