package filter

import (
	"fmt"
	"strings"

	"notifio/internal/model"
)

// minTitleOverlap is how much of two titles' words must be shared (of all the
// words either has) for them to count as one flat's title. Portals reword a
// little ("2-Zi.-Whg." and "2 Zimmer Wohnung" differ) but a flat copied across
// keeps most of its words; 0.8 kept every real cross-post in our pages and no
// two neighbouring flats apart.
const minTitleOverlap = 0.8

// SameFlat is the conservative cross-site match: two listings are one flat
// only when price, size and rooms are all shown and equal and the title or
// the address (with a house number) matches closely after Fold. why says so in
// the user's words. It never looks at the site: the caller keeps one site's
// listings apart.
func SameFlat(a, b model.Listing) (why string, ok bool) {
	if a.PriceValue <= 0 || a.PriceValue != b.PriceValue {
		return "", false
	}
	sa, ra := a.SizeValue, a.RoomsValue
	if !shown(sa) || !shown(ra) || sa != b.SizeValue || ra != b.RoomsValue {
		return "", false
	}
	same := fmt.Sprintf("same price (%s), size (%s m²) and rooms (%s)", num(a.PriceValue), num(sa), num(ra))
	if overlap(Fold(a.Title), Fold(b.Title)) >= minTitleOverlap {
		return same + " and nearly the same title", true
	}
	if la, lb := Fold(a.Location), Fold(b.Location); la != "" && la == lb && strings.ContainsAny(la, "0123456789") {
		return same + " and the same address", true
	}
	return "", false
}

// overlap is the share of words two folded texts have in common (Jaccard);
// texts of fewer than three words never overlap enough, being too generic.
func overlap(a, b string) float64 {
	wa, wb := wordSet(a), wordSet(b)
	if len(wa) < 3 || len(wb) < 3 {
		return 0
	}
	common := 0
	for w := range wa {
		if wb[w] {
			common++
		}
	}
	return float64(common) / float64(len(wa)+len(wb)-common)
}

func wordSet(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.Fields(s) {
		out[w] = true
	}
	return out
}
