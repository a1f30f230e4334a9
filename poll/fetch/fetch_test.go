package fetch

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// newFetcher returns a Fetcher closed at the end of the test.
func newFetcher(t *testing.T, opts Options) *Fetcher {
	t.Helper()
	opts.NoProxy = true
	f := New(opts)
	t.Cleanup(f.Close)
	return f
}

func serve(t *testing.T, h http.HandlerFunc) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// serveOn starts a server on a specific loopback address (127.0.0.2, …), each its
// own site. It skips the test where the OS has only 127.0.0.1.
func serveOn(t *testing.T, addr string, h http.Handler) *httptest.Server {
	t.Helper()
	l, err := net.Listen("tcp", addr+":0")
	if err != nil {
		t.Skipf("cannot listen on %s: %v", addr, err)
	}
	srv := httptest.NewUnstartedServer(h)
	srv.Listener.Close()
	srv.Listener = l
	srv.Start()
	t.Cleanup(srv.Close)
	return srv
}

func fetchErr(t *testing.T, err error) *Error {
	t.Helper()
	var fe *Error
	if !errors.As(err, &fe) {
		t.Fatalf("error %v (%T) is not a *fetch.Error", err, err)
	}
	if !strings.HasPrefix(err.Error(), "fetch: ") {
		t.Errorf("error %q does not start with fetch:", err)
	}
	return fe
}

func TestFetchSendsBrowserHeadersCookiesAndJar(t *testing.T) {
	var mu sync.Mutex
	var got []http.Header
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.Header.Clone())
		mu.Unlock()
		http.SetCookie(w, &http.Cookie{Name: "sess", Value: "abc", Path: "/"})
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, "<html><title>Suche</title><p>Grüße</p></html>")
	})
	f := newFetcher(t, Options{UserAgent: "TestAgent/1.0"})
	ctx := context.Background()
	resp, err := f.Fetch(ctx, Request{URL: srv.URL + "/suche?q=1#frag", Cookie: "Cookie: pasted=1; other=2"})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Status != 200 || !bytes.Contains(resp.Body, []byte("Grüße")) || resp.Charset != "utf-8" {
		t.Fatalf("got status %d charset %q body %q", resp.Status, resp.Charset, resp.Body)
	}
	if resp.RequestURL.Fragment != "" || resp.FinalURL.String() != srv.URL+"/suche?q=1" {
		t.Errorf("URLs: request %v final %v", resp.RequestURL, resp.FinalURL)
	}
	if _, err := f.Fetch(ctx, Request{URL: srv.URL + "/suche"}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	h := got[0]
	if h.Get("User-Agent") != "TestAgent/1.0" || h.Get("Accept") != DefaultAccept || h.Get("Accept-Language") != DefaultAcceptLanguage {
		t.Errorf("request headers: %v", h)
	}
	if h.Get("Cookie") != "pasted=1; other=2" {
		t.Errorf("first request Cookie = %q, want the pasted one", h.Get("Cookie"))
	}
	if c := got[1].Get("Cookie"); c != "sess=abc" {
		t.Errorf("second request Cookie = %q, want the jar's sess=abc", c)
	}
	// The jar is per site: clearing it forgets the cookie.
	mu.Unlock()
	f.ClearCookies("127.0.0.1")
	if _, err := f.Fetch(ctx, Request{URL: srv.URL + "/suche"}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	if c := got[2].Get("Cookie"); c != "" {
		t.Errorf("after ClearCookies Cookie = %q", c)
	}
}

func TestInvalidRequests(t *testing.T) {
	f := newFetcher(t, Options{})
	for _, tc := range []struct{ url, cookie, reason string }{
		{"ftp://example.com/x", "", "invalid URL"},
		{"not a url at all", "", "invalid URL"},
		{"https:///nohost", "", "invalid URL"},
		{"http://127.0.0.1:1/", "a=1\r\nX-Evil: 1", "invalid cookie"},
	} {
		_, err := f.Fetch(context.Background(), Request{URL: tc.url, Cookie: tc.cookie})
		if fe := fetchErr(t, err); fe.Reason != tc.reason {
			t.Errorf("%q: reason %q, want %q", tc.url, fe.Reason, tc.reason)
		}
	}
}

// hangingListener accepts connections and never answers.
func hangingListener(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		l.Close()
		<-done
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
	})
	return "http://" + l.Addr().String() + "/"
}

