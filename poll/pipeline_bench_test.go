package poll

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"notifio/poll/classify"
	"notifio/poll/extract"
	"notifio/poll/fetch"
	"notifio/storage"
	"notifio/tools/loadsite"

	"notifio/internal/model"
)

// The per-page pipeline of one poll against html.Parse alone (docs/PERFORMANCE.md,
// issue 7 item 1). Run: go test -run '^$' -bench 'Pipeline' -benchmem ./poll/

type pipePage struct {
	name string
	body []byte
	url  *url.URL
}

// pipePages are the real pages (when ../shared/sites is there; NOTIFIO_SITES
// overrides) and one loadsite page.
func pipePages(b *testing.B) []pipePage {
	var out []pipePage
	dir := os.Getenv("NOTIFIO_SITES")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "sites")
	}
	keys, _ := filepath.Glob(filepath.Join(dir, "answers", "*.json"))
	for _, k := range keys {
		var key struct {
			BaseURL string `json:"base_url"`
		}
		raw, err := os.ReadFile(k)
		if err != nil || json.Unmarshal(raw, &key) != nil {
			continue
		}
		name := strings.TrimSuffix(filepath.Base(k), ".json")
		body, err := os.ReadFile(filepath.Join(dir, name+".html"))
		u, uerr := url.Parse(key.BaseURL)
		if err != nil || uerr != nil {
			continue
		}
		out = append(out, pipePage{name: name, body: body, url: u})
	}
	farm, err := loadsite.Start(loadsite.Config{Sites: 1, BaseIP: "127.0.8.1", NewEvery: -1})
	if err != nil {
		b.Fatal(err)
	}
	defer farm.Close()
	u := farm.URLs()[0] + "search/1"
	resp, err := http.Get(u)
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	_, _ = buf.ReadFrom(resp.Body)
	resp.Body.Close()
	pu, _ := url.Parse(u)
	out = append(out, pipePage{name: "loadsite-300k", body: buf.Bytes(), url: pu})
	return out
}

// analyzeBody runs the pipeline after the fetch (analyze) on a page served 200.
func analyzeBody(body []byte, u *url.URL) classify.Outcome {
	resp := &fetch.Response{Status: 200, Header: http.Header{"Content-Type": {"text/html; charset=utf-8"}},
		Body: body, RequestURL: u, FinalURL: u}
	return analyze(job{url: u.String()}, resp, nil, time.Unix(1e9, 0)).outcome
}

// BenchmarkPipeline is what execute does with a fetched page.
func BenchmarkPipeline(b *testing.B) {
	for _, pg := range pipePages(b) {
		b.Run(pg.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(pg.body)))
			for b.Loop() {
				analyzeBody(pg.body, pg.url)
			}
		})
	}
}

// BenchmarkPipelineParts splits the pipeline: extraction, classify and the page
// title, each on the body (as before the shared tree) and on the tree.
func BenchmarkPipelineParts(b *testing.B) {
	for _, pg := range pipePages(b) {
		in := classify.Input{Status: 200, Header: http.Header{}, Body: pg.body, RequestURL: pg.url, FinalURL: pg.url, Listings: 25}
		b.Run("extract/"+pg.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, _ = extract.Extract(pg.body, pg.url, model.PageSelectors{})
			}
		})
		b.Run("classify/"+pg.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				classify.Classify(in)
			}
		})
		doc := extract.Parse(pg.body)
		b.Run("classify-tree/"+pg.name, func(b *testing.B) {
			b.ReportAllocs()
			in := in
			in.Doc = doc
			for b.Loop() {
				classify.Classify(in)
			}
		})
		b.Run("title-tree/"+pg.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				extract.PageTitle(doc)
			}
		})
	}
}

// BenchmarkPipelineFloor is html.Parse alone on the same bytes.
func BenchmarkPipelineFloor(b *testing.B) {
	for _, pg := range pipePages(b) {
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

// BenchmarkPoll is one whole poll's fetch and analysis over loopback HTTP
// (gzip, as portals send it), without the storage commit.
func BenchmarkPoll(b *testing.B) {
	for _, pg := range pipePages(b) {
		var gz bytes.Buffer
		zw := gzip.NewWriter(&gz)
		_, _ = zw.Write(pg.body)
		_ = zw.Close()
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Set("Content-Encoding", "gzip")
			_, _ = w.Write(gz.Bytes())
		}))
		db, err := storage.Open(b.TempDir(), storage.Options{})
		if err != nil {
			b.Fatal(err)
		}
		s, err := New(db, Options{})
		if err != nil {
			b.Fatal(err)
		}
		// The page's own URL decides the site profile; the request goes to srv.
		j := job{searchID: "x", site: "x", url: srv.URL + pg.url.RequestURI()}
		b.Run(pg.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(pg.body)))
			for b.Loop() {
				res := s.execute(context.Background(), j)
				if res.err != nil {
					b.Fatal(res.err)
				}
			}
		})
		s.Close()
		db.Close()
		srv.Close()
	}
}
