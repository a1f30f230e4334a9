package extract

import (
	"bytes"
	"testing"

	"golang.org/x/net/html"

	"notifio/internal/model"
)

// The ceiling (issue 34): extraction from scratch, parse included, at most 3×
// the cost of html.Parse on every real page of ../shared/sites and sites2.
// BenchmarkExtract/<page> against BenchmarkParseFloor/<page>; on a shared
// machine take the ratio from one CPU profile (bash tools/extractratio.sh).
func BenchmarkExtract(b *testing.B) {
	for _, pg := range realPages(b) {
		b.Run(pg.name, func(b *testing.B) {
			b.SetBytes(int64(len(pg.body)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Extract(pg.body, pg.url, model.PageSelectors{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkParseFloor is html.Parse alone on the same pages: the floor.
func BenchmarkParseFloor(b *testing.B) {
	for _, pg := range realPages(b) {
		b.Run(pg.name, func(b *testing.B) {
			b.SetBytes(int64(len(pg.body)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := html.Parse(bytes.NewReader(pg.body)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
