// Package hostbackoff is Notifio's per-site backoff policy: the refusal kinds, the
// four ladders, Retry-After parsing, the registrable-domain notion of a "site", and
// the per-site Registry with single-probe admission.
//
// The package is pure. It does no I/O and reads no clock: every method that needs
// the time takes a now parameter. The only randomness is the jitter, which comes
// from the random function given to Ladders.DelayFor or in the registry's
// Options; nil means math/rand/v2, the one documented default at the edge.
//
// # Keyed by site
//
// A refusal is a fact about a site, not about one search: five searches on one
// portal share one entry, one refusal counter and one next-retry time. A site is
// the registrable domain (see SiteOf), so www.example.de and m.example.de share it.
//
// # Ladders
//
// Each Kind has a ladder of waits (Ladders, given to the registry in its
// Options; model.DefaultLadders is the policy); consecutive refusals of one kind climb
// it and the last rung is the ceiling. A refusal of a different kind starts that
// kind's ladder at rung 1. Every wait is jittered by ±15% so that sites refused in
// one cycle do not all come back in one instant. A Retry-After header wins when it
// asks for longer than the ladder, never when it asks for less, and nothing is ever
// longer than MaxWait.
//
// # Single-probe recovery
//
// When a site's wait ends, Registry.Admit lets exactly one search through as the
// probe; its siblings wait for its outcome. Success clears the site (spacing the
// released searches out is the scheduler's job); Record climbs the ladder. A probe
// that reports nothing for ProbeTimeout expires, and the next caller may probe.
//
// # Offline is not a refusal
//
// The policy cannot tell "the site refused us" from "this machine is offline"; the
// caller can. When a failure means nothing at all is reachable (no network, every
// DNS lookup failing), callers simply do not call Record, and no ladder climbs.
//
// # Concurrency
//
// The package-level functions are safe for concurrent use. A Registry is safe for
// simultaneous use by multiple goroutines: every method takes its mutex, and the
// registry's random function is only ever called with that mutex held. The
// ladders given to a Registry are read-only; changing them while it is in use is
// a data race.
package hostbackoff
