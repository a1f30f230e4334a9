package filter

import (
	"strings"
	"testing"

	"notifio/internal/model"
)

func TestSameFlat(t *testing.T) {
	a := model.Listing{ID: "kleinanzeigen.de:1", Title: "Schöne 2-Zimmer-Wohnung mit Balkon in Kreuzberg",
		Location: "Oranienstraße 12, Berlin", Price: "1.100 €", PriceValue: 1100, Size: "54 m²", SizeValue: 54, Rooms: "2", RoomsValue: 2}
	copyOf := model.Listing{ID: "immowelt.de:9", Title: "SCHÖNE 2 Zimmer Wohnung mit Balkon in Kreuzberg!",
		Location: "Berlin", Price: "1.100 EUR", PriceValue: 1100, Size: "54,0 m²", SizeValue: 54, Rooms: "2 Zi.", RoomsValue: 2}
	if why, ok := SameFlat(a, copyOf); !ok || !strings.Contains(why, "nearly the same title") {
		t.Fatalf("a cross-post was not matched (%q)", why)
	}
	byAddress := copyOf
	byAddress.Title, byAddress.Location = "Altbau nahe Görlitzer Park", "Oranienstrasse 12, Berlin"
	if why, ok := SameFlat(a, byAddress); !ok || !strings.Contains(why, "same address") {
		t.Errorf("the same street address was not matched (%q)", why)
	}
	// Near misses: one value apart, or nothing but the numbers alike.
	for name, change := range map[string]func(*model.Listing){
		"other price":     func(l *model.Listing) { l.PriceValue = 1150 },
		"other size":      func(l *model.Listing) { l.Size, l.SizeValue = "55 m²", 55 },
		"other rooms":     func(l *model.Listing) { l.Rooms, l.RoomsValue = "3", 3 },
		"rooms not shown": func(l *model.Listing) { l.Rooms, l.RoomsValue = "", 0 },
		"other title, district only": func(l *model.Listing) {
			l.Title, l.Location = "Helle Wohnung im Hinterhaus, ruhig", "Berlin Kreuzberg"
		},
	} {
		b := copyOf
		change(&b)
		if why, ok := SameFlat(a, b); ok {
			t.Errorf("%s: matched (%q)", name, why)
		}
	}
}
