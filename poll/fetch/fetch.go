// Package fetch gets one search page safely: one long-lived transport with timeouts at
// every stage, a body cap counted after decompression, browser-like request headers,
// a cookie jar per site (model.SiteOf: eTLD+1, IP literals their own site),
// an optional user-pasted Cookie header, its own redirect
// policy (cross-site redirects are reported, never followed), and the body decoded
// to UTF-8.
//
// It does not judge what came back: poll/classify turns a Response (or an error)
// into an outcome.
package fetch

import (
	"bufio"
	"bytes"
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

	// Decompresses the same gzip streams as compress/gzip, ~1.7× faster: the
	// gunzip was a fifth of the headless watcher's CPU (docs/PERFORMANCE.md).
	"github.com/klauspost/compress/gzip"
	"golang.org/x/net/publicsuffix"

	"notifio/internal/model"
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

	scratch *[]byte // the pooled buffer Body lives in, for Release
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
	Default(&opts.UserAgent, DefaultUserAgent)
	Default(&opts.Accept, DefaultAccept)
	Default(&opts.AcceptLanguage, DefaultAcceptLanguage)
	Default(&opts.MaxBody, DefaultMaxBody)
	Default(&opts.MaxHeaderBytes, DefaultMaxHeaderBytes)
	Default(&opts.DialTimeout, DefaultDialTimeout)
	Default(&opts.TLSHandshakeTimeout, DefaultTLSHandshakeTimeout)
	Default(&opts.ResponseHeaderTimeout, DefaultResponseHeaderTimeout)
	Default(&opts.Timeout, DefaultTimeout)
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
		// Enough idle connections for every site a user watches (one
		// connection per site is kept between polls; 32 made 100 sites dial
		// anew most of the time).
		MaxIdleConns:          256,
		ReadBufferSize:        16 << 10, // fewer read calls per page than the 4 KiB default
		MaxIdleConnsPerHost:   2,
		IdleConnTimeout:       90 * time.Second,
		ExpectContinueTimeout: time.Second,
		// Fetch asks for gzip itself and decompresses with pooled readers (a
		// gzip reader is ~45 KB of state; one per poll was a large share of the
		// watcher's allocations). The body cap counts the decompressed stream.
		DisableCompression: true,
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

// ClearCookies forgets the jar cookies of one site (as model.SiteOf names it).
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

	site := model.SiteOf(u.Hostname())
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
		hreq.Header.Set("Accept-Encoding", "gzip")
		if cookie != "" && model.SiteOf(cur.Hostname()) == site {
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
	body := io.Reader(resp.Body)
	contentLength := resp.ContentLength
	var zr *gzip.Reader
	if strings.EqualFold(strings.TrimSpace(resp.Header.Get("Content-Encoding")), "gzip") {
		// What the transport does when it asked for gzip itself: the caller sees
		// the decompressed page, without the encoding headers.
		resp.Header.Del("Content-Encoding")
		resp.Header.Del("Content-Length")
		contentLength = -1
		gz := gzipPool.Get().(*gzipState)
		defer func() {
			gz.br.Reset(nil) // no reference to this response kept in the pool
			gzipPool.Put(gz)
		}()
		// A reader with ReadByte, so that gzip does not wrap the body in a
		// fresh bufio.Reader of its own on every poll.
		gz.br.Reset(resp.Body)
		zr = &gz.zr
		if err := zr.Reset(gz.br); err != nil {
			if errors.Is(err, io.EOF) { // an empty body labelled gzip
				body = strings.NewReader("")
			} else {
				body = errReader{err}
			}
		} else {
			body = zr
		}
	}
	raw, pooled, readErr := readCapped(body, f.opts.MaxBody, contentLength)
	r := &Response{
		RequestURL: reqURL,
		FinalURL:   cur,
		Status:     resp.StatusCode,
		Header:     resp.Header,
		RawBytes:   len(raw),
	}
	r.Body, r.Charset, r.CharsetNote = DecodePage(raw, resp.Header.Get("Content-Type"))
	if pooled != nil {
		if len(r.Body) > 0 && len(raw) > 0 && &r.Body[0] == &raw[0] {
			r.scratch = pooled // Body is the scratch buffer: Release returns it
		} else {
			putScratch(pooled) // decoding copied it
		}
	}
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

// Release hands the memory of Body back for reuse by later fetches. Call it only
// when nothing refers to Body any more (Body is then nil). Optional: a Response
// that is not released is garbage-collected as usual.
func (r *Response) Release() {
	if r == nil || r.scratch == nil {
		return
	}
	r.Body = nil
	putScratch(r.scratch)
	r.scratch = nil
}

// Detach gives Body memory of its own, of exactly its length, and hands the
// pooled buffer it was read into back for reuse: for a body that is kept a
// while (parsed, saved), so that the pool's larger buffers are not held.
func (r *Response) Detach() {
	if r == nil || r.scratch == nil {
		return
	}
	r.Body = bytes.Clone(r.Body)
	putScratch(r.scratch)
	r.scratch = nil
}

// errReader fails every read with err (a gzip header that did not parse).
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// gzipState is a reusable gzip reader with its buffered source.
type gzipState struct {
	zr gzip.Reader
	br *bufio.Reader
}

var gzipPool = sync.Pool{New: func() any { return &gzipState{br: bufio.NewReaderSize(nil, 4<<10)} }}

// readCapped reads at most max bytes; one byte more means ErrBodyTooLarge.
// Bodies of unknown length (gzip) are read into a pooled scratch buffer, which
// is returned as pooled (and the body is a slice of it): growing a fresh slice
// by doubling allocated three times the page per poll, and the runtime kept
// returning those pages to the OS and faulting them back in
// (docs/PERFORMANCE.md). The caller gives pooled back with putScratch when the
// body is no longer used, or lets it be collected.
func readCapped(body io.Reader, max, contentLength int64) (out []byte, pooled *[]byte, err error) {
	if contentLength > 0 && contentLength <= max {
		// +1 so that a correct length ends in EOF without growing.
		out, err = readInto(make([]byte, 0, contentLength+1), body, max)
		return out, nil, err
	}
	sp := getScratch()
	buf, err := readInto((*sp)[:0], body, max)
	*sp = buf[:0]
	return buf, sp, err
}

// scratchKept holds a few page buffers across garbage collections (a
// sync.Pool is emptied by every other GC, and a fresh buffer grows by doubling
// to the page's size); more than that at once go through scratchPool.
var scratchKept = make(chan *[]byte, 4)

func getScratch() *[]byte {
	select {
	case sp := <-scratchKept:
		return sp
	default:
		return scratchPool.Get().(*[]byte)
	}
}

func putScratch(sp *[]byte) {
	if cap(*sp) > maxScratch {
		return
	}
	*sp = (*sp)[:0]
	select {
	case scratchKept <- sp:
	default:
		scratchPool.Put(sp)
	}
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
