// Command hostproxy is an HTTP proxy on loopback that sends each request to the
// loopback load site its host name is mapped to, so the window can be shown
// with portal-like site names (kleinanzeigen.test, …) for docs/ screenshots
// (tools/soak/shots.sh) while every request stays on this machine:
//
//	hostproxy -addr 127.0.0.1:PORT -map kleinanzeigen.test=http://127.0.9.11:4001,…
//
// Notifio reaches it through HTTP_PROXY. Unmapped hosts get 502; only loopback
// targets are accepted.
package main

import (
	"flag"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "loopback address to listen on")
	maps := flag.String("map", "", "host=http://loopback-ip:port, comma-separated")
	flag.Parse()
	targets := map[string]*url.URL{}
	for _, m := range strings.Split(*maps, ",") {
		host, raw, ok := strings.Cut(strings.TrimSpace(m), "=")
		if !ok {
			continue
		}
		u, err := url.Parse(raw)
		if err != nil {
			log.Fatalf("hostproxy: %s: %v", m, err)
		}
		if ip := net.ParseIP(u.Hostname()); ip == nil || !ip.IsLoopback() {
			log.Fatalf("hostproxy: %s is not a loopback target", raw)
		}
		targets[host] = u
	}
	if ip := net.ParseIP(strings.Split(*addr, ":")[0]); ip == nil || !ip.IsLoopback() {
		log.Fatalf("hostproxy: %s is not a loopback address", *addr)
	}
	proxy := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		t := targets[r.In.URL.Hostname()]
		r.Out.URL.Scheme, r.Out.URL.Host = t.Scheme, t.Host
	}}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	log.Printf("hostproxy: listening on %s", ln.Addr())
	log.Fatal(http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if targets[r.URL.Hostname()] == nil {
			http.Error(w, "hostproxy: unmapped host "+r.URL.Hostname(), http.StatusBadGateway)
			return
		}
		proxy.ServeHTTP(w, r)
	})))
}
