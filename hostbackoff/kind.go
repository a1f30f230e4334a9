// Package hostbackoff is Notifio's per-site backoff policy: refusal kinds, the four
// ladders, the per-site registry with single-probe admission, and Retry-After
// parsing. It is pure: no I/O, and no clock or randomness except what callers pass.
package hostbackoff

// Kind is the kind of refusal a site answered with. Each kind has its own ladder.
type Kind int

// The refusal kinds, in the order the classifier weighs them.
const (
	Challenge Kind = iota + 1
	RateLimited
	Denied
	Error
)

// String returns the kind's stable name: challenge, rate_limited, denied or error.
func (k Kind) String() string {
	switch k {
	case Challenge:
		return "challenge"
	case RateLimited:
		return "rate_limited"
	case Denied:
		return "denied"
	case Error:
		return "error"
	}
	return "unknown"
}