func TestHeadersNeverSent(t *testing.T) {
	u := hangingListener(t)
	t.Run("context deadline", func(t *testing.T) {
		f := newFetcher(t, Options{})
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		resp, err := f.Fetch(ctx, Request{URL: u})
		fe := fetchErr(t, err)
		if resp != nil || !IsTimeout(err) || !strings.HasPrefix(fe.Reason, "timed out after") {
			t.Fatalf("resp %v, err %v (timeout %v)", resp, err, IsTimeout(err))
		}
		if IsNetworkUnreachable(err) {
			t.Error("a hanging server is not 'network unreachable'")
		}
	})
	t.Run("response header timeout", func(t *testing.T) {
		f := newFetcher(t, Options{ResponseHeaderTimeout: 200 * time.Millisecond})
		_, err := f.Fetch(context.Background(), Request{URL: u})
		fe := fetchErr(t, err)
		if fe.Reason != "no response headers within 200ms" || !IsTimeout(err) {
			t.Fatalf("reason %q err %v", fe.Reason, err)
		}
	})
}

func TestBodyTrickleEndsAtDeadline(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(200)
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			if _, err := w.Write([]byte("x")); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-tick.C:
			}
		}
	})
	f := newFetcher(t, Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	resp, err := f.Fetch(ctx, Request{URL: srv.URL})
	fe := fetchErr(t, err)
	if !IsTimeout(err) || !strings.HasPrefix(fe.Reason, "reading the page: timed out after") {
		t.Fatalf("err %v", err)
	}
	if resp == nil || resp.Status != 200 || !resp.Truncated || string(resp.Body) != "x" {
		t.Fatalf("partial response %+v", resp)
	}
}

// connWatch counts connections a server closed.
type connWatch struct{ closed atomic.Int32 }

func (c *connWatch) hook(_ net.Conn, s http.ConnState) {
	if s == http.StateClosed || s == http.StateHijacked {
		c.closed.Add(1)
	}
}

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestBodyCap(t *testing.T) {
	const total = 50 << 20
	zeros := make([]byte, 32<<10)
	bomb := func() []byte {
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, gzip.BestSpeed)
		for n := 0; n < total; n += len(zeros) {
			zw.Write(zeros)
		}
		zw.Close()
		return b.Bytes()
	}()
	if len(bomb) > 1<<20 {
		t.Fatalf("bomb is %d bytes compressed", len(bomb))
	}
	cases := []struct {
		name string
		h    http.HandlerFunc
	}{
		{"50 MiB chunked", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			for n := 0; n < total; n += len(zeros) {
				if _, err := w.Write(zeros); err != nil {
					return
				}
				w.(http.Flusher).Flush()
			}
		}},
		{"gzip bomb", func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("Accept-Encoding") != "gzip" {
				http.Error(w, "expected the transport's Accept-Encoding: gzip", 400)
				return
			}
			w.Header().Set("Content-Type", "text/html")
			w.Header().Set("Content-Encoding", "gzip")
			w.Write(bomb)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var cw connWatch
			srv := httptest.NewUnstartedServer(tc.h)
			srv.Config.ConnState = cw.hook
			srv.Start()
			defer srv.Close()
			f := newFetcher(t, Options{})
			resp, err := f.Fetch(context.Background(), Request{URL: srv.URL})
			fe := fetchErr(t, err)
			if !errors.Is(err, ErrBodyTooLarge) || fe.Reason != "the page was larger than 5 MiB" {
				t.Fatalf("err %v", err)
			}
			if resp == nil || !resp.Truncated || resp.RawBytes != DefaultMaxBody || resp.Status != 200 {
				t.Fatalf("resp %+v", resp)
			}
			waitFor(t, "the server to see the connection closed", func() bool { return cw.closed.Load() >= 1 })
		})
	}
}

