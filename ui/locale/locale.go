// Package locale makes the "C" locale of cron jobs and minimal systems read as
// English before Fyne looks at it. Fyne parses the locale while its packages
// initialise and logs an error for "C" or "POSIX" on every start, which a user
// of `notifio once` in cron would see in every mail from cron.
//
// It imports only syscall, so Go initialises it before package os and before
// any Fyne package (packages are initialised in import-path order among those
// whose imports are ready). main imports it first, for its side effect.
package locale

import "syscall"

func init() {
	fix()
}

// fix replaces a "C"/"POSIX" locale (or none) with en_US.UTF-8 for messages.
func fix() {
	set := false
	for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		v, ok := syscall.Getenv(k)
		if !ok || v == "" {
			continue
		}
		if v == "C" || v == "POSIX" || (len(v) > 2 && v[:2] == "C.") {
			_ = syscall.Unsetenv(k)
			continue
		}
		set = true
	}
	if !set {
		_ = syscall.Setenv("LANG", "en_US.UTF-8")
	}
}
