package words

import (
	"regexp"
	"strings"
	"time"

	"notifio/internal/model"
)

// The words of a listing's row (the price's are in price.go).

// ListingDetail is the second line of a listing row: its price words, size,
// rooms and place, and when it was first seen.
func ListingDetail(price, size, rooms, location string, firstSeen, now time.Time) string {
	var parts []string
	for _, p := range []string{price, size, RoomsWords(rooms), location} {
		if p = strings.TrimSpace(p); p != "" {
			parts = append(parts, p)
		}
	}
	if !firstSeen.IsZero() {
		parts = append(parts, "first seen "+DayAndTime(firstSeen, now))
	}
	return strings.Join(parts, " · ")
}

// PageListingLine is a listing found on a page (a test of a search, a page
// read in the browser) in one line: its title, then price, size, rooms and
// place.
func PageListingLine(l model.PageListing) string {
	line := l.Title
	if d := ListingDetail(l.Price, l.Size, l.Rooms, l.Location, time.Time{}, time.Time{}); d != "" {
		line += " · " + d
	}
	return line
}

// roomCount is a room count as sites write it: "2", "2,5 Zi.", "3-Zimmer",
// "2 rooms", "1 - 2 Zimmer".
var roomCount = regexp.MustCompile(`^(\d+(?:[.,]\d)?)(?:\s*[-–]\s*(\d+(?:[.,]\d)?))?(?:\s*-?\s*(?:zimmer|zi\.?|rooms?|räume|raum|habitaciones|hab\.?|locali|pokoje))?\b\.?$`)

// RoomsWords writes a room count in one form, "1 room", "2.5 rooms",
// "1–2 rooms", whatever the site's words; other text is left alone.
func RoomsWords(rooms string) string {
	r := strings.TrimSpace(rooms)
	m := roomCount.FindStringSubmatch(strings.ToLower(r))
	if m == nil {
		return r
	}
	n := strings.ReplaceAll(m[1], ",", ".")
	if m[2] != "" {
		return n + "–" + strings.ReplaceAll(m[2], ",", ".") + " rooms"
	}
	if n == "1" {
		return "1 room"
	}
	return n + " rooms"
}

// MatchWords says where else the listing was found and why it was taken for
// the same flat ("" when nowhere).
func MatchWords(l model.Listing) string {
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