func TestBodyAtCapAndGzipDecoded(t *testing.T) {
	page := strings.Repeat("a", 1000)
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		zw := gzip.NewWriter(w)
		n, _ := strconv.Atoi(r.URL.Query().Get("n"))
		io.WriteString(zw, page[:n])
		zw.Close()
	})
	f := newFetcher(t, Options{MaxBody: 999})
	resp, err := f.Fetch(context.Background(), Request{URL: srv.URL + "?n=999"})
	if err != nil || resp.RawBytes != 999 || resp.Truncated {
		t.Fatalf("at the cap: %v %+v", err, resp)
	}
	_, err = f.Fetch(context.Background(), Request{URL: srv.URL + "?n=1000"})
	if fe := fetchErr(t, err); fe.Reason != "the page was larger than 999 bytes" {
		t.Fatalf("over the cap: %v", err)
	}
}

func TestHugeHeaders(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i < 1024; i++ {
			w.Header().Set(fmt.Sprintf("X-Filler-%d", i), strings.Repeat("h", 1024))
		}
		io.WriteString(w, "body")
	})
	f := newFetcher(t, Options{})
	resp, err := f.Fetch(context.Background(), Request{URL: srv.URL})
	fe := fetchErr(t, err)
	if resp != nil || !errors.Is(err, ErrHeadersTooLarge) || fe.Reason != "response headers larger than 64 KiB" {
		t.Fatalf("resp %v err %v", resp, err)
	}
}

// redirector answers /r/N with a redirect to /r/N-1 and /r/0 with a page.
func redirector(w http.ResponseWriter, r *http.Request) {
	switch {
	case strings.HasPrefix(r.URL.Path, "/r/"):
		n, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/r/"))
		if n > 0 {
			http.SetCookie(w, &http.Cookie{Name: "hop" + strconv.Itoa(n), Value: "1", Path: "/"})
			http.Redirect(w, r, fmt.Sprintf("/r/%d", n-1), http.StatusFound)
			return
		}
		fmt.Fprintf(w, "<p>arrived; cookies: %s</p>", r.Header.Get("Cookie"))
	case r.URL.Path == "/a":
		http.Redirect(w, r, "/b", http.StatusMovedPermanently)
	case r.URL.Path == "/b":
		http.Redirect(w, r, "/a", http.StatusMovedPermanently)
	case r.URL.Path == "/ftp":
		http.Redirect(w, r, "ftp://127.0.0.1/file.html", http.StatusFound)
	case r.URL.Path == "/badloc":
		w.Header().Set("Location", "http://[::1")
		w.WriteHeader(http.StatusFound)
	case r.URL.Path == "/noloc":
		w.WriteHeader(http.StatusFound)
		io.WriteString(w, "no location")
	default:
		http.NotFound(w, r)
	}
}

func TestRedirectPolicy(t *testing.T) {
	srv := serve(t, redirector)
	f := newFetcher(t, Options{})
	for _, tc := range []struct {
		path      string
		why       StopReason // "" when the page is reached
		redirects int
		status    int
	}{
		{"/r/5", "", 5, 200},
		{"/r/11", StopTooMany, 5, 302},
		{"/r/6", StopTooMany, 5, 302},
		{"/a", StopLoop, 5, 301},
		{"/ftp", StopScheme, 0, 302},
		{"/badloc", StopBadLocation, 0, 302},
		{"/noloc", "", 0, 302},
	} {
		t.Run(tc.path, func(t *testing.T) {
			resp, err := f.Fetch(context.Background(), Request{URL: srv.URL + tc.path})
			if err != nil {
				t.Fatal(err)
			}
			if resp.Status != tc.status || resp.Redirects != tc.redirects {
				t.Errorf("status %d redirects %d, want %d %d", resp.Status, resp.Redirects, tc.status, tc.redirects)
			}
			if tc.why == "" {
				if resp.Redirect != nil {
					t.Fatalf("unexpected stop %v", resp.Redirect)
				}
				return
			}
			if resp.Redirect == nil || resp.Redirect.Why != tc.why {
				t.Fatalf("stop %+v, want %s", resp.Redirect, tc.why)
			}
			if resp.Redirect.Status != tc.status || resp.Redirect.String() == "" {
				t.Errorf("stop %+v: %s", resp.Redirect, resp.Redirect)
			}
			if resp.FinalURL.String() != resp.Redirect.From.String() {
				t.Errorf("FinalURL %v, From %v", resp.FinalURL, resp.Redirect.From)
			}
		})
	}
	// Cookies set along followed redirects are sent on the next hops.
	resp, err := f.Fetch(context.Background(), Request{URL: srv.URL + "/r/2"})
	if err != nil || !bytes.Contains(resp.Body, []byte("hop2=1; hop1=1")) {
		t.Fatalf("cookies along redirects: %v %s", err, resp.Body)
	}
}

