package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// run runs one command line in-process against a data directory.
func run(t *testing.T, dir string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := &Env{Stdout: &out, Stderr: &errb, Stdin: strings.NewReader(""), Version: "test"}
	code = Run(context.Background(), env, append([]string{"--data", dir}, args...))
	return code, out.String(), errb.String()
}

func fixture(t *testing.T, name string) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "testdata", "extract", name)
}

func TestSplitGlobalTakesDataAndJSONAnywhere(t *testing.T) {
	rest, dir, js, err := SplitGlobal([]string{"search", "list", "--data=/x", "--json"})
	if err != nil || dir != "/x" || !js || strings.Join(rest, " ") != "search list" {
		t.Fatalf("got %v %q %v %v", rest, dir, js, err)
	}
	if _, _, _, err := SplitGlobal([]string{"sites", "--data"}); err == nil {
		t.Fatal("--data without a directory was accepted")
	}
}

func TestUsageErrorsExitTwoWithWords(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"frobnicate"}, `unknown command "frobnicate"`},
		{[]string{"search"}, "say what to do"},
		{[]string{"search", "add"}, "give exactly one search URL"},
		{[]string{"search", "pause"}, "give the ID of one search"},
		{[]string{"extract", "page.html"}, "--url is needed"},
		{[]string{"check"}, "give exactly one URL"},
		{[]string{"search", "add", "--every", "soon", "https://x.de/"}, "invalid value"},
	} {
		code, _, errOut := run(t, dir, tc.args...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
	code, _, errOut := run(t, dir, "search", "remove", "nope")
	if code != 1 || !strings.Contains(errOut, `no search with ID "nope"`) {
		t.Errorf("remove unknown: exit %d, %q", code, errOut)
	}
}

func TestSearchLifecycleInProcess(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := run(t, dir, "search", "add", "https://www.kleinanzeigen.de/s-wohnung/c203", "--name", "K", "--every", "1m")
	if code != 0 || !strings.Contains(out, `"K" on kleinanzeigen.de`) {
		t.Fatalf("add: %d %q %q", code, out, errOut)
	}
	code, out, _ = run(t, dir, "search", "list", "--json")
	var list []struct {
		ID, Name, Site, State string
	}
	if code != 0 || json.Unmarshal([]byte(out), &list) != nil || len(list) != 1 || list[0].Site != "kleinanzeigen.de" {
		t.Fatalf("list: %d %q", code, out)
	}
	if code, _, _ := run(t, dir, "search", "pause", list[0].ID); code != 0 {
		t.Fatal("pause failed")
	}
	_, out, _ = run(t, dir, "search", "list")
	if !strings.Contains(out, "paused") {
		t.Errorf("list after pause: %q", out)
	}
	if code, _, _ := run(t, dir, "search", "remove", list[0].ID); code != 0 {
		t.Fatal("remove failed")
	}
	_, out, _ = run(t, dir, "search", "list")
	if !strings.Contains(out, "No searches yet") {
		t.Errorf("list after remove: %q", out)
	}
}

func TestExtractCommandJSON(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := run(t, dir, "extract", "--json", "--url", "https://www.kleinanzeigen.de/s-wohnung/c203", fixture(t, "kleinanzeigen-results.html"))
	if code != 0 {
		t.Fatalf("extract: %d %s", code, errOut)
	}
	var got struct {
		Site     string           `json:"site"`
		Method   string           `json:"method"`
		Listings []map[string]any `json:"listings"`
		NoRes    *bool            `json:"no_results"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("not one JSON object: %v\n%s", err, out)
	}
	if got.Site != "kleinanzeigen.de" || !strings.HasPrefix(got.Method, "profile:") || len(got.Listings) == 0 || got.NoRes == nil {
		t.Fatalf("extract --json = %+v", got)
	}
	for _, k := range []string{"id", "url", "title", "price", "price_value", "currency", "location", "size", "size_value", "rooms", "rooms_value", "image", "promoted"} {
		if _, ok := got.Listings[0][k]; !ok {
			t.Errorf("listing lacks %q", k)
		}
	}
	code, _, errOut = run(t, dir, "extract", "--url", "https://x.de/", filepath.Join(t.TempDir(), "missing.html"))
	if code != 1 || !strings.Contains(errOut, "does not exist") {
		t.Errorf("missing file: %d %q", code, errOut)
	}
	code, _, errOut = run(t, dir, "extract", "--url", "https://x.de/", "--item", "li[", fixture(t, "kleinanzeigen-results.html"))
	if code != 1 || !strings.Contains(errOut, "not valid CSS") {
		t.Errorf("bad selector: %d %q", code, errOut)
	}
}

func TestCheckCommandJSONIsOneObject(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/busy" {
			w.Header().Set("Retry-After", "120")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<html><head><script type="application/ld+json">{"@type":"ItemList","itemListElement":[
{"@type":"ListItem","item":{"@type":"Apartment","name":"Flat 1","url":"/expose/1"}},
{"@type":"ListItem","item":{"@type":"Apartment","name":"Flat 2","url":"/expose/2"}}]}</script></head><body></body></html>`)
	}))
	defer srv.Close()
	dir := t.TempDir()
	code, out, errOut := run(t, dir, "check", "--json", srv.URL+"/s")
	if code != 0 {
		t.Fatalf("check: %d %s", code, errOut)
	}
	var got map[string]any
	dec := json.NewDecoder(strings.NewReader(out))
	if err := dec.Decode(&got); err != nil || dec.More() {
		t.Fatalf("want exactly one JSON object, got %q (%v)", out, err)
	}
	for _, k := range []string{"url", "site", "outcome", "status", "retry_after_s", "signal", "listings"} {
		if _, ok := got[k]; !ok {
			t.Errorf("check --json lacks %q", k)
		}
	}
	if got["outcome"] != "ok" || len(got["listings"].([]any)) != 2 {
		t.Errorf("check = %v", got)
	}
	_, out, _ = run(t, dir, "check", "--json", srv.URL+"/busy")
	got = nil
	_ = json.Unmarshal([]byte(out), &got)
	if got["outcome"] != "rate_limited" || got["retry_after_s"] != 120.0 || got["status"] != 429.0 {
		t.Errorf("busy check = %v", got)
	}
	// Nothing was saved.
	_, out, _ = run(t, dir, "search", "list")
	if !strings.Contains(out, "No searches yet") {
		t.Errorf("check saved something: %q", out)
	}
}

