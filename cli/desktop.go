package cli

import (
	"context"
	"fmt"
	"strings"

	"notifio/poll/words"
)

const desktopUsage = "notifio desktop [on|off] [--json]\n\nShows, or turns on or off, the desktop notifications the watcher shows (as Settings' tick in the window does)."

// cmdDesktop shows or sets the watcher's desktop notification setting, on
// the running watcher when one answers (it applies at once) or in the data
// folder otherwise.
func cmdDesktop(_ context.Context, env *Env, args []string) error {
	fs := newFlags(env, "desktop", desktopUsage)
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		return flagErr(err)
	}
	var want *bool
	switch {
	case len(rest) == 0:
	case len(rest) == 1 && (strings.EqualFold(rest[0], "on") || strings.EqualFold(rest[0], "off")):
		on := strings.EqualFold(rest[0], "on")
		want = &on
	default:
		return usagef("%q: say on or off, or nothing to see the setting (notifio desktop --help)", clipArg(strings.Join(rest, " ")))
	}
	b, err := env.attach()
	if err != nil {
		return err
	}
	defer b.done()
	if want != nil {
		if err := b.SetDesktopNotifications(*want); err != nil {
			return err
		}
	}
	on, err := b.DesktopNotifications()
	if err != nil {
		return err
	}
	if env.JSON {
		return env.printJSON(struct {
			On bool `json:"on"`
		}{on})
	}
	fmt.Fprintln(env.Stdout, words.DesktopWords(on))
	return nil
}
