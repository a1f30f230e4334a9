package cli

import (
	"expvar"
	"fmt"
	"net"
	"net/http"
	"net/http/pprof"
	"runtime"

	"notifio/storage"
)

// startDebug serves net/http/pprof and expvar (goroutines, storage commits) on
// a loopback address, for the performance figures (docs/PERFORMANCE.md). It is
// switched on by the undocumented-to-users NOTIFIO_DEBUG_ADDR variable in `run`
// (e.g. NOTIFIO_DEBUG_ADDR=127.0.0.1:6060) and refuses any other address.
func startDebug(addr string, db *storage.DB) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("cli: debug address %q: %w", addr, err)
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("cli: debug address %q must be a loopback IP", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("cli: listen on debug address: %w", err)
	}
	vars := expvar.NewMap("notifio")
	vars.Set("goroutines", expvar.Func(func() any { return runtime.NumGoroutine() }))
	vars.Set("commits", expvar.Func(func() any { return db.Commits() }))
	mux := http.NewServeMux()
	mux.Handle("/debug/vars", expvar.Handler())
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	go func() { _ = http.Serve(ln, mux) }()
	return nil
}
