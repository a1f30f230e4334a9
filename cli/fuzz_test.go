package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

	"notifio/storage"
)

// splitArgs turns a fuzz input into arguments: one per line.
func splitArgs(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// countSearches returns how many searches dir holds.
func countSearches(t *testing.T, dir string) int {
	t.Helper()
	db, err := storage.Open(dir, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ss, err := db.ListSearches()
	if err != nil {
		t.Fatal(err)
	}
	return len(ss)
}

// FuzzSearchAddArgs: `search add` with any arguments never panics, and saves
// one search when it succeeds and nothing when it fails.
func FuzzSearchAddArgs(f *testing.F) {
	for _, seed := range []string{
		"https://www.kleinanzeigen.de/s-wohnung/c203",
		"--name\nK\n--every\n1m\nhttps://www.kleinanzeigen.de/s-wohnung/c203",
		"--every\n0\nhttps://x.de/",
		"--every\n876000h\nhttps://x.de/",
		"--every\n-1s\nhttps://x.de/",
		"http://127.0.0.1:99999/s",
		"https://x.de/echo?a=1 b=2&c=ä#frag",
		"--name\na\r\nb\nhttps://x.de/",
		"--item\n###bad[\nhttps://x.de/",
		"--item\narticle\n--link\na[href\nhttps://x.de/",
		"--cookie\na=b\r\nX: y\nhttps://x.de/",
		"--cookie\nCookie: session=1\nhttps://x.de/",
		"ftp://x.de/",
		"https://user:pw@x.de/",
		"",
		"--name",
		"--every\nsoon\nhttps://x.de/",
		"https://x.de/\nhttps://y.de/",
		"--json\nhttps://x.de/",
		"--data\n\nhttps://x.de/",
		"\x00\xff\xfe",
		"-h",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		dir := t.TempDir()
		code, _, errOut := run(t, dir, append([]string{"search", "add"}, splitArgs(in)...)...)
		n := countSearches(t, dir)
		switch {
		case code == 0 && n == 0 && strings.Contains(errOut, "Usage"): // --help
		case code == 0 && n != 1:
			t.Fatalf("%q: exit 0 but %d searches saved", in, n)
		case code != 0 && n != 0:
			t.Fatalf("%q: exit %d (%q) but %d searches saved", in, code, errOut, n)
		case code != 0 && !strings.HasPrefix(errOut, "notifio: ") && !strings.Contains(errOut, "Usage") && !strings.Contains(errOut, "\nnotifio: "):
			t.Fatalf("%q: exit %d without words: %q", in, code, errOut)
		}
	})
}

// FuzzEmailSetArgs: `email set` with any arguments never panics, and either
// saves settings that pass validation or leaves the saved ones as they were.
func FuzzEmailSetArgs(f *testing.F) {
	for _, seed := range []string{
		"--host\n127.0.0.1\n--port\n2526\n--security\nnone\n--from\nc@example.org\n--to\nd@example.org",
		"--preset\ngmail\n--user\nme@gmail.com\n--to\nme@gmail.com",
		"--preset\nnope",
		"--host\nsmtp.x.de\n--port\n99999\n--security\nstarttls\n--from\na@x.de\n--to\nb@x.de",
		"--host\nsmtp.x.de\n--port\n465\n--security\nstarttls\n--from\na@x.de\n--to\nb@x.de",
		"--host\nsmtp://x.de\n--port\n587",
		"--host\n127.0.0.1\n--port\n25\n--security\nnone\n--from\na@x.de\r\nBcc: e@vil\n--to\nb@x.de",
		"--host\n127.0.0.1\n--port\n25\n--security\nnone\n--from\na@x.de\n--to\nb@x.de,,not an address",
		"--host\n127.0.0.1\n--port\n25\n--security\nnone\n--from\na@x.de\n--to\nb@x.de\n--pin-cert\nzz",
		"--host\n127.0.0.1\n--port\n25\n--security\nnone\n--from\na@x.de\n--to\nb@x.de\n--password-stdin",
		"--port\n-1",
		"--port\nabc",
		"",
		"extra\npositional",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		dir := t.TempDir()
		base := []string{"email", "set", "--host", "127.0.0.1", "--port", "2525", "--security", "none", "--from", "a@example.org", "--to", "b@example.org"}
		if code, _, errOut := run(t, dir, base...); code != 0 {
			t.Fatalf("the valid base settings: %d %q", code, errOut)
		}
		show := func() string {
			_, out, _ := run(t, dir, "email", "show", "--json")
			return out
		}
		before := show()
		code, _, _ := run(t, dir, append([]string{"email", "set"}, splitArgs(in)...)...)
		after := show()
		if code != 0 && after != before {
			t.Fatalf("%q failed but changed the settings:\n%s\n->\n%s", in, before, after)
		}
		if code == 0 {
			var cfg struct{ Host string }
			if err := json.Unmarshal([]byte(after), &cfg); err != nil || cfg.Host == "" {
				t.Fatalf("%q succeeded but saved %q", in, after)
			}
		}
	})
}

