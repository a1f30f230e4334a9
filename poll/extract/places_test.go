package extract

import "testing"

// mayHoldPlaceSep only spares rePlaceSep the lines it cannot match: it must
// say yes wherever the pattern finds a separator.
func FuzzPlaceSepPrefilter(f *testing.F) {
	for _, s := range []string{
		"", "12 mins ago·Peabody", "12 mins ago · Peabody", "••••", "Houston, TX", "Houston,TX",
		"Düsseldorf / Oberkassel", "vacuum/shredder", "3er WG | Köln", "a|b", "a\t/\tb", "a /b", "a/ b",
		"x ,y", "x,\ny", "a •\fb", ",", " / ", "a\u00a0/\u00a0b",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if rePlaceSep.MatchString(s) && !mayHoldPlaceSep(s) {
			t.Errorf("%q: the pattern finds a separator the prefilter does not", s)
		}
	})
}
