package words

import (
	"testing"

	"notifio/internal/model"
)

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

func TestPageListingLine(t *testing.T) {
	for _, tc := range []struct {
		l    model.PageListing
		want string
	}{
		{model.PageListing{Title: "Altbau, Balkon", Price: "900 €", Size: " 60 m² ", Rooms: "2 Zi.", Location: "Pankow"},
			"Altbau, Balkon · 900 € · 60 m² · 2 rooms · Pankow"},
		{model.PageListing{Title: "Altbau", Price: "900 €"}, "Altbau · 900 €"},
		{model.PageListing{Title: "Altbau"}, "Altbau"},
	} {
		if got := PageListingLine(tc.l); got != tc.want {
			t.Errorf("PageListingLine(%+v) = %q, want %q", tc.l, got, tc.want)
		}
	}
}
