// Package filter decides which listings a search's filters let through and
// says why, in the user's words. It is pure: no storage, no clock, no I/O, so
// the window's "Test this search", the CLI and the poll all give one answer.
package filter

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"notifio/internal/model"
)

// Words a mark says.
const (
	MarkNoPrice = "price not shown"
	MarkNoRooms = "rooms not shown"
	MarkNoSize  = "size not shown"
)

// Match applies f to l. Checks run in a fixed order and the first that holds
// the listing back gives the reason; values the listing does not show are
// marked, not held (unless f.PriceShown asks for a price).
func Match(f model.Filters, l model.Listing) model.FilterResult {
	var r model.FilterResult
	if f.HidePromoted && l.Promoted {
		return model.FilterResult{Held: "it is a promoted listing (an ad), and you chose to hide those"}
	}
	if held, mark := checkPrice(f, l); held != "" {
		return model.FilterResult{Held: held}
	} else if mark != "" {
		r.Marks = append(r.Marks, mark)
	}
	if f.MinRooms > 0 {
		switch rooms := l.RoomsValue; {
		case !shown(rooms):
			r.Marks = append(r.Marks, MarkNoRooms)
		case rooms < f.MinRooms:
			return model.FilterResult{Held: fmt.Sprintf("it has %s rooms, fewer than your %s", num(rooms), num(f.MinRooms))}
		}
	}
	if f.MinSize > 0 {
		switch size := l.SizeValue; {
		case !shown(size):
			r.Marks = append(r.Marks, MarkNoSize)
		case size < f.MinSize:
			return model.FilterResult{Held: fmt.Sprintf("it has %s m², less than your %s m²", num(size), num(f.MinSize))}
		}
	}
	text := Fold(l.Title + " " + l.Location)
	for _, w := range f.Include {
		if fw := Fold(w); fw != "" && !containsWord(text, fw) {
			return model.FilterResult{Held: fmt.Sprintf("its title and location do not mention %q", w)}
		}
	}
	for _, w := range f.Exclude {
		if fw := Fold(w); fw != "" && containsWord(text, fw) {
			return model.FilterResult{Held: fmt.Sprintf("it mentions %q, which you excluded", w)}
		}
	}
	return r
}

// checkPrice returns why the price holds the listing back, or the mark for a
// price not shown.
func checkPrice(f model.Filters, l model.Listing) (held, mark string) {
	if f.MinPrice <= 0 && f.MaxPrice <= 0 {
		return "", ""
	}
	p := l.PriceValue
	if !shown(p) {
		if f.PriceShown {
			return "it does not show a price, and you chose only listings that show one", ""
		}
		return "", MarkNoPrice
	}
	shown := l.Price
	if shown == "" {
		shown = num(p)
	}
	if f.MaxPrice > 0 && p > f.MaxPrice {
		return fmt.Sprintf("it costs %s, more than your %s", shown, num(f.MaxPrice)), ""
	}
	if f.MinPrice > 0 && p < f.MinPrice {
		return fmt.Sprintf("it costs %s, less than your %s", shown, num(f.MinPrice)), ""
	}
	return "", ""
}

// num writes 1200 as "1.200" and 2.5 as "2,5", as the German portals do.
func num(v float64) string {
	if v != math.Trunc(v) {
		return strings.Replace(strconv.FormatFloat(v, 'f', -1, 64), ".", ",", 1)
	}
	s := strconv.FormatFloat(v, 'f', 0, 64)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte('.')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// Num is how a filter's amount is shown to the user ("1.200", "2,5").
func Num(v float64) string { return num(v) }

// shown reports whether a listing's number (PriceValue, SizeValue,
// RoomsValue) is one the page showed: 0 is "not shown".
func shown(v float64) bool { return v > 0 && !math.IsInf(v, 0) }
