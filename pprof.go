package main

import (
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
)

// startPprof serves net/http/pprof for the window when NOTIFIO_PPROF names a
// loopback address (e.g. NOTIFIO_PPROF=127.0.0.1:6061): the heap profiles of
// docs/PERFORMANCE.md's soak come from it. It is off unless set, refuses any
// address that is not a loopback IP, and never stops the window from starting.
func startPprof(addr string, log *slog.Logger) {
	if addr == "" {
		return
	}
	if err := servePprof(addr); err != nil {
		log.Warn("pprof not started", "addr", addr, "err", err)
	}
}

func servePprof(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("pprof: address %q: %w", addr, err)
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("pprof: address %q must be a loopback IP", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("pprof: listen: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	go func() { _ = http.Serve(ln, mux) }()
	return nil
}
