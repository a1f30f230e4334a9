package filter

import (
	"strings"
	"testing"
)

// TestParseAmountReadsWhatPeopleWrite: the forms people type are read, and
// what could mean two things is refused in words (issue 35 item 7: "1.2.3"
// and "1,2,3" were read as 1.2).
func TestParseAmountReadsWhatPeopleWrite(t *testing.T) {
	for in, want := range map[string]float64{
		"": 0, "0": 0, "1200": 1200, "1.200": 1200, "1,200": 1200, "1 200": 1200, "1\u00a0200": 1200,
		"1200 €": 1200, "€1200": 1200, "1.200 EUR": 1200, "2,5": 2.5, "2.5": 2.5, "1.200,50": 1200.5,
		"1,200.50": 1200.5, "1.200.000": 1200000, "2k": 2000, "2 k": 2000, "1,5k": 1500, "2K €": 2000,
		"1,2 Mio": 1200000, "1,2 Mio. €": 1200000, "55": 55, "0,5": 0.5,
	} {
		got, err := ParseAmount(in)
		if err != nil || got != want {
			t.Errorf("ParseAmount(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"1.2.3", "1,2,3", "1.20.000", "12.00.000", "1.200.5", "1.200,000.5", "1.2,3", "abc", "-5", "12 34", "1e5", "0x10", "1200 rooms", "∞", "99999999999999999"} {
		v, err := ParseAmount(in)
		if err == nil {
			t.Errorf("ParseAmount(%q) = %v, want an error", in, v)
			continue
		}
		if msg := err.Error(); strings.Contains(msg, "strconv") || !strings.ContainsAny(msg, " ") {
			t.Errorf("ParseAmount(%q): %q is not in words", in, msg)
		}
	}
}

func FuzzParseAmount(f *testing.F) {
	for _, s := range []string{"1.200", "1,2,3", "2k", "1,2 Mio. €", "1.200,50", "", "-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseAmount(s)
		if err == nil && (v < 0 || v != v || v > 1e12) {
			t.Fatalf("ParseAmount(%q) = %v", s, v)
		}
	})
}
