// Package fetch gets one search page safely: one long-lived transport with timeouts at
// every stage, a body cap counted after decompression, browser-like request headers,
// a cookie jar per site (hostbackoff.SiteOf: eTLD+1, IP literals their own site),
// an optional user-pasted Cookie header, its own redirect
// policy (cross-site redirects are reported, never followed), and the body decoded
// to UTF-8.
//
// It does not judge what came back: poll/classify turns a Response (or an error)
// into an outcome.
package fetch

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"sync"
	"time"

	"golang.org/x/net/publicsuffix"

	"notifio/hostbackoff"
)

// Defaults used where Options leaves a field zero.
const (
	DefaultMaxBody               = 5 << 20 // 5 MiB, counted after decompression
	DefaultMaxHeaderBytes        = 64 << 10
	DefaultDialTimeout           = 10 * time.Second
	DefaultTLSHandshakeTimeout   = 10 * time.Second
	DefaultResponseHeaderTimeout = 20 * time.Second
	DefaultTimeout               = 60 * time.Second
	DefaultMaxRedirects          = 5

	// DefaultUserAgent is a current desktop Firefox: sites serve their normal
	// results markup to it.
	DefaultUserAgent = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0"
	// DefaultAccept is what Firefox sends for a top-level navigation.
	DefaultAccept = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
	// DefaultAcceptLanguage suits the German portals Notifio watches first.
	DefaultAcceptLanguage = "de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7"
)

// Options configure a Fetcher. Zero fields take the defaults above.
type Options struct {
	UserAgent      string
	Accept         string
	AcceptLanguage string

	// MaxBody caps the body in bytes, counted on the decompressed stream.
	MaxBody int64
	// MaxHeaderBytes caps the response headers (http.Transport.MaxResponseHeaderBytes).
	MaxHeaderBytes int64

	DialTimeout           time.Duration
	TLSHandshakeTimeout   time.Duration
	ResponseHeaderTimeout time.Duration
	// Timeout bounds a whole Fetch (all redirects and the body) even when the
	// caller's context has no deadline; the earlier deadline wins.
	Timeout time.Duration

	// MaxRedirects is how many same-site redirects are followed (default 5).
	// Negative means none.
	MaxRedirects int

	// TLSConfig, when set, is cloned into the transport (tests use it to trust
	// an httptest certificate). Nil means the system roots.
	TLSConfig *tls.Config
	// DialContext, when set, replaces the network dialer (tests use it to stand
	// for an unreachable network without sending anything off this machine).
	DialContext func(ctx context.Context, network, addr string) (net.Conn, error)
	// NoProxy disables http.ProxyFromEnvironment.
	NoProxy bool
}

// Request is one page to fetch.
type Request struct {
	URL string
	// Cookie is a Cookie header the user pasted for this site (optional). It is sent
	// only to hosts of the request URL's site, alongside the site's jar cookies. A
	// leading "Cookie:" is tolerated; line breaks are rejected.
	Cookie string
}

// Response is what came back. Body is UTF-8.
type Response struct {
	RequestURL *url.URL
	// FinalURL is the URL of the response returned: after the redirects that were
	// followed, and the URL that answered with the refused redirect when Redirect
	// is set.
	FinalURL *url.URL
	Status   int
	Header   http.Header
	// Body is the page decoded to UTF-8 (a leading BOM removed). Never nil.
	Body []byte
	// RawBytes is how many body bytes were read: after Content-Encoding
	// decompression, before charset decoding.
	RawBytes int
	// Truncated is set when reading stopped early: the body was larger than
	// MaxBody, or reading failed. Fetch then also returns an error.
	Truncated bool
	// Charset is the encoding the body was decoded from, e.g. "utf-8",
	// "windows-1252"; empty for an empty body.
	Charset string
	// CharsetNote explains a decoding decision that overrode the declaration,
	// e.g. a page labelled utf-8 whose bytes are Latin-1. Usually empty.
	CharsetNote string
	// Redirect is set when a redirect was refused: the Response is then the 3xx
	// itself.
	Redirect *RedirectStop
	// Redirects is how many redirects were followed.
	Redirects int
	Elapsed   time.Duration
}

// Fetcher fetches pages. It is safe for concurrent use. Close it when done.
type Fetcher struct {
	opts      Options
	transport *http.Transport

	mu   sync.Mutex
	jars map[string]*cookiejar.Jar
}

