package extract

import (
	"strings"
	"testing"
)

// clean returns a text plainText accepts as it is: folding that text rune by
// rune must give it back unchanged.
func FuzzPlainTextIsClean(f *testing.F) {
	for _, s := range []string{
		"", "Solar tea light", "  56 m² ", "28,40 zł / m²", "12 mins ago·Peabody", "CHF 1,714.– Premium", "€ 2.350,00",
		"a\u00a0b", "a\u202fb", "soft\u00adhyphen", "zero\u200bwidth", "MÃ¼nchen", "â‚¬ 475.000", "bad \xff byte",
		"tab\there", "two  spaces", "\u0085next line", "\ufffd", "Straße", "Mädchen", "K",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if tr := strings.TrimSpace(s); plainText(tr) && fold(tr) != tr {
			t.Errorf("%q: plainText takes it as clean, folding gives %q", tr, fold(tr))
		}
	})
}
