package cli_test

import (
	"encoding/json"
	"strings"
	"testing"

	"notifio/poll/browser"
	"notifio/poll/browser/browsertest"
)

// The real binary against a portal whose results only JavaScript builds.
func TestBrowserFlagsEndToEnd(t *testing.T) {
	if _, err := browser.Find(); err != nil {
		t.Skipf("no browser to test with (%v); `make test` installs Debian's chromium", err)
	}
	site := browsertest.NewSite(t)
	bin := buildBinary(t)
	dir := t.TempDir()

	out, stderr, err := runCLI(t, bin, dir, "check", site.URL+"/search")
	if err != nil {
		t.Fatalf("check: %v\n%s%s", err, out, stderr)
	}
	if !strings.Contains(out, "unexpected_page") || !strings.Contains(out, "read with a browser it found 10 listings") ||
		!strings.Contains(out, "notifio search add --browser") {
		t.Errorf("check without --browser does not offer the browser:\n%s", out)
	}
	out, stderr, err = runCLI(t, bin, dir, "check", "--browser", site.URL+"/search")
	if err != nil {
		t.Fatalf("check --browser: %v\n%s%s", err, out, stderr)
	}
	if !strings.Contains(out, "Outcome: ok") || !strings.Contains(out, "Found 10 listings") {
		t.Errorf("check --browser:\n%s", out)
	}

	add := func(args ...string) bool {
		t.Helper()
		out, stderr, err := runCLI(t, bin, dir, append([]string{"--json", "search", "add"}, args...)...)
		if err != nil {
			t.Fatalf("search add %v: %v\n%s%s", args, err, out, stderr)
		}
		var s struct{ Browser bool }
		if err := json.Unmarshal([]byte(out), &s); err != nil {
			t.Fatalf("search add --json: %v\n%s", err, out)
		}
		return s.Browser
	}
	if !add("--browser", site.URL+"/search") {
		t.Error("search add --browser saved a plain search")
	}
	if !add(site.URL + "/search?page=2") {
		t.Error("a second search of the site does not read with a browser like the first")
	}
	if add("--browser=false", site.URL+"/search?page=3") {
		t.Error("--browser=false still reads with a browser")
	}
	for _, r := range site.Requests() {
		if strings.Contains(r, "/img/") || strings.Contains(r, "/fonts/") {
			t.Errorf("the site was asked for %s", r)
		}
	}
}
