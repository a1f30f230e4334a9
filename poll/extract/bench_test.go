package extract

import (
	"bytes"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"golang.org/x/net/html"
)

type benchPage struct {
	name string
	body []byte
	url  *url.URL
}

// benchPages are the real pages (when the shared folder is there) and the fixtures.
func benchPages(b *testing.B) []benchPage {
	var out []benchPage
	dir := sitesDir()
	keys, _ := filepath.Glob(filepath.Join(dir, "answers", "*.json"))
	if len(keys) > 0 {
		for _, pg := range realPages(b) {
			out = append(out, benchPage{name: pg.name, body: pg.body, url: pg.url})
		}
	}
	for _, c := range fixtureCases(b) {
		body, err := os.ReadFile(filepath.Join(fixtureDir, c.name+".html"))
		if err != nil {
			b.Fatal(err)
		}
		if c.sel.Item != "" || c.opt.NoProfiles {
			continue // the same page again: measured once, as Extract sees it
		}
		out = append(out, benchPage{name: "fixture-" + c.name, body: body, url: mustURL(c.url)})
	}
	return out
}

// BenchmarkExtract is extraction on each page, parse included.
func BenchmarkExtract(b *testing.B) {
	for _, pg := range benchPages(b) {
		b.Run(pg.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(pg.body)))
			for b.Loop() {
				if _, err := Extract(pg.body, pg.url, Selectors{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkExtractGeneric is extraction with the profiles switched off.
func BenchmarkExtractGeneric(b *testing.B) {
	for _, pg := range benchPages(b) {
		b.Run(pg.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(pg.body)))
			for b.Loop() {
				if _, err := ExtractWith(pg.body, pg.url, Selectors{}, Options{NoProfiles: true}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkParseFloor is html.Parse alone on the same bytes: the floor.
func BenchmarkParseFloor(b *testing.B) {
	for _, pg := range benchPages(b) {
		b.Run(pg.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(pg.body)))
			for b.Loop() {
				if _, err := html.Parse(bytes.NewReader(pg.body)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRatio interleaves html.Parse and Extract on each real page and
// reports extract/parse as "x-floor": on a shared machine whose load drifts, two
// separate benchmarks run minutes apart can disagree by ±50%; alternating them
// inside one loop compares like with like. "x-floor-p50" is the ratio of the
// two medians over the pages read: the typical page, without the collections
// and preemptions that land in either half (x-floor, the mean, has them: it is
// the figure the goal is held to).
func BenchmarkRatio(b *testing.B) {
	for _, pg := range benchPages(b) {
		b.Run(pg.name, func(b *testing.B) {
			var parseT, extractT time.Duration
			var parses, extracts []time.Duration
			for b.Loop() {
				t0 := time.Now()
				if _, err := html.Parse(bytes.NewReader(pg.body)); err != nil {
					b.Fatal(err)
				}
				t1 := time.Now()
				if _, err := Extract(pg.body, pg.url, Selectors{}); err != nil {
					b.Fatal(err)
				}
				t2 := time.Now()
				parseT += t1.Sub(t0)
				extractT += t2.Sub(t1)
				parses, extracts = append(parses, t1.Sub(t0)), append(extracts, t2.Sub(t1))
			}
			b.ReportMetric(float64(extractT)/float64(parseT), "x-floor")
			b.ReportMetric(float64(median(extracts))/float64(median(parses)), "x-floor-p50")
		})
	}
}

// median is the middle of d (sorted in place).
func median(d []time.Duration) time.Duration {
	slices.Sort(d)
	return d[len(d)/2]
}

// BenchmarkExtractTree is extraction on a tree parsed beforehand: what
// extraction adds to html.Parse (the goal is at most half of BenchmarkParseFloor).
func BenchmarkExtractTree(b *testing.B) {
	for _, pg := range benchPages(b) {
		b.Run(pg.name, func(b *testing.B) {
			doc := Parse(pg.body)
			b.ReportAllocs()
			b.SetBytes(int64(len(pg.body)))
			for b.Loop() {
				if _, err := ExtractTree(doc, pg.url, Selectors{}, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
