package extract

import (
	"bytes"
	"testing"

	"golang.org/x/net/html"

	"notifio/internal/model"
)

// The ceiling (issue 17): extraction, parse included, at most 2.5× the cost of
// html.Parse on the same page. Compare BenchmarkExtract/<page> with
// BenchmarkParseFloor/<page>:
//
//	go test -run '^$' -bench . -benchmem ./poll/extract/
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
