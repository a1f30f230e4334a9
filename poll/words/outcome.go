package words

import (
	"fmt"

	"notifio/internal/model"
)

// OutcomeMessage says what an outcome means for the user.
func OutcomeMessage(site string, outcome model.Outcome, n int, noResults bool) string {
	switch outcome {
	case model.OutcomeOK:
		if n == 0 && noResults {
			return "The page says there are no results right now; Notifio will tell you when one appears."
		}
		return fmt.Sprintf("Found %d listings on the page.", n)
	case model.OutcomeChallenge:
		return site + " showed a captcha/challenge page instead of results. Notifio will wait and try again; if it keeps happening, open the page in your browser and solve it."
	case model.OutcomeRateLimited:
		return site + " says we are asking too often (rate limit). Notifio will wait before asking again."
	case model.OutcomeDenied:
		return site + " refused access. Notifio will wait before asking again."
	case model.OutcomeSessionExpired:
		return site + " sent us to a login page: the session expired. Log in again in your browser and paste a fresh cookie."
	case model.OutcomeUnexpectedPage:
		return "The page did not look like results (a layout change or a soft block). Check the URL in your browser, or set CSS selectors."
	case model.OutcomeHostNotFound:
		return site + " was not found: no server is known by that name, while other sites answer. Check the address for a typo."
	case "offline":
		return "No connection: " + site + " could not be reached. Check your internet connection."
	case model.OutcomeError:
		return site + " could not be read (network error or server error). Notifio will try again shortly."
	}
	return string(outcome)
}