func TestRedirectHTTPSDowngrade(t *testing.T) {
	plain := serve(t, redirector)
	tlsSrv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/down":
			http.Redirect(w, r, plain.URL+"/r/0", http.StatusFound)
		case "/same":
			http.Redirect(w, r, "/page", http.StatusFound)
		default:
			io.WriteString(w, "secure page")
		}
	}))
	tlsSrv.Config.ErrorLog = log.New(io.Discard, "", 0) // the untrusted-cert case below
	tlsSrv.StartTLS()
	defer tlsSrv.Close()
	pool := x509.NewCertPool()
	pool.AddCert(tlsSrv.Certificate())
	f := newFetcher(t, Options{TLSConfig: &tls.Config{RootCAs: pool}})

	resp, err := f.Fetch(context.Background(), Request{URL: tlsSrv.URL + "/same"})
	if err != nil || string(resp.Body) != "secure page" || resp.Redirects != 1 {
		t.Fatalf("https same-site redirect: %v %+v", err, resp)
	}
	resp, err = f.Fetch(context.Background(), Request{URL: tlsSrv.URL + "/down"})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Redirect == nil || resp.Redirect.Why != StopDowngrade || resp.Redirect.To.Scheme != "http" {
		t.Fatalf("stop %+v", resp.Redirect)
	}
	if !strings.Contains(resp.Redirect.String(), "from https to http") {
		t.Errorf("String: %s", resp.Redirect)
	}

	// Without the test CA the certificate is refused, in plain words.
	g := newFetcher(t, Options{})
	_, err = g.Fetch(context.Background(), Request{URL: tlsSrv.URL + "/"})
	if fe := fetchErr(t, err); !strings.HasPrefix(fe.Reason, "TLS") || IsNetworkUnreachable(err) {
		t.Fatalf("untrusted cert: %v", err)
	}
}

func TestCrossSiteRedirectNotFollowed(t *testing.T) {
	var hits atomic.Int32
	login := serveOn(t, "127.0.0.3", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		io.WriteString(w, "<form action=/login>")
	}))
	var target string
	site := serveOn(t, "127.0.0.2", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target, http.StatusFound)
	}))
	target = login.URL + "/login?next=%2Fsuche"
	f := newFetcher(t, Options{})
	resp, err := f.Fetch(context.Background(), Request{URL: site.URL + "/suche", Cookie: "session=secret"})
	if err != nil {
		t.Fatal(err)
	}
	st := resp.Redirect
	if st == nil || st.Why != StopCrossSite || st.To.String() != target || resp.Status != 302 {
		t.Fatalf("stop %+v status %d", st, resp.Status)
	}
	if !strings.Contains(st.String(), "127.0.0.3") {
		t.Errorf("String %q does not name the other site", st)
	}
	if hits.Load() != 0 {
		t.Error("the other site was contacted")
	}
}

