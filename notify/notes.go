package notify

import (
	"fmt"
	"strings"

	"notifio/internal/model"
)

// headline is an item's subject and the words its body starts with, before the
// search's name: new listings, or a price change (issue 22).
func headline(item model.OutboxItem, n int, search string) (subject, head string) {
	if item.Event != model.EventPriceDrop {
		if n == 1 {
			return fmt.Sprintf("1 new on %s", search), "1 new listing on"
		}
		return fmt.Sprintf("%d new on %s", n, search), fmt.Sprintf("%d new listings on", n)
	}
	rises := 0
	for _, l := range item.Listings {
		if l.Change == model.ChangePriceRise {
			rises++
		}
	}
	switch {
	case rises == 0:
		head = "Price dropped on"
	case rises == n:
		head = "Price went up on"
	default:
		head = "Prices changed on"
	}
	if n == 1 {
		l := item.Listings[0]
		return fmt.Sprintf("%s: %s → %s", model.SanitizeLine(l.Title, maxSubjectName), model.SanitizeLine(l.OldPrice, 40), model.SanitizeLine(l.Price, 40)), head
	}
	return fmt.Sprintf("%s %s (%d listings)", head, search, n), head
}

// listingNotes are the lines under a listing's title: what changed, values
// the page did not show, and where else the flat was found.
func listingNotes(l model.Listing) []string {
	var out []string
	line := func(s string) {
		if s = model.SanitizeLine(s, maxTitle); s != "" {
			out = append(out, s)
		}
	}
	switch l.Change {
	case model.ChangePriceDrop:
		line(fmt.Sprintf("Price dropped from %s to %s", l.OldPrice, l.Price))
	case model.ChangePriceRise:
		line(fmt.Sprintf("Price went up from %s to %s", l.OldPrice, l.Price))
	case model.ChangeRelisted:
		line("Back on the market")
	}
	if len(l.Marks) > 0 {
		line("Note: " + strings.Join(l.Marks, ", "))
	}
	if len(l.AlsoIn) > 0 {
		line("Also found by your search " + quoteJoin(l.AlsoIn))
	}
	for _, o := range l.AlsoOn {
		// The other site's link only when it is really on that site.
		if u := httpURL(o.URL); u != nil && sameSite(u.Hostname(), o.Site) {
			line("Also on " + o.Site + ": " + u.String())
		} else {
			line("Also on " + o.Site)
		}
	}
	return out
}

func quoteJoin(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "“" + n + "”"
	}
	return strings.Join(q, " and ")
}

func allPriceChanges(items []model.OutboxItem) bool {
	for _, it := range items {
		if it.Event != model.EventPriceDrop {
			return false
		}
	}
	return len(items) > 0
}

// pushCount is "3 new", or "3 new, 1 price change" when a summary holds both.
func pushCount(items []model.OutboxItem) string {
	fresh, changed := 0, 0
	for _, it := range items {
		if it.Event == model.EventPriceDrop {
			changed += len(it.Listings)
		} else {
			fresh += len(it.Listings)
		}
	}
	switch {
	case changed == 0:
		return fmt.Sprintf("%d new", fresh)
	case changed == 1:
		return fmt.Sprintf("%d new, 1 price change", fresh)
	}
	return fmt.Sprintf("%d new, %d price changes", fresh, changed)
}
