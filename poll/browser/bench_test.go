package browser

import (
	"context"
	"testing"

	"notifio/poll/browser/browsertest"
)

// BenchmarkRender is one render of the script-built results page in the warm,
// shared browser: the time per render, and the memory of all the browser's
// processes together (proportional set size, Linux) after the renders.
func BenchmarkRender(b *testing.B) {
	site := browsertest.NewSite(b)
	path, err := Find()
	if err != nil {
		b.Skip(err)
	}
	br := New(Options{ExecPath: path, ProfileDir: b.TempDir()})
	defer br.Close()
	ctx := context.Background()
	if _, err := br.Render(ctx, Request{URL: site.URL + "/search"}); err != nil { // start it
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := br.Render(ctx, Request{URL: site.URL + "/search"}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(br.Memory())/(1<<20), "browser-MiB")
}

// BenchmarkRenderCold is the first render after the browser was closed (idle):
// its start is part of it.
func BenchmarkRenderCold(b *testing.B) {
	site := browsertest.NewSite(b)
	path, err := Find()
	if err != nil {
		b.Skip(err)
	}
	ctx := context.Background()
	for b.Loop() {
		br := New(Options{ExecPath: path, ProfileDir: b.TempDir()})
		if _, err := br.Render(ctx, Request{URL: site.URL + "/search"}); err != nil {
			b.Fatal(err)
		}
		br.Close()
	}
}