func TestCharsets(t *testing.T) {
	latin1 := []byte("<html><body><p>Sch\xf6ne Wohnung in M\xfcnchen, 3 Zimmer, 1.250 \x80</p></body></html>")
	utf8Page := "<p>" + strings.Repeat("a", 2000) + " München</p>"
	cases := []struct {
		name, contentType string
		body              []byte
		want, charset     string
		noteHas           string
	}{
		{"latin-1 without charset", "text/html", latin1, "Schöne Wohnung in München, 3 Zimmer, 1.250 €", "windows-1252", ""},
		{"charset=utf-8 on latin-1 bytes", "text/html; charset=utf-8", latin1, "Schöne Wohnung in München", "windows-1252", "labelled utf-8"},
		{"utf-8 on mixed bytes", "text/html; charset=utf-8", []byte("<p>M\xc3\xbcnchen M\xfcnchen</p>"), "München M\uFFFDnchen", "utf-8", "U+FFFD"},
		{"meta charset", "text/html", []byte(`<meta charset="iso-8859-1"><p>M` + "\xfc" + `nchen</p>`), "München", "windows-1252", ""},
		{"utf-8 undeclared, non-ASCII after 1024 bytes", "text/html", []byte(utf8Page), "a München", "utf-8", "valid UTF-8"},
		{"utf-8 BOM", "text/html", append([]byte{0xEF, 0xBB, 0xBF}, "<p>München</p>"...), "<p>München", "utf-8", ""},
		{"utf-16le BOM", "text/html", []byte("\xff\xfe<\x00p\x00>\x00M\x00\xfc\x00"), "<p>Mü", "utf-16le", ""},
		{"empty 200", "text/html; charset=utf-8", nil, "", "", ""},
	}
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		tc := cases[mustAtoi(r.URL.Query().Get("i"))]
		w.Header().Set("Content-Type", tc.contentType)
		w.Write(tc.body)
	})
	f := newFetcher(t, Options{})
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := f.Fetch(context.Background(), Request{URL: fmt.Sprintf("%s/?i=%d", srv.URL, i)})
			if err != nil {
				t.Fatal(err)
			}
			if resp.Status != 200 || resp.Charset != tc.charset || resp.RawBytes != len(tc.body) {
				t.Errorf("status %d charset %q raw %d", resp.Status, resp.Charset, resp.RawBytes)
			}
			if !strings.Contains(string(resp.Body), tc.want) {
				t.Errorf("body %q does not contain %q", resp.Body, tc.want)
			}
			if resp.Body == nil {
				t.Error("nil body")
			}
			if !strings.Contains(resp.CharsetNote, tc.noteHas) || (tc.noteHas == "" && resp.CharsetNote != "") {
				t.Errorf("note %q, want it to contain %q", resp.CharsetNote, tc.noteHas)
			}
		})
	}
}

func mustAtoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		panic(err)
	}
	return n
}

func TestTransportFailures(t *testing.T) {
	// A port nobody listens on: refused, which is not "offline".
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	f := newFetcher(t, Options{})
	_, err = f.Fetch(context.Background(), Request{URL: "http://" + addr + "/"})
	if fe := fetchErr(t, err); fe.Reason != "connection refused" || IsNetworkUnreachable(err) || IsTimeout(err) {
		t.Fatalf("refused: %v (unreachable %v)", err, IsNetworkUnreachable(err))
	}

	// A DNS failure counts as unreachable. The dialer stands for the resolver,
	// so nothing is sent off this machine.
	off := newFetcher(t, Options{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		return nil, &net.OpError{Op: "dial", Net: network, Err: &net.DNSError{Err: "no such host", Name: "notifio-test.invalid", IsNotFound: true}}
	}})
	_, err = off.Fetch(context.Background(), Request{URL: "http://notifio-test.invalid/"})
	var dns *net.DNSError
	if !errors.As(err, &dns) {
		t.Fatalf("want a DNS error, got %v", err)
	}
	fetchErr(t, err)
	if !IsNetworkUnreachable(err) {
		t.Fatalf("DNS failure not unreachable: %v", err)
	}

	// A server that closes the connection without answering.
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		c, _, _ := w.(http.Hijacker).Hijack()
		c.Close()
	})
	_, err = f.Fetch(context.Background(), Request{URL: srv.URL})
	if fe := fetchErr(t, err); fe.Reason != "connection closed early" || IsNetworkUnreachable(err) {
		t.Fatalf("closed: %v", err)
	}
}

