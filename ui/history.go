package ui

import (
	"strings"

	"notifio/internal/model"
)

// This file is what the Listings tab adds about a listing's price history and
// the duplicates it was matched with (issue 22).

// maxHistoryShown is how many prices the row shows (the newest).
const maxHistoryShown = 4

// priceWithHistory is the listing's price and, when it changed, in words how:
// "1.100 € · price dropped from 1.200 €". Words, not an arrow: the window's
// bundled font has no "→" and drew it as "→�" (issue 37).
func priceWithHistory(l model.Listing) string {
	ps := l.Prices
	if len(ps) < 2 {
		return l.Price
	}
	if len(ps) > maxHistoryShown {
		ps = ps[len(ps)-maxHistoryShown:]
	}
	last, prev := ps[len(ps)-1], ps[len(ps)-2]
	how := "price changed from "
	switch {
	case priceDropped(l):
		how = "price dropped from "
	case last.Value > 0 && prev.Value > 0 && last.Value > prev.Value:
		how = "price went up from "
	}
	out := last.Price + " · " + how + prev.Price
	if len(ps) > 2 {
		earlier := make([]string, 0, len(ps)-2)
		for _, p := range ps[:len(ps)-2] {
			earlier = append(earlier, p.Price)
		}
		out += " (before: " + strings.Join(earlier, ", ") + ")"
	}
	return out
}

// priceDropped reports whether the listing's latest price change was a drop.
func priceDropped(l model.Listing) bool {
	ps := l.Prices
	if len(ps) < 2 {
		return false
	}
	last, prev := ps[len(ps)-1], ps[len(ps)-2]
	if last.Value > 0 && prev.Value > 0 {
		return last.Value < prev.Value
	}
	return l.Change == model.ChangePriceDrop
}

// matchWords says where else the listing was found and why it was taken for
// the same flat ("" when nowhere).
func matchWords(l model.Listing) string {
	var parts []string
	if len(l.AlsoIn) > 0 {
		parts = append(parts, "also in your search "+strings.Join(l.AlsoIn, ", "))
	}
	for _, o := range l.AlsoOn {
		parts = append(parts, "also on "+o.Site+" ("+o.Why+")")
	}
	if l.SameAs != nil {
		parts = append(parts, "same flat as on "+l.SameAs.Site+" ("+l.SameAs.Why+"), alerted once")
	}
	return strings.Join(parts, " · ")
}
