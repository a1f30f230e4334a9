package extract

import "testing"

// isAd lower-cases only lines of up to maxBadge bytes: a line that lower-cases
// to an ad label must be one of them (a character's lower case is at least a
// third of its bytes: "K", the Kelvin sign, is three bytes, "k" one).
func TestAdLabelsFitMaxBadge(t *testing.T) {
	for l := range adLabels {
		if 3*len(l) > maxBadge {
			t.Errorf("ad label %q: a line that lower-cases to it may be longer than maxBadge (%d bytes)", l, maxBadge)
		}
	}
}
