package extract

import (
	"testing"

	"notifio/internal/model"
)

// The title read from the tree is the document's title as a browser has it:
// pageTitle (tokenizer) agreed except that it took an svg <title> and gave up at
// <body>.
func TestPageTitle(t *testing.T) {
	for s, want := range map[string]string{
		"<html><head><title> Wohnungen\n  mieten </title></head><body>x</body></html>": "Wohnungen mieten",
		"<svg><title>icon</title></svg><title>Page</title>":                            "Page",
		"<title></title>":                  "",
		"no title at all":                  "",
		"<body><title>late</title></body>": "late",
		"<title>A &amp; B</title>":         "A & B",
	} {
		if got := PageTitle(Parse([]byte(s))); got != want {
			t.Errorf("%q: %q, want %q", s, got, want)
		}
	}
}

// TestFingerprint: the same bytes for the same search give the same print
// (saved across restarts, so fixed: a change of it would make every saved
// print miss once); another byte, URL or selector gives another.
func TestFingerprint(t *testing.T) {
	body := []byte("<title>T</title><a href=/1>1</a>")
	p := Fingerprint(body, "https://x.de/s", model.PageSelectors{})
	if p != Fingerprint(append([]byte(nil), body...), "https://x.de/s", model.PageSelectors{}) || p == 0 {
		t.Fatal("not stable")
	}
	if got := Fingerprint([]byte("notifio"), "", model.PageSelectors{}); got != 0xb81f0321c8973f0f {
		t.Errorf("print of \"notifio\" = %#x", got)
	}
	for _, other := range []uint64{
		Fingerprint([]byte("<title>T</title><a href=/1>2</a>"), "https://x.de/s", model.PageSelectors{}),
		Fingerprint(body, "https://x.de/t", model.PageSelectors{}),
		Fingerprint(body, "https://x.de/s", model.PageSelectors{Item: "li"}),
	} {
		if other == p {
			t.Error("a different page or search gives the same print")
		}
	}
}
