package words

import (
	"fmt"
	"time"
)

// How often Notifio would ask a site, as the search's dialog says it beside
// the interval.

// SiteRateWords is the request rate of a search's site, counting all its
// searches: "With this search, Notifio asks this site once every 2 minutes
// in all."
func SiteRateWords(perMin float64) string {
	return "With this search, Notifio asks this site " + rateWords(perMin) + " in all."
}

// rateWords writes a request rate: "once every 2 minutes", "twice a minute",
// "2.5 times a minute".
func rateWords(perMin float64) string {
	switch {
	case perMin <= 0:
		return "not at all"
	case perMin < 0.95:
		every := time.Duration(float64(time.Minute) / perMin).Round(time.Second)
		return "once every " + DurationWords(every)
	case perMin < 1.05:
		return "once a minute"
	case perMin > 1.95 && perMin < 2.05:
		return "twice a minute"
	}
	return fmt.Sprintf("%.1f times a minute", perMin)
}
