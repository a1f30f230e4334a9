package extract

import (
	"bytes"
	"fmt"
	"slices"
	"testing"
	"time"

	"golang.org/x/net/html"
)

func BenchmarkTmpDist(b *testing.B) {
	for _, pg := range benchPages(b) {
		if pg.name != "fixture-jsonld" && pg.name != "fixture-nextdata" && pg.name != "fixture-initial-state" {
			continue
		}
		b.Run(pg.name, func(b *testing.B) {
			var fl, pa, ex []time.Duration
			for b.Loop() {
				t0 := time.Now()
				html.Parse(bytes.NewReader(pg.body))
				t1 := time.Now()
				doc := Parse(pg.body)
				t2 := time.Now()
				ExtractTree(doc, pg.url, Selectors{}, Options{})
				t3 := time.Now()
				fl = append(fl, t1.Sub(t0))
				pa = append(pa, t2.Sub(t1))
				ex = append(ex, t3.Sub(t2))
			}
			st := func(d []time.Duration) string {
				var sum time.Duration
				for _, x := range d {
					sum += x
				}
				s := slices.Clone(d)
				slices.Sort(s)
				return fmt.Sprintf("mean %v p50 %v p90 %v", sum/time.Duration(len(d)), s[len(s)/2], s[len(s)*9/10])
			}
			b.Logf("n=%d\nfloor %s\nparse %s\nextr  %s", len(fl), st(fl), st(pa), st(ex))
		})
	}
}
