package filter

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"notifio/internal/model"
)

// Describe says the filters in a few words for lists ("at most 1.200, at
// least 2 rooms, without \"WG\""); "" when there are none.
func Describe(f model.Filters) string {
	var parts []string
	switch {
	case f.MinPrice > 0 && f.MaxPrice > 0:
		parts = append(parts, "price "+num(f.MinPrice)+"–"+num(f.MaxPrice))
	case f.MaxPrice > 0:
		parts = append(parts, "at most "+num(f.MaxPrice))
	case f.MinPrice > 0:
		parts = append(parts, "at least "+num(f.MinPrice))
	}
	if f.PriceShown {
		parts = append(parts, "price shown")
	}
	if f.MinRooms > 0 {
		parts = append(parts, num(f.MinRooms)+"+ rooms")
	}
	if f.MinSize > 0 {
		parts = append(parts, num(f.MinSize)+"+ m²")
	}
	if len(f.Include) > 0 {
		parts = append(parts, "with "+FormatWords(f.Include))
	}
	if len(f.Exclude) > 0 {
		parts = append(parts, "without "+FormatWords(f.Exclude))
	}
	if f.HidePromoted {
		parts = append(parts, "no ads")
	}
	if f.PriceRises {
		parts = append(parts, "price rises alerted")
	}
	if f.NoPriceDrops {
		parts = append(parts, "no price-drop alerts")
	}
	return strings.Join(parts, ", ")
}

// Check reports filters that cannot be right, in words for the user.
func Check(f model.Filters) error {
	for _, v := range []float64{f.MinPrice, f.MaxPrice, f.MinRooms, f.MinSize} {
		if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			return errors.New("a filter amount is below zero or not a number; leave it empty for no limit")
		}
	}
	if f.MinRooms > MaxRooms {
		return fmt.Errorf("at least %s rooms: no flat has that many (at most %d); is it a price or a size in the wrong box?", num(f.MinRooms), MaxRooms)
	}
	if f.MinSize > MaxSize {
		return fmt.Errorf("at least %s m²: that is larger than any flat (at most %s m²); is it a price in the wrong box?", num(f.MinSize), num(MaxSize))
	}
	if f.MinPrice > 0 && f.MaxPrice > 0 && f.MinPrice > f.MaxPrice {
		return fmt.Errorf("the lowest price (%s) is above the highest (%s): no listing could pass; swap them", num(f.MinPrice), num(f.MaxPrice))
	}
	for _, w := range f.Include {
		for _, x := range f.Exclude {
			if Fold(w) != "" && Fold(w) == Fold(x) {
				return fmt.Errorf("%q is both a word that must appear and one that must not; keep it in one list", w)
			}
		}
	}
	return nil
}

// Looser reports whether after may let through a listing before held back:
// the recorded held listings are worth offering again.
func Looser(before, after model.Filters) bool {
	lower := func(a, b float64) bool { return a > 0 && (b == 0 || b < a) } // b is a looser lower bound
	higher := func(a, b float64) bool { return a > 0 && (b == 0 || b > a) }
	return higher(before.MaxPrice, after.MaxPrice) || lower(before.MinPrice, after.MinPrice) ||
		lower(before.MinRooms, after.MinRooms) || lower(before.MinSize, after.MinSize) ||
		len(after.Include) < len(before.Include) || len(after.Exclude) < len(before.Exclude) ||
		(before.HidePromoted && !after.HidePromoted) || (before.PriceShown && !after.PriceShown) ||
		!sameWords(before.Include, after.Include) || !sameWords(before.Exclude, after.Exclude)
}

func sameWords(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if Fold(a[i]) != Fold(b[i]) {
			return false
		}
	}
	return true
}
