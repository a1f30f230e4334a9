package hostbackoff

import "fmt"

// Kind is the kind of refusal a site answered with. Each kind has its own ladder.
type Kind int

// The refusal kinds, in the order the classifier weighs them.
const (
	Challenge Kind = iota + 1
	RateLimited
	Denied
	Error
)

// Kinds returns the four refusal kinds in their canonical order.
func Kinds() []Kind { return []Kind{Challenge, RateLimited, Denied, Error} }

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

// Valid reports whether k is one of the four refusal kinds.
func (k Kind) Valid() bool { return k >= Challenge && k <= Error }

// ParseKind reads back a name written by String. Only the four names are accepted.
func ParseKind(s string) (Kind, bool) {
	for _, k := range Kinds() {
		if k.String() == s {
			return k, true
		}
	}
	return 0, false
}

// MarshalText writes the kind's name, so persisted entries read "challenge" rather
// than a number that would change meaning if the constants were reordered.
func (k Kind) MarshalText() ([]byte, error) {
	if !k.Valid() {
		return nil, fmt.Errorf("hostbackoff: cannot encode unknown kind %d", int(k))
	}
	return []byte(k.String()), nil
}

// UnmarshalText reads a name written by MarshalText. An unknown name decodes as the
// zero Kind without an error, so state written by a newer Notifio still loads;
// Registry.Restore treats the zero Kind as Error and keeps the entry's wait.
func (k *Kind) UnmarshalText(b []byte) error {
	*k, _ = ParseKind(string(b))
	return nil
}
