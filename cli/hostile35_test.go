package cli

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zalando/go-keyring"
)

// TestFilterAmountsReadAsWritten (issue 35 item 7): "1.2.3" and "1,2,3" were
// read as 1.2 and 500 rooms was accepted; now they are refused in words, and
// "1,200", "1200 €" and "2k" are read as people mean them.
func TestFilterAmountsReadAsWritten(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--max-price", "1.2.3"}, "read more than one way"},
		{[]string{"--max-price", "1,2,3"}, "read more than one way"},
		{[]string{"--min-rooms", "500"}, "no flat has that many"},
		{[]string{"--min-size", "2000000"}, "larger than any flat"},
	} {
		args := append([]string{"search", "add"}, tc.args...)
		code, _, errOut := run(t, dir, append(args, "https://www.kleinanzeigen.de/s-wohnung/c203")...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
	for i, tc := range []struct{ in, want string }{{"1,200", "at most 1.200"}, {"1200 €", "at most 1.200"}, {"2k", "at most 2.000"}} {
		u := "https://www.kleinanzeigen.de/s-wohnung/c20" + string(rune('0'+i))
		if code, out, errOut := run(t, dir, "search", "add", "--max-price", tc.in, u); code != 0 {
			t.Fatalf("--max-price %q: %d %q %q", tc.in, code, out, errOut)
		}
		if _, out, _ := run(t, dir, "search", "list"); !strings.Contains(out, tc.want) {
			t.Errorf("--max-price %q: the list lacks %q:\n%s", tc.in, tc.want, out)
		}
	}
}

// TestArgumentsReadOrRefusedInWords (issue 35 items 7, 8): extra positional
// arguments were ignored ("run extra" ran), "--every 8d" said only "parse
// error", "listings -n -5" was accepted and "alerts set --after 0s" silently
// became 1 hour.
func TestArgumentsReadOrRefusedInWords(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "extra"}, `"extra": "notifio run" takes no arguments`},
		{[]string{"once", "extra"}, `takes no arguments`},
		{[]string{"status", "x"}, `takes no arguments`},
		{[]string{"sites", "x"}, `takes no arguments`},
		{[]string{"search", "list", "x"}, `takes no arguments`},
		{[]string{"email", "show", "x"}, `takes no arguments`},
		{[]string{"alerts", "show", "x"}, `takes no arguments`},
		{[]string{"listings", "-n", "-5"}, "-n -5: give how many"},
		{[]string{"listings", "a", "b"}, "give the ID of one search"},
		{[]string{"search", "add", "--every", "2x", "https://www.kleinanzeigen.de/s-wohnung/c203"}, `"2x" is not a duration: write it as 30s, 10m, 2h`},
		{[]string{"search", "add", "--every", "8d", "https://www.kleinanzeigen.de/s-wohnung/c203"}, "too long"},
		{[]string{"alerts", "set", "--after", "0s"}, "--after 0s: give how long"},
		{[]string{"alerts", "set", "--after", "-5m"}, "--after -5m0s: give how long"},
		{[]string{"alerts", "set", "--remind", "0s"}, "--remind"},
	} {
		code, _, errOut := run(t, dir, tc.args...)
		if code == 0 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, %q; want an error with %q", tc.args, code, errOut, tc.want)
		}
	}
	// What people write is read: days, and an --every within bounds.
	if code, out, errOut := run(t, dir, "search", "add", "--every", "2d", "https://www.kleinanzeigen.de/s-wohnung/c203"); code != 0 || !strings.Contains(out, "checked every 48h0m0s") {
		t.Errorf("--every 2d: %d %q %q", code, out, errOut)
	}
	if code, out, errOut := run(t, dir, "alerts", "set", "--after", "30m"); code != 0 || !strings.Contains(out, "30 min") {
		t.Errorf("--after 30m: %d %q %q", code, out, errOut)
	}
}