// The soft memory limit of run/once grows with the searches beyond the 1,000
// the performance figures are measured at, so a large watcher is not starved.
func TestMemoryLimitFor(t *testing.T) {
	for _, tc := range []struct {
		searches int
		want     int64
	}{
		{0, 40 << 20}, {1000, 40 << 20}, {1001, 40<<20 + 16<<10}, {5000, 40<<20 + 4000*16<<10},
	} {
		if got := memoryLimitFor(40<<20, tc.searches); got != tc.want {
			t.Errorf("memoryLimitFor(40 MiB, %d) = %d, want %d", tc.searches, got, tc.want)
		}
	}
}

// A saved page is decoded as a fetched one is: a UTF-8 page without a <meta
// charset>, whose first non-ASCII byte comes after the 1,024 bytes sniffing
// reads, gives the same listings through `extract FILE` as through `check`
// over HTTP, with its umlauts and euro signs intact (not "groÃŸem").
func TestExtractFileDecodesAsTheFetcherDoes(t *testing.T) {
	page := fixture(t, filepath.Join("saved", "utf8-no-meta.html"))
	body, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html") // no charset, as a saved file has none
		_, _ = w.Write(body)
	}))
	defer srv.Close()
	dir := t.TempDir()
	listings := func(args ...string) []map[string]any {
		t.Helper()
		code, out, errOut := run(t, dir, args...)
		if code != 0 {
			t.Fatalf("%v: %d %s", args, code, errOut)
		}
		var got struct {
			Listings []map[string]any `json:"listings"`
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
		return got.Listings
	}
	saved := listings("extract", "--json", "--url", srv.URL+"/s", page)
	fetched := listings("check", "--json", srv.URL+"/s")
	if len(saved) != 3 || saved[0]["title"] != "Helle Wohnung mit großem Balkon in Flingern" || saved[0]["price_value"] != 475000.0 {
		t.Fatalf("extract FILE read %d listings, first %v", len(saved), saved)
	}
	if fmt.Sprint(saved) != fmt.Sprint(fetched) {
		t.Errorf("a saved page and the same page fetched read differently:\nsaved   %v\nfetched %v", saved, fetched)
	}
}