func TestIsNetworkUnreachable(t *testing.T) {
	op := func(err error) error {
		return &url.Error{Op: "Get", URL: "http://x/", Err: &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", err)}}
	}
	wrap := func(err error) error { return &Error{URL: "http://x/", Reason: "r", Err: err} }
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{nil, false},
		{wrap(&net.DNSError{Err: "no such host", Name: "x", IsNotFound: true}), true},
		{wrap(&net.DNSError{Err: "i/o timeout", Name: "x", IsTimeout: true}), true},
		{wrap(op(syscall.ENETUNREACH)), true},
		{wrap(op(syscall.EHOSTUNREACH)), true},
		{wrap(op(syscall.ECONNREFUSED)), false},
		{wrap(op(syscall.ECONNRESET)), false},
		{wrap(context.DeadlineExceeded), false},
		{wrap(ErrBodyTooLarge), false},
		{errors.New("something"), false},
	} {
		if got := IsNetworkUnreachable(tc.err); got != tc.want {
			t.Errorf("IsNetworkUnreachable(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}

func TestFormatSize(t *testing.T) {
	for n, want := range map[int64]string{5 << 20: "5 MiB", 64 << 10: "64 KiB", 999: "999 bytes", 3 << 19: "1.5 MiB"} {
		if got := formatSize(n); got != want {
			t.Errorf("formatSize(%d) = %q, want %q", n, got, want)
		}
	}
}

// Fetch asks for gzip itself (pooled readers): the caller sees the page
// decompressed, without the encoding headers, whatever the order of fetches;
// a broken gzip stream is a read error in words; an empty gzip body is empty.
func TestGzipPooledAndReleased(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Accept-Encoding") != "gzip" {
			http.Error(w, "no Accept-Encoding: gzip", 400)
			return
		}
		switch r.URL.Query().Get("k") {
		case "broken":
			w.Header().Set("Content-Encoding", "gzip")
			io.WriteString(w, "this is not gzip at all")
		case "empty":
			w.Header().Set("Content-Encoding", "gzip")
		default:
			w.Header().Set("Content-Encoding", "gzip")
			zw := gzip.NewWriter(w)
			fmt.Fprintf(zw, "<html><title>page %s</title>%s</html>", r.URL.Query().Get("k"), strings.Repeat("x", 100<<10))
			zw.Close()
		}
	})
	f := newFetcher(t, Options{})
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range 5 {
				k := strconv.Itoa(i*10 + n)
				resp, err := f.Fetch(context.Background(), Request{URL: srv.URL + "?k=" + k})
				if err != nil {
					t.Errorf("fetch %s: %v", k, err)
					return
				}
				want := "<html><title>page " + k + "</title>"
				if !bytes.HasPrefix(resp.Body, []byte(want)) || resp.RawBytes != len(want)+100<<10+len("</html>") {
					t.Errorf("fetch %s: body %.40q, %d bytes", k, resp.Body, resp.RawBytes)
				}
				if resp.Header.Get("Content-Encoding") != "" || resp.Header.Get("Content-Length") != "" {
					t.Errorf("fetch %s: encoding headers left: %v", k, resp.Header)
				}
				resp.Release()
				if resp.Body != nil {
					t.Errorf("fetch %s: Body kept after Release", k)
				}
				resp.Release() // twice is harmless
			}
		}()
	}
	wg.Wait()

	resp, err := f.Fetch(context.Background(), Request{URL: srv.URL + "?k=empty"})
	if err != nil || len(resp.Body) != 0 || resp.Body == nil {
		t.Fatalf("empty gzip body: %v %+v", err, resp)
	}
	_, err = f.Fetch(context.Background(), Request{URL: srv.URL + "?k=broken"})
	if fe := fetchErr(t, err); !strings.HasPrefix(fe.Reason, "reading the page") {
		t.Fatalf("broken gzip: %v", err)
	}
}

// Detach keeps the body (memory of its own) and gives the pooled buffer back:
// a later fetch reusing that buffer does not change it.
func TestDetachKeepsTheBody(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		zw := gzip.NewWriter(w)
		io.WriteString(zw, strings.Repeat(r.URL.Query().Get("c"), 50<<10))
		zw.Close()
	})
	f := newFetcher(t, Options{})
	a, err := f.Fetch(context.Background(), Request{URL: srv.URL + "?c=a"})
	if err != nil {
		t.Fatal(err)
	}
	a.Detach()
	a.Release() // no-op after Detach
	for range 4 {
		b, err := f.Fetch(context.Background(), Request{URL: srv.URL + "?c=b"})
		if err != nil {
			t.Fatal(err)
		}
		b.Release()
	}
	if len(a.Body) != 50<<10 || strings.Trim(string(a.Body), "a") != "" {
		t.Fatalf("detached body changed: %.20q… (%d bytes)", a.Body, len(a.Body))
	}
}