// New returns a Fetcher with one long-lived transport.
func New(opts Options) *Fetcher {
	if opts.UserAgent == "" {
		opts.UserAgent = DefaultUserAgent
	}
	if opts.Accept == "" {
		opts.Accept = DefaultAccept
	}
	if opts.AcceptLanguage == "" {
		opts.AcceptLanguage = DefaultAcceptLanguage
	}
	if opts.MaxBody <= 0 {
		opts.MaxBody = DefaultMaxBody
	}
	if opts.MaxHeaderBytes <= 0 {
		opts.MaxHeaderBytes = DefaultMaxHeaderBytes
	}
	if opts.DialTimeout <= 0 {
		opts.DialTimeout = DefaultDialTimeout
	}
	if opts.TLSHandshakeTimeout <= 0 {
		opts.TLSHandshakeTimeout = DefaultTLSHandshakeTimeout
	}
	if opts.ResponseHeaderTimeout <= 0 {
		opts.ResponseHeaderTimeout = DefaultResponseHeaderTimeout
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.MaxRedirects == 0 {
		opts.MaxRedirects = DefaultMaxRedirects
	} else if opts.MaxRedirects < 0 {
		opts.MaxRedirects = 0
	}
	var tlsConf *tls.Config
	if opts.TLSConfig != nil {
		tlsConf = opts.TLSConfig.Clone()
	} else {
		tlsConf = &tls.Config{}
	}
	if tlsConf.MinVersion == 0 {
		tlsConf.MinVersion = tls.VersionTLS12
	}
	dial := opts.DialContext
	if dial == nil {
		dial = (&net.Dialer{
			Timeout:   opts.DialTimeout,
			KeepAlive: 30 * time.Second,
		}).DialContext
	}
	t := &http.Transport{
		DialContext:            dial,
		TLSClientConfig:        tlsConf,
		TLSHandshakeTimeout:    opts.TLSHandshakeTimeout,
		ResponseHeaderTimeout:  opts.ResponseHeaderTimeout,
		MaxResponseHeaderBytes: opts.MaxHeaderBytes,
		ForceAttemptHTTP2:      true,
		MaxIdleConns:           32,
		MaxIdleConnsPerHost:    2,
		IdleConnTimeout:        90 * time.Second,
		ExpectContinueTimeout:  time.Second,
		// DisableCompression stays false: the transport asks for gzip and
		// decompresses transparently; the body cap counts the decompressed stream.
	}
	if !opts.NoProxy {
		t.Proxy = http.ProxyFromEnvironment
	}
	return &Fetcher{opts: opts, transport: t, jars: map[string]*cookiejar.Jar{}}
}

// Close closes idle connections. In-flight fetches are not interrupted (cancel
// their contexts for that); the Fetcher stays usable.
func (f *Fetcher) Close() {
	f.transport.CloseIdleConnections()
}

// MaxBody is the body cap in bytes.
func (f *Fetcher) MaxBody() int64 { return f.opts.MaxBody }

// ClearCookies forgets the jar cookies of one site (as hostbackoff.SiteOf names it).
func (f *Fetcher) ClearCookies(site string) {
	f.mu.Lock()
	delete(f.jars, site)
	f.mu.Unlock()
}

func (f *Fetcher) jarFor(site string) *cookiejar.Jar {
	f.mu.Lock()
	defer f.mu.Unlock()
	j := f.jars[site]
	if j == nil {
		// cookiejar.New never fails with these options.
		j, _ = cookiejar.New(&cookiejar.Options{PublicSuffixList: publicsuffix.List})
		f.jars[site] = j
	}
	return j
}

// Fetch GETs req.URL, follows at most MaxRedirects same-site redirects, and reads
// the body up to MaxBody.
//
// On a transport failure (DNS, connect, TLS, timeout before the headers, headers
// too large) it returns (nil, *Error). When the failure happens while reading the
// body (the cap was exceeded, a deadline, a reset) it returns the Response read so
// far, with Truncated set, together with the *Error. A refused redirect is not an
// error: the 3xx Response carries Redirect.
func (f *Fetcher) Fetch(ctx context.Context, req Request) (*Response, error) {
	start := time.Now()
	u, err := parseTarget(req.URL)
	if err != nil {
		return nil, &Error{URL: redactedRaw(req.URL), Reason: "invalid URL", Err: err}
	}
	cookie, err := cleanCookie(req.Cookie)
	if err != nil {
		return nil, &Error{URL: u.Redacted(), Reason: "invalid cookie", Err: err}
	}
	ctx, cancel := context.WithTimeout(ctx, f.opts.Timeout)
	defer cancel()

	site := hostbackoff.SiteOf(u.Hostname())
	jar := f.jarFor(site)
	cur := u
	visited := map[string]bool{}
	for hops := 0; ; hops++ {
		hreq, err := http.NewRequestWithContext(ctx, http.MethodGet, cur.String(), nil)
		if err != nil {
			return nil, &Error{URL: cur.Redacted(), Reason: "invalid URL", Err: err}
		}
		hreq.Header.Set("User-Agent", f.opts.UserAgent)
		hreq.Header.Set("Accept", f.opts.Accept)
		hreq.Header.Set("Accept-Language", f.opts.AcceptLanguage)
		if cookie != "" && hostbackoff.SiteOf(cur.Hostname()) == site {
			hreq.Header.Set("Cookie", cookie)
		}
		for _, c := range jar.Cookies(cur) {
			hreq.AddCookie(c)
		}
		// The transport directly, not an http.Client: redirects are ours, and a
		// malformed Location must reach the policy rather than fail the request.
		resp, err := f.transport.RoundTrip(hreq)
		if err != nil {
			return nil, f.transportError(ctx, cur, start, err)
		}
		if rc := resp.Cookies(); len(rc) > 0 {
			jar.SetCookies(cur, rc)
		}
		visited[cur.String()] = true

		if isRedirect(resp.StatusCode) && resp.Header.Get("Location") != "" {
			next, stop := f.checkRedirect(u, cur, resp.Header.Get("Location"), hops, visited)
			if stop == nil {
				// Drain a little so the connection can be reused, then follow.
				_, _ = io.CopyN(io.Discard, resp.Body, 64<<10)
				resp.Body.Close()
				cur = next
				continue
			}
			stop.Status = resp.StatusCode
			r, err := f.finish(ctx, resp, u, cur, start)
			if r != nil {
				r.Redirect = stop
				r.Redirects = hops
			}
			return r, err
		}
		r, err := f.finish(ctx, resp, u, cur, start)
		if r != nil {
			r.Redirects = hops
		}
		return r, err
	}
}

// finish reads and decodes the body of the response that will be returned.
func (f *Fetcher) finish(ctx context.Context, resp *http.Response, reqURL, cur *url.URL, start time.Time) (*Response, error) {
	defer resp.Body.Close()
	raw, readErr := readCapped(resp.Body, f.opts.MaxBody, resp.ContentLength)
	r := &Response{
		RequestURL: reqURL,
		FinalURL:   cur,
		Status:     resp.StatusCode,
		Header:     resp.Header,
		RawBytes:   len(raw),
	}
	r.Body, r.Charset, r.CharsetNote = decodeBody(raw, resp.Header.Get("Content-Type"))
	r.Elapsed = time.Since(start)
	if readErr == nil {
		return r, nil
	}
	r.Truncated = true
	// Returning closes the body before EOF: the transport then closes the
	// connection instead of reusing it.
	if errors.Is(readErr, ErrBodyTooLarge) {
		return r, &Error{URL: cur.Redacted(), Reason: "the page was larger than " + formatSize(f.opts.MaxBody), Err: ErrBodyTooLarge}
	}
	e := f.transportError(ctx, cur, start, readErr)
	e.Reason = "reading the page: " + e.Reason
	return r, e
}

// readCapped reads at most max bytes; one byte more means ErrBodyTooLarge.
// Bodies of unknown length (gzip) are read into a pooled scratch buffer and
// copied out once at their exact size: growing a fresh slice by doubling
// allocated three times the page per poll, and the runtime kept returning
// those pages to the OS and faulting them back in (docs/PERFORMANCE.md).
func readCapped(body io.Reader, max, contentLength int64) ([]byte, error) {
	if contentLength > 0 && contentLength <= max {
		// +1 so that a correct length ends in EOF without growing.
		return readInto(make([]byte, 0, contentLength+1), body, max)
	}
	sp := scratchPool.Get().(*[]byte)
	buf, err := readInto((*sp)[:0], body, max)
	out := make([]byte, len(buf))
	copy(out, buf)
	if cap(buf) <= maxScratch {
		*sp = buf[:0]
		scratchPool.Put(sp)
	}
	return out, err
}

// maxScratch is the largest scratch buffer kept for reuse.
const maxScratch = 4 << 20

var scratchPool = sync.Pool{New: func() any { b := make([]byte, 0, 64<<10); return &b }}

func readInto(buf []byte, body io.Reader, max int64) ([]byte, error) {
	lr := &io.LimitedReader{R: body, N: max + 1}
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := lr.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > max {
			return buf[:max], ErrBodyTooLarge
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

func parseTarget(raw string) (*url.URL, error) {
	raw = strings.TrimSpace(raw)
	u, err := url.Parse(raw)
	if err != nil {
		return nil, err
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("scheme %q is not http or https", u.Scheme)
	}
	if u.Hostname() == "" {
		return nil, errors.New("no host")
	}
	u.Fragment, u.RawFragment = "", ""
	return u, nil
}

func redactedRaw(raw string) string {
	if u, err := url.Parse(raw); err == nil {
		return u.Redacted()
	}
	return raw
}

// cleanCookie trims a pasted Cookie header and rejects what would let it inject
// headers.
func cleanCookie(c string) (string, error) {
	c = strings.TrimSpace(c)
	if len(c) >= 7 && strings.EqualFold(c[:7], "cookie:") {
		c = strings.TrimSpace(c[7:])
	}
	if strings.ContainsAny(c, "\r\n\x00") {
		return "", errors.New("the cookie contains a line break or NUL")
	}
	return c, nil
}

func formatSize(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
