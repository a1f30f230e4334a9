// Command loadsite serves a farm of fake rental portals on loopback addresses
// (see package notifio/tools/loadsite for what the pages look like):
//
//	loadsite -sites 100 -base-ip 127.0.1.1 -listings 25 -page-kb 300 \
//	  -refuse "3:429,4:challenge,5:403" -new-every 5m -addr-file sites.txt
//
// It writes each site's base URL to -addr-file, one per line, then serves until
// SIGINT or SIGTERM, or until -for elapses. With -events FILE it appends one JSON
// line per new listing the first time a page showing it is served.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"notifio/tools/loadsite"
)

func main() {
	sites := flag.Int("sites", 10, "number of sites (one loopback IP each)")
	baseIP := flag.String("base-ip", "127.0.1.1", "loopback IP of the first site; the next sites take the following IPs")
	port := flag.Int("port", 0, "TCP port of every site (0: a free port per site)")
	listings := flag.Int("listings", 25, "listings per results page")
	pageKB := flag.Int("page-kb", 300, "approximate page size in KiB")
	megaMenu := flag.Int("mega-menu", 0, "links in the header's menu, in ten sections (0: 50)")
	refuse := flag.String("refuse", "", `sites that refuse, by 1-based index: "3:429,4:challenge,5:403" (modes: 429, 403, 503, challenge, soft, login, script)`)
	newEvery := flag.Duration("new-every", 5*time.Minute, "a new listing appears on each search page this often (0s or negative: never)")
	vary := flag.Bool("vary", false, "put a per-request token in every page (no two responses byte-identical), as real portals do")
	gz := flag.Bool("gzip", true, "gzip pages for clients that accept it")
	addrFile := flag.String("addr-file", "", "write the sites' base URLs here, one per line (default: standard output)")
	events := flag.String("events", "", "append one JSON line per new listing served to this file")
	dur := flag.Duration("for", 0, "stop after this long (0: until SIGINT/SIGTERM)")
	flag.Parse()

	ref, err := loadsite.ParseRefuse(*refuse)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	ne := *newEvery
	if ne <= 0 {
		ne = -1
	}
	cfg := loadsite.Config{Sites: *sites, BaseIP: *baseIP, Port: *port, Listings: *listings,
		PageKB: *pageKB, MegaMenu: *megaMenu, Refuse: ref, NewEvery: ne, Gzip: *gz, Vary: *vary}
	var mu sync.Mutex
	if *events != "" {
		ef, err := os.OpenFile(*events, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			fmt.Fprintln(os.Stderr, "loadsite:", err)
			os.Exit(1)
		}
		defer ef.Close()
		enc := json.NewEncoder(ef)
		cfg.OnNew = func(e loadsite.Event) {
			mu.Lock()
			_ = enc.Encode(e)
			mu.Unlock()
		}
	}
	farm, err := loadsite.Start(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer farm.Close()
	list := strings.Join(farm.URLs(), "\n") + "\n"
	if *addrFile != "" {
		if err := os.WriteFile(*addrFile, []byte(list), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "loadsite:", err)
			os.Exit(1)
		}
	} else {
		fmt.Print(list)
	}
	fmt.Fprintf(os.Stderr, "loadsite: serving %d sites from %s\n", *sites, *baseIP)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *dur > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *dur)
		defer cancel()
	}
	<-ctx.Done()
	n, b := farm.Stats()
	fmt.Fprintf(os.Stderr, "loadsite: stopped after %d requests, %d bytes\n", n, b)
}
