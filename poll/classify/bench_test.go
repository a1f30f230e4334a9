package classify

import (
	"net/http"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkClassify measures Classify (the whole-body structural scan) per page:
// the real pages in ../shared/sites when present, and the largest fixtures.
//
//	go test ./poll/classify -run '^$' -bench Classify -benchmem
func BenchmarkClassify(b *testing.B) {
	pages := map[string][]byte{}
	for _, n := range []string{"wggesucht-results", "kleinanzeigen-results", "is24-challenge"} {
		if body, err := os.ReadFile(filepath.Join(sharedSites, n+".html")); err == nil {
			pages[n] = body
		}
	}
	for _, n := range []string{"cloudflare-just-a-moment.html", "results-recaptcha-footer.html"} {
		pages[n] = fixture(b, n)
	}
	hdr := http.Header{"Content-Type": {"text/html; charset=utf-8"}}
	for name, body := range pages {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				Classify(Input{Status: 200, Header: hdr, Body: body, Listings: 20, Now: now})
			}
		})
	}
}
