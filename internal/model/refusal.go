package model

import "fmt"

// Outcome is what one fetch of a search's page came to (poll/classify decides
// it); snapshots and dry runs carry it, the words come from poll/words.
type Outcome string

// The outcomes.
const (
	OutcomeOK             Outcome = "ok"
	OutcomeChallenge      Outcome = "challenge"
	OutcomeRateLimited    Outcome = "rate_limited"
	OutcomeDenied         Outcome = "denied"
	OutcomeError          Outcome = "error"
	OutcomeSessionExpired Outcome = "session_expired"
	OutcomeUnexpectedPage Outcome = "unexpected_page"
)

// IsRefusal reports whether the outcome climbs the site's backoff ladder:
// challenge, rate_limited, denied, error and unexpected_page do; ok and
// session_expired (which pauses the search until the user acts) do not.
func (o Outcome) IsRefusal() bool {
	_, ok := o.Refusal()
	return ok
}

// Refusal is the ladder an outcome climbs, the one mapping between the two:
// challenge, rate_limited and denied their own, error and unexpected_page
// the error ladder; false for ok and session_expired.
func (o Outcome) Refusal() (Refusal, bool) {
	switch o {
	case OutcomeChallenge:
		return RefusalChallenge, true
	case OutcomeRateLimited:
		return RefusalRateLimited, true
	case OutcomeDenied:
		return RefusalDenied, true
	case OutcomeError, OutcomeUnexpectedPage:
		return RefusalError, true
	}
	return 0, false
}

// OutcomeNotSaved (untyped: OnceResult and DryRun carry outcomes as
// strings too) is the outcome of a poll whose page was read but whose
// listings could not be saved (a full disk, a data folder that cannot be
// written).
const OutcomeNotSaved = "not_saved"

// OutcomeHostNotFound is the outcome of a poll whose host does not resolve
// while other sites answer: a mistyped or vanished address (the error
// ladder), not this computer being offline.
const OutcomeHostNotFound = "host_not_found"

// SignalNoResults is the evidence of a results page that says it has none.
const SignalNoResults = "no-results marker"

// Refusal is the kind of refusal a site answered with. Each kind has its own
// backoff ladder (hostbackoff).
type Refusal int

// The refusal kinds, in the order the classifier weighs them.
const (
	RefusalChallenge Refusal = iota + 1
	RefusalRateLimited
	RefusalDenied
	RefusalError
)

// Refusals returns the four refusal kinds in their canonical order.
func Refusals() []Refusal {
	return []Refusal{RefusalChallenge, RefusalRateLimited, RefusalDenied, RefusalError}
}

// String returns the kind's stable name: challenge, rate_limited, denied or error.
func (k Refusal) String() string {
	switch k {
	case RefusalChallenge:
		return "challenge"
	case RefusalRateLimited:
		return "rate_limited"
	case RefusalDenied:
		return "denied"
	case RefusalError:
		return "error"
	}
	return "unknown"
}

// Valid reports whether k is one of the four refusal kinds.
func (k Refusal) Valid() bool { return k >= RefusalChallenge && k <= RefusalError }

// ParseRefusal reads back a name written by String. Only the four names are accepted.
func ParseRefusal(s string) (Refusal, bool) {
	for _, k := range Refusals() {
		if k.String() == s {
			return k, true
		}
	}
	return 0, false
}

// MarshalText writes the kind's name, so persisted entries read "challenge" rather
// than a number that would change meaning if the constants were reordered.
func (k Refusal) MarshalText() ([]byte, error) {
	if !k.Valid() {
		return nil, fmt.Errorf("hostbackoff: cannot encode unknown kind %d", int(k))
	}
	return []byte(k.String()), nil
}

// UnmarshalText reads a name written by MarshalText. An unknown name decodes as the
// zero Refusal without an error, so state written by a newer Notifio still loads;
// hostbackoff's Registry.Restore treats the zero kind as the error kind and keeps
// the entry's wait.
func (k *Refusal) UnmarshalText(b []byte) error {
	*k, _ = ParseRefusal(string(b))
	return nil
}
