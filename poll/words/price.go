// Package words is the one place the watcher's states become the user's
// words: what a search or a site is doing, how long and until when, a
// listing's price and its history, a search's default name, and what the
// user typed read back (an interval, a search's address). It imports only
// the nouns (internal/model), so the window, the command line and the tray
// read the same words without depending on the watcher.
package words

import (
	"strings"

	"notifio/internal/model"
)

// maxPricesShown is how many prices a listing's price words name (the newest).
const maxPricesShown = 4

// PriceWords is the listing's price and, when it changed, in words how:
// "1.100 € · price dropped from 1.200 €", as the window's Listings tab and
// `notifio listings` show it. Words, not an arrow: the window's bundled font
// has no "→" and drew it as "→�" (issue 37).
func PriceWords(l model.Listing) string {
	ps := l.Prices
	if len(ps) < 2 {
		return l.Price
	}
	if len(ps) > maxPricesShown {
		ps = ps[len(ps)-maxPricesShown:]
	}
	last, prev := ps[len(ps)-1], ps[len(ps)-2]
	how := "price changed from "
	switch {
	case PriceDropped(l):
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

// PriceDropped reports whether the listing's latest price change was a drop
// (its row's badge says so).
func PriceDropped(l model.Listing) bool {
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
