package ui

import (
	"strings"

	"notifio/storage"
)

// This file is what the Listings tab adds about a listing's price history and
// the duplicates it was matched with (issue 22).

// maxHistoryShown is how many prices the row shows (the newest).
const maxHistoryShown = 4

// priceWithHistory is the listing's price, with the earlier ones before it
// when it changed: "1.200 € → 1.100 €".
func priceWithHistory(l storage.Listing) string { return l.PriceTrail(maxHistoryShown) }

// matchWords says where else the listing was found and why it was taken for
// the same flat ("" when nowhere).
func matchWords(l storage.Listing) string {
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
