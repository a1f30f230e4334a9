package extract

import (
	"net/url"
	"regexp"
	"testing"
)

// The scans that replaced two URL patterns read ids as the patterns did: the
// first UUID (either case, given in lower case), else the first of the
// longest runs of at least four digits.
func TestIDFromURLScansAsThePatternsRead(t *testing.T) {
	for raw, want := range map[string]string{
		"https://x.example/expose/3F2504E0-4F89-11D3-9A0C-0305E82C3301":       "3f2504e0-4f89-11d3-9a0c-0305e82c3301",
		"https://x.example/a-b-c-d-e-f-g-h-i-j-k-l-m-n-o-p-q-r-s-t/12345":     "12345",
		"https://x.example/wohnung/x3f2504e0-4f89-11d3-9a0c-0305e82c3301-77":  "3f2504e0-4f89-11d3-9a0c-0305e82c3301",
		"https://x.example/mieszkanie-123-pogodno-1234-m2-mzn2041234567":      "2041234567",
		"https://x.example/2017/06/1234-5678.html":                            "1234",
		"https://x.example/3f2504e0-4f89-11d3-9a0c-0305e82c330/listing-99999": "99999",
	} {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		if got := idFromURL(u); got != want {
			t.Errorf("idFromURL(%s) = %q, want %q", raw, got, want)
		}
	}
	uuid := regexp.MustCompile(`(?i)[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	for _, s := range []string{"", "3f2504e0-4f89-11d3-9a0c-0305e82c3301", "--3f2504e0-4f89-11d3-9a0c-0305e82c3301aa", "3f2504e0-4f89-11d3-9a0c-0305e82c330", "g3f2504e0-4f89-11d3-9a0c-0305e82c3301"} {
		if got, want := findUUID(s), uuid.FindString(s); got != want {
			t.Errorf("findUUID(%q) = %q, the pattern %q", s, got, want)
		}
	}
	digits := regexp.MustCompile(`\d{4,}`)
	for _, s := range []string{"", "123", "a1234b123456c654321", "12345-1234567", "x９９９９x"} {
		want := ""
		for _, m := range digits.FindAllString(s, -1) {
			if len(m) > len(want) {
				want = m
			}
		}
		if got := longestDigits(s); got != want {
			t.Errorf("longestDigits(%q) = %q, the pattern %q", s, got, want)
		}
	}
}
