package extract

import (
	"regexp"
	"strings"

	"notifio/internal/model"
)

// This file reads a card's living area and room count: a labelled value, else
// the first the card's fact lines show (numbers.go finds the amounts), and
// hands every listing's over as numbers (readAmounts).

// readAmounts gives a listing its size and rooms as numbers, however their
// text was read (a card, a profile's or the user's selectors, the page's
// data): the filters compare these, never the text.
func readAmounts(l *model.PageListing) {
	l.SizeValue, l.RoomsValue = model.ShownAmount(l.Size), model.ShownAmount(l.Rooms)
}

// cardSize: a labelled living area, else the first area the fact lines show.
func cardSize(fl []string, f facts, m *skipMemo) string {
	if v := f.get(sizeLabels); v != "" {
		if a := findSize(v); a != "" {
			return a
		}
		if bareAmount(v) {
			return v + " m²"
		}
	}
	for _, ln := range fl {
		if strings.Contains(strings.ToLower(ln), "grundst") {
			continue // a plot, not a living area
		}
		if a := m.sizeIn(ln); a != "" {
			return a
		}
	}
	return ""
}

// factLines are a card's lines but its title, short ones (facts) before long
// ones (descriptions), so "2 Zi." beats "Schöne 2-Zimmer-Wohnung".
func factLines(ls []string, title string, m *skipMemo) []string {
	var short, long []string
	for _, ln := range ls {
		switch {
		case ln == title || strings.Contains(title, ln) && !wholeFact(ln, m):
		case len(ln) <= 30 || factList(ln):
			short = append(short, ln)
		default:
			long = append(long, ln)
		}
	}
	return append(short, long...)
}

// reFactSep separates the parts of a line of facts ("50 m² · 2 Zi. · Balkon").
var reFactSep = regexp.MustCompile(`\s+[·•|]\s+`)

// factList: a line of short parts between separators lists facts; it is no
// sentence of a description.
func factList(ln string) bool {
	if !strings.ContainsAny(ln, "·•|") {
		return false
	}
	parts := reFactSep.Split(ln, -1)
	for _, p := range parts {
		if len(p) > 30 {
			return false
		}
	}
	return len(parts) > 1
}

// wholeFact: the line is a size or a room count and nothing else — a fact of
// the card even where the title mentions it too ("2 Zi." beside
// "Altbau 2 Zi. mit Balkon").
func wholeFact(ln string, m *skipMemo) bool {
	return m.sizeIn(ln) == ln || m.roomsIn(ln) == ln
}

// cardRooms: a labelled room count, else the first the fact lines show.
func cardRooms(fl []string, f facts, m *skipMemo) string {
	if v := f.get(roomLabels); v != "" {
		if bareAmount(v) {
			return v
		}
		if a := findRooms(v); a != "" {
			return a
		}
	}
	for _, ln := range fl {
		if a := m.roomsIn(ln); a != "" {
			return a
		}
	}
	return ""
}
