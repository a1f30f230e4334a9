package poll

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"testing"
	"time"

	"golang.org/x/net/html"

	"notifio/poll/fetch"
	"notifio/tools/loadsite"
)

// The steady state of a search (issue 34): a poll after the first reads the
// result list the search learnt, against html.Parse of the same page and
// against extraction from scratch. tools/steadystate.sh runs it and prints
// the figures.

// steadyPage is one page of a search seen before: its body and the structure
// the search learnt on an earlier page of the same path.
type steadyPage struct {
	pipePage
	structure string
}

// steadyCount is how many pages a steady-state pass reads.
const steadyCount = 100

// reEuro is a price as loadsite writes it.
var reEuro = regexp.MustCompile(`>(\d+) €<`)

// steadyPages fetches n pages of about 160 KB with a 1,280-link mega menu
// (PageKB 134: a menu that large outgrows the footer loadsite fills up to
// PageKB) from a loadsite farm, each from its own path (its own listings) and
// with its own request token; the structure is learnt on an earlier fetch of
// the path, and every other page shows a new price on the same links.
func steadyPages(tb testing.TB, n int) []steadyPage {
	tb.Helper()
	farm, err := loadsite.Start(loadsite.Config{Sites: 1, BaseIP: "127.0.0.1", PageKB: 134, MegaMenu: 1280, NewEvery: -1, Vary: true})
	if err != nil {
		tb.Fatal(err)
	}
	defer farm.Close()
	get := func(u string) []byte {
		resp, err := http.Get(u)
		if err != nil {
			tb.Fatal(err)
		}
		defer resp.Body.Close()
		var buf bytes.Buffer
		_, _ = buf.ReadFrom(resp.Body)
		return buf.Bytes()
	}
	out := make([]steadyPage, 0, n)
	for i := range n {
		raw := farm.URLs()[0] + fmt.Sprintf("search/%d", i)
		u, _ := url.Parse(raw)
		first := analyze(job{url: raw}, response200(get(raw), u), nil, t0)
		if first.ext.Structure == "" {
			tb.Fatalf("page %d: the first poll learnt no structure (method %s)", i, first.ext.Method)
		}
		body := get(raw)
		if i%2 == 1 { // a new price on the same links
			done := false
			body = reEuro.ReplaceAllFunc(body, func(m []byte) []byte {
				if done {
					return m
				}
				done = true
				return []byte(">99 €<")
			})
		}
		out = append(out, steadyPage{pipePage{name: fmt.Sprintf("search-%d", i), body: body, url: u}, first.ext.Structure})
	}
	return out
}

// response200 is a fetched page as the fetcher hands it over.
func response200(body []byte, u *url.URL) *fetch.Response {
	return &fetch.Response{Status: 200, Header: http.Header{"Content-Type": {"text/html; charset=utf-8"}},
		Body: body, RequestURL: u, FinalURL: u}
}

// steadyPass is the pipeline after the fetch over every page, with the
// structure learnt (learnt) or without (from scratch).
func steadyPass(tb testing.TB, pages []steadyPage, learnt bool) {
	for _, p := range pages {
		j := job{url: p.url.String()}
		if learnt {
			j.structure = p.structure
		}
		if res := analyze(j, response200(p.body, p.url), nil, t0); len(res.ext.Listings) == 0 {
			tb.Fatalf("%s: no listings", p.name)
		}
	}
}

func parsePass(tb testing.TB, pages []steadyPage) {
	for _, p := range pages {
		if _, err := html.Parse(bytes.NewReader(p.body)); err != nil {
			tb.Fatal(err)
		}
	}
}

// BenchmarkSteadyState times, in turns within each iteration (so that the
// shared machine's drift falls on all three alike), html.Parse of the 100
// pages, the steady-state pass that reads the learnt list, and the pass from
// scratch, in CPU time; it reports each per page and the two passes over
// html.Parse. Before timing, the learnt pass must give every page's listings
// exactly as extraction from scratch does, the new prices included.
func BenchmarkSteadyState(b *testing.B) {
	pages := steadyPages(b, steadyCount)
	for _, p := range pages {
		j := job{url: p.url.String()}
		full := analyze(j, response200(p.body, p.url), nil, t0).ext
		j.structure = p.structure
		learnt := analyze(j, response200(p.body, p.url), nil, t0).ext
		if !slices.Equal(full.Listings, learnt.Listings) {
			b.Fatalf("%s: the learnt list read\n%+v\nextraction from scratch\n%+v", p.name, learnt.Listings, full.Listings)
		}
	}
	var parse, steady, scratch time.Duration
	for b.Loop() {
		t := cpuTime()
		parsePass(b, pages)
		t1 := cpuTime()
		steadyPass(b, pages, true)
		t2 := cpuTime()
		steadyPass(b, pages, false)
		t3 := cpuTime()
		parse, steady, scratch = parse+t1-t, steady+t2-t1, scratch+t3-t2
	}
	size := 0
	for _, p := range pages {
		size += len(p.body)
	}
	b.ReportMetric(float64(size)/1024/float64(len(pages)), "KB/page")
	per := func(d time.Duration) float64 { return d.Seconds() * 1000 / float64(b.N*len(pages)) }
	b.ReportMetric(per(parse), "parse-ms/page")
	b.ReportMetric(per(steady), "steady-ms/page")
	b.ReportMetric(per(scratch), "scratch-ms/page")
	b.ReportMetric(steady.Seconds()/parse.Seconds(), "steady/parse")
	b.ReportMetric(scratch.Seconds()/parse.Seconds(), "scratch/parse")
}

// BenchmarkSteadyPass is the steady-state pass alone (for its CPU profile).
func BenchmarkSteadyPass(b *testing.B) {
	pages := steadyPages(b, steadyCount)
	for b.Loop() {
		steadyPass(b, pages, true)
	}
}