// fuzzCommands are the commands FuzzCommandLine drives: every one that
// returns without the network (check and the tests would wait for sites and
// servers; push add writes the system keyring). run and once get a context
// that is cancelled already, so a valid call stops at once.
var fuzzCommands = [][]string{
	{"search", "add"}, {"search", "edit", "00000001"}, {"search", "list"}, {"search", "pause"}, {"search", "resume", "00000001"},
	{"alerts", "set"}, {"alerts", "show"}, {"listings"}, {"status"}, {"sites"}, {"push", "list"}, {"email", "show"}, {"run"}, {"once"},
}

// FuzzCommandLine: any arguments to the commands above never panic, and a
// failure is said in words (usage or "notifio: …").
func FuzzCommandLine(f *testing.F) {
	for _, seed := range []struct {
		cmd  uint8
		args string
	}{
		{0, "--max-price\n1.2.3\nhttps://x.de/"}, {0, "--every\n8d\nhttps://x.de/"}, {1, "--min-rooms\n500"},
		{1, "--max-price\n2k\n--every\n1d12h"}, {5, "--after\n0s"}, {5, "--after\n-5m"}, {5, "--remind\noff\n--summary-at\n25:00"},
		{7, "-n\n-5"}, {7, "a\nb"}, {8, "extra"}, {12, "extra"}, {12, ""}, {13, "--wait\nsoon\nx"}, {13, "--"}, {3, ""}, {11, "x"},
		{0, "--data=\n--json\nhttps://x.de/"}, {1, "--every\n0s"}, {6, "--json\n-h"},
	} {
		f.Add(seed.cmd, seed.args)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	f.Fuzz(func(t *testing.T, cmd uint8, in string) {
		c := fuzzCommands[int(cmd)%len(fuzzCommands)]
		dir := t.TempDir()
		if code, _, errOut := run(t, dir, "search", "add", "--name", "K", "https://www.kleinanzeigen.de/s-wohnung/c203"); code != 0 {
			t.Fatalf("the base search: %d %q", code, errOut)
		}
		var out, errb bytes.Buffer
		env := &Env{Stdout: &out, Stderr: &errb, Stdin: strings.NewReader(""), Version: "test", Logger: slog.New(slog.DiscardHandler)}
		code := Run(cancelled, env, append(append([]string{"--data", dir}, c...), splitArgs(in)...))
		errOut := errb.String()
		if code < 0 || code > 2 {
			t.Fatalf("%v %q: exit %d", c, in, code)
		}
		if code != 0 && !strings.HasPrefix(errOut, "notifio: ") && !strings.Contains(errOut, "Usage") && !strings.Contains(errOut, "\nnotifio: ") {
			t.Fatalf("%v %q: exit %d without words: %q", c, in, code, errOut)
		}
	})
}

// FuzzParseSpan: any duration text is read or refused in words, never a panic.
func FuzzParseSpan(f *testing.F) {
	for _, s := range []string{"30s", "8d", "1d12h", "-5m", "0", "2x", "99999d", "d", "1d-1h"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if _, err := parseSpan(s); err != nil && !strings.Contains(err.Error(), "is not a duration") {
			t.Fatalf("parseSpan(%q): %v", s, err)
		}
	})
}
