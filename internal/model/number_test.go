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

// Sizes and rooms as cards show them; what the filters compare.
func TestShownAmount(t *testing.T) {
	for in, want := range map[string]float64{
		"54 m²": 54, "ca. 1.170 m²": 1170, "54,5 qm": 54.5, "2,5 Zi.": 2.5, "3 rooms": 3, "2 - 3 Zimmer": 2,
		"2-Zimmer-Wohnung": 2, "1\u00a0250 m²": 1250, "Zimmer": 0, "": 0,
	} {
		if got := ShownAmount(in); got != want {
			t.Errorf("ShownAmount(%q) = %v, want %v", in, got, want)
		}
	}
}
