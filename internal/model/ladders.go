package model

import "time"

// DefaultLadders are the waits for consecutive refusals of each kind, the
// last rung the ceiling: the backoff registry's (hostbackoff) and the words
// that tell the user how the pauses grow. A fresh map each call.
func DefaultLadders() map[Refusal][]time.Duration {
	return map[Refusal][]time.Duration{
		// A challenge (captcha, JavaScript check) is often lifted within minutes, or
		// by the user solving it in their browser, so it starts short; but a challenge
		// that keeps coming means the site has flagged us, so it climbs steeply to a
		// half-hour ceiling rather than asking every few minutes all day.
		RefusalChallenge: {1 * time.Minute, 3 * time.Minute, 8 * time.Minute, 15 * time.Minute, 30 * time.Minute},
		// Rate limiting is a quota over a window: the first answer is to wait out a
		// typical one-minute window twice over, then give the quota room to refill.
		// Retry-After, when sent, usually says more than the ladder and wins.
		RefusalRateLimited: {2 * time.Minute, 5 * time.Minute, 15 * time.Minute, 30 * time.Minute},
		// Denied (401/403, a block page) is the site saying no on purpose. Asking again
		// soon rarely changes its mind and may harden a block, so it starts longest and
		// ends at the one-hour cap.
		RefusalDenied: {5 * time.Minute, 15 * time.Minute, 30 * time.Minute, 60 * time.Minute},
		// Errors (5xx, 408, timeouts, resets) are usually a passing fault, not a
		// judgement about us: retry quickly, and stop at a short ceiling so a recovered
		// site is noticed within minutes.
		RefusalError: {30 * time.Second, 2 * time.Minute, 5 * time.Minute},
	}
}
