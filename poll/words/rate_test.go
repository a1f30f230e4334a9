package words

import "testing"

func TestSiteRateWords(t *testing.T) {
	for _, tc := range []struct {
		perMin float64
		want   string
	}{
		{0, "not at all"},
		{0.5, "once every 2 minutes"},
		{1.0 / 30, "once every 30 minutes"},
		{1, "once a minute"},
		{2, "twice a minute"},
		{2.5, "2.5 times a minute"},
	} {
		want := "With this search, Notifio asks this site " + tc.want + " in all."
		if got := SiteRateWords(tc.perMin); got != want {
			t.Errorf("SiteRateWords(%v) = %q, want %q", tc.perMin, got, want)
		}
	}
}
