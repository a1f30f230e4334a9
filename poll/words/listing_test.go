package words

import "testing"

func TestRoomsInOneForm(t *testing.T) {
	for in, want := range map[string]string{
		"2": "2 rooms", "1": "1 room", "2,5 Zi.": "2.5 rooms", "3-Zimmer": "3 rooms", "3 Zimmer": "3 rooms",
		"2 rooms": "2 rooms", "1 - 2 Zimmer": "1–2 rooms", "4 habitaciones": "4 rooms", "1 Zimmer": "1 room",
		"": "", "Souterrain": "Souterrain",
	} {
		if got := RoomsWords(in); got != want {
			t.Errorf("RoomsWords(%q) = %q, want %q", in, got, want)
		}
	}
}
