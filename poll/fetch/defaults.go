package fetch

import "cmp"

// Default gives an unset option its default: *opt becomes def when it is ""
// (text) or zero or less (sizes, counts, durations). The plain fetcher's
// Options and the browser's (poll/browser) take their defaults through it, so
// "unset" means the same in both.
func Default[T cmp.Ordered](opt *T, def T) {
	var unset T
	if *opt <= unset {
		*opt = def
	}
}
