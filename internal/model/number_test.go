package model

import "testing"

// One reader of shown amounts, for extraction's prices and the filters'
// sizes and rooms alike.
func TestShownNumber(t *testing.T) {
	for in, want := range map[string]float64{
		"1.250": 1250, "1,250": 1250, "1 250": 1250, "1\u00a0250": 1250, "1\u202f250": 1250, "1’250": 1250,
		"1.250,50": 1250.5, "1,250.50": 1250.5, "1250.5": 1250.5, "54,5": 54.5, "2": 2,
		"1.200,-": 1200, "1.234.567": 1234567, "": 0, "m²": 0,
	} {
		if got := ShownNumber(in); got != want {
			t.Errorf("ShownNumber(%q) = %v, want %v", in, got, want)
		}
	}
}
