package locale

import (
	"os"
	"testing"
)

func TestFixReplacesCLocale(t *testing.T) {
	for _, tc := range []struct{ lcAll, lang, wantLang string }{
		{"", "C", "en_US.UTF-8"},
		{"", "POSIX", "en_US.UTF-8"},
		{"", "C.UTF-8", "en_US.UTF-8"},
		{"C", "de_DE.UTF-8", "de_DE.UTF-8"},
		{"", "de_DE.UTF-8", "de_DE.UTF-8"},
		{"", "", "en_US.UTF-8"},
	} {
		t.Setenv("LC_ALL", tc.lcAll)
		t.Setenv("LC_MESSAGES", "")
		t.Setenv("LANG", tc.lang)
		fix()
		if got := os.Getenv("LANG"); got != tc.wantLang {
			t.Errorf("LC_ALL=%q LANG=%q: LANG became %q, want %q", tc.lcAll, tc.lang, got, tc.wantLang)
		}
		if v := os.Getenv("LC_ALL"); v == "C" {
			t.Errorf("LC_ALL=C was left in place")
		}
	}
}
