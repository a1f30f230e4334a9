package filter

import (
	"reflect"
	"strings"
	"testing"

	"notifio/internal/model"
)

var flat = model.Listing{
	ID: "example.org:1", Title: "Helle 2-Zimmer-Wohnung mit Südbalkon", Location: "Berlin Neukölln",
	Price: "1.100 €", PriceValue: 1100, Currency: "EUR", Size: "54,5 m²", SizeValue: 54.5, Rooms: "2", RoomsValue: 2,
}

// Each filter holds back what it should and nothing else: every case is run
// against the same flat, with a value just on the passing side and one just
// past it.
func TestEachFilterHoldsBackWhatItShould(t *testing.T) {
	cases := []struct {
		name string
		f    model.Filters
		held string // "" = passes; else a part of the reason
	}{
		{"no filters", model.Filters{}, ""},
		{"max price equal", model.Filters{MaxPrice: 1100}, ""},
		{"max price below", model.Filters{MaxPrice: 1099}, "costs 1.100 €, more than your 1.099"},
		{"min price equal", model.Filters{MinPrice: 1100}, ""},
		{"min price above", model.Filters{MinPrice: 1101}, "less than your 1.101"},
		{"min rooms equal", model.Filters{MinRooms: 2}, ""},
		{"min rooms above", model.Filters{MinRooms: 2.5}, "2 rooms, fewer than your 2,5"},
		{"min size equal", model.Filters{MinSize: 54.5}, ""},
		{"min size above", model.Filters{MinSize: 55}, "54,5 m², less than your 55 m²"},
		{"include accent-insensitive", model.Filters{Include: []string{"SUDBALKON"}}, ""},
		{"include in location", model.Filters{Include: []string{"neukolln"}}, ""},
		{"include phrase", model.Filters{Include: []string{"mit südbalkon"}}, ""},
		{"include phrase out of order", model.Filters{Include: []string{"südbalkon mit"}}, `do not mention "südbalkon mit"`},
		{"include all of them", model.Filters{Include: []string{"balkon", "garten"}}, `do not mention "garten"`},
		{"exclude absent", model.Filters{Exclude: []string{"WG", "Tausch"}}, ""},
		{"exclude present", model.Filters{Exclude: []string{"Neukölln"}}, `mentions "Neukölln"`},
		{"hide promoted, not promoted", model.Filters{HidePromoted: true}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Match(c.f, flat)
			if c.held == "" && !r.Pass() {
				t.Fatalf("held back: %s", r.Held)
			}
			if c.held != "" && !strings.Contains(r.Held, c.held) {
				t.Fatalf("Held = %q, want it to contain %q", r.Held, c.held)
			}
			if len(r.Marks) != 0 {
				t.Errorf("marks %v on a listing that shows every value", r.Marks)
			}
		})
	}
	ad := flat
	ad.Promoted = true
	if r := Match(model.Filters{HidePromoted: true}, ad); r.Pass() {
		t.Error("a promoted listing passed hide promoted")
	}
	if r := Match(model.Filters{}, ad); !r.Pass() {
		t.Errorf("a promoted listing was held without hide promoted: %s", r.Held)
	}
}

// A value the page does not show never drops a listing silently: it passes,
// marked, unless the user asked for listings that show a price.
func TestUnknownValueIsMarkedNotDropped(t *testing.T) {
	bare := model.Listing{ID: "example.org:2", Title: "Wohnung", Price: "Preis auf Anfrage"}
	r := Match(model.Filters{MaxPrice: 900, MinRooms: 2, MinSize: 40}, bare)
	if !r.Pass() {
		t.Fatalf("a listing without price, rooms and size was held: %s", r.Held)
	}
	if want := []string{MarkNoPrice, MarkNoRooms, MarkNoSize}; !reflect.DeepEqual(r.Marks, want) {
		t.Errorf("Marks = %v, want %v", r.Marks, want)
	}
	r = Match(model.Filters{MaxPrice: 900, PriceShown: true}, bare)
	if r.Pass() || !strings.Contains(r.Held, "does not show a price") {
		t.Errorf("only-with-price let a listing without a price through (Held %q)", r.Held)
	}
	if r := Match(model.Filters{PriceShown: true}, bare); !r.Pass() || len(r.Marks) != 0 {
		t.Errorf("without a price bound, price shown should not matter: %+v", r)
	}
}

func TestParseWords(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{`balkon "ruhige lage", garten`, []string{"balkon", "ruhige lage", "garten"}},
		{`„mit  Blick“ WG`, []string{"mit Blick", "WG"}},
		{"", nil},
	}
	for _, c := range cases {
		got, err := ParseWords(c.in)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("ParseWords(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
		if back, _ := ParseWords(FormatWords(got)); !reflect.DeepEqual(back, got) {
			t.Errorf("FormatWords round trip of %q gave %q", got, back)
		}
	}
	if _, err := ParseWords(`"offen`); err == nil {
		t.Error("an unclosed quote was accepted")
	}
}

// The filters compare the numbers extraction handed over, never the text
// again: a size or room count the card wrote in words of its own is judged by
// its value, and a text whose value was not read is "not shown".
func TestFiltersCompareTheValuesNotTheText(t *testing.T) {
	f := model.Filters{MinRooms: 3, MinSize: 60}
	worded := model.Listing{ID: "example.org:3", Title: "Wohnung", Size: "Wohnfläche siehe Exposé", SizeValue: 72,
		Rooms: "drei Zimmer", RoomsValue: 3}
	if r := Match(f, worded); !r.Pass() || len(r.Marks) != 0 {
		t.Errorf("a flat of 3 rooms and 72 m² (its values) was judged by its text: held %q, marks %v", r.Held, r.Marks)
	}
	small := worded
	small.Size, small.SizeValue = "", 40
	if r := Match(f, small); !strings.Contains(r.Held, "40 m², less than your 60 m²") {
		t.Errorf("a flat of 40 m² (its value, no text) was not held: %q %v", r.Held, r.Marks)
	}
	unread := model.Listing{ID: "example.org:4", Title: "Wohnung", Size: "54 m²", Rooms: "2"}
	if r := Match(f, unread); !r.Pass() || !reflect.DeepEqual(r.Marks, []string{MarkNoRooms, MarkNoSize}) {
		t.Errorf("values never read were not marked as not shown: held %q, marks %v", r.Held, r.Marks)
	}
}

func TestCheckAndLooser(t *testing.T) {
	if err := Check(model.Filters{MinPrice: 900, MaxPrice: 800}); err == nil || !strings.Contains(err.Error(), "swap") {
		t.Errorf("min above max: %v", err)
	}
	if err := Check(model.Filters{Include: []string{"WG"}, Exclude: []string{"wg"}}); err == nil {
		t.Error("a word both included and excluded was accepted")
	}
	if !Looser(model.Filters{MaxPrice: 1000}, model.Filters{MaxPrice: 1200}) {
		t.Error("raising the ceiling is looser")
	}
	if !Looser(model.Filters{MaxPrice: 1000}, model.Filters{}) {
		t.Error("removing the ceiling is looser")
	}
	if Looser(model.Filters{MaxPrice: 1000}, model.Filters{MaxPrice: 900}) {
		t.Error("lowering the ceiling is not looser")
	}
	if got := Describe(model.Filters{MaxPrice: 1200, MinRooms: 2, Exclude: []string{"WG", "zur Zwischenmiete"}}); got != `at most 1.200, 2+ rooms, without WG "zur Zwischenmiete"` {
		t.Errorf("Describe = %q", got)
	}
}