// TestCheckWithoutDataCreatesNothing (issue 35 item 8): "check" saves
// nothing, so it must not create the default data folder, a database or a
// backup.
func TestCheckWithoutDataCreatesNothing(t *testing.T) {
	srv := resultsSite(t)
	home := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", home)
	t.Setenv("HOME", home)
	t.Setenv("NOTIFIO_DATA", "")
	var out, errb bytes.Buffer
	env := &Env{Stdout: &out, Stderr: &errb, Stdin: strings.NewReader(""), Version: "test"}
	if code := Run(context.Background(), env, []string{"check", srv.URL + "/s"}); code != 0 {
		t.Fatalf("check: exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	entries, _ := os.ReadDir(home)
	for _, e := range entries {
		t.Errorf("check created %s in the config folder", filepath.Join(home, e.Name()))
	}
}

// TestCheckTablePrintsTitlesInert (issue 35 item 8): the check table printed a
// title's U+202E (right-to-left override) while listings stripped it.
func TestCheckTablePrintsTitlesInert(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<html><head><title>Wohnungen</title><script type="application/ld+json">{"@type":"ItemList","itemListElement":[
{"@type":"ListItem","item":{"@type":"Apartment","name":"Flat \u202Egnp.exe","url":"/expose/1"}},
{"@type":"ListItem","item":{"@type":"Apartment","name":"Flat 2","url":"/expose/2"}}]}</script></head><body></body></html>`)
	}))
	t.Cleanup(srv.Close)
	code, out, errOut := run(t, t.TempDir(), "check", srv.URL+"/s")
	if code != 0 || !strings.Contains(out, "Flat") {
		t.Fatalf("check: exit %d\n%s\n%s", code, out, errOut)
	}
	if strings.ContainsRune(out, '\u202E') {
		t.Errorf("the check table prints U+202E:\n%q", out)
	}
}

// TestHugeExampleIsNotEchoed (issue 35 item 8): a 120 KB --example was
// repeated whole in its error.
func TestHugeExampleIsNotEchoed(t *testing.T) {
	srv := resultsSite(t)
	huge := strings.Repeat("Altbau mit Balkon ", 120000/18)
	code, out, errOut := run(t, t.TempDir(), "check", "--example", huge, srv.URL+"/s")
	if code == 0 || !strings.Contains(errOut, "characters long") {
		t.Errorf("check --example (120 KB): exit %d, %d bytes of error: %.200q", code, len(errOut), errOut)
	}
	if len(out)+len(errOut) > 2000 {
		t.Errorf("the 120 KB example was echoed: %d bytes of output", len(out)+len(errOut))
	}
	page := filepath.Join(t.TempDir(), "page.html")
	if err := os.WriteFile(page, []byte("<html><body><p>x</p></body></html>"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = run(t, t.TempDir(), "extract", "--url", "https://example.com/s", "--example", huge, page)
	if code == 0 || len(errOut) > 2000 {
		t.Errorf("extract --example (120 KB): exit %d, %d bytes of error", code, len(errOut))
	}
}

// TestPushChannelsSayWhatIsWrong (issue 35 item 6): "push add" accepted a
// Gotify URL without its token or with a token of the wrong shape, and "push
// test" to an unreachable server said "check your internet connection …
// Notifio keeps retrying".
func TestPushChannelsSayWhatIsWrong(t *testing.T) {
	keyring.MockInit()
	dir := t.TempDir()
	for _, tc := range []struct{ url, want string }{
		{"gotify://127.0.0.1/", "has no application token"},
		{"gotify://127.0.0.1/short", "is not a Gotify application token"},
	} {
		code, _, errOut := run(t, dir, "push", "add", tc.url)
		if code == 0 || !strings.Contains(errOut, tc.want) {
			t.Errorf("push add %s: exit %d, %q; want an error with %q", tc.url, code, errOut, tc.want)
		}
	}
	if code, _, errOut := run(t, dir, "push", "add", "gotify://127.0.0.1:1/AbCdEfGhIjKlMnO?disabletls=yes", "--name", "g"); code != 0 {
		t.Fatalf("a Gotify URL with a good token: %d %q", code, errOut)
	}
	code, _, errOut := run(t, dir, "push", "test", "g")
	if code == 0 || strings.Contains(errOut, "keeps retrying") || !strings.Contains(errOut, "that the server is running") {
		t.Errorf("push test to a closed port: exit %d, %q", code, errOut)
	}
}
