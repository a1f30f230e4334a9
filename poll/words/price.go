// Package words is the one place the watcher's states become the user's
// words: what a search or a site is doing, how long and until when, a
// listing's price trail, a search's default name. It imports only the nouns
// (internal/model), so the window, the command line and the tray read the
// same words without depending on the watcher.
package words

import (
	"strings"

	"notifio/internal/model"
)

// PriceTrail is the listing's price with up to n earlier ones before it when it
// changed ("1.200 € → 1.100 €"), as the window and `notifio listings` show it.
func PriceTrail(l model.Listing, n int) string {
	if len(l.Prices) < 2 {
		return l.Price
	}
	ps := l.Prices
	if n > 0 && len(ps) > n {
		ps = ps[len(ps)-n:]
	}
	shown := make([]string, 0, len(ps))
	for _, p := range ps {
		shown = append(shown, p.Price)
	}
	return strings.Join(shown, " → ")
}
