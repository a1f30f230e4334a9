package cli

import (
	"flag"
	"fmt"

	"notifio/poll"
	"notifio/poll/browser"

	"notifio/internal/model"
)

// browserFlag adds --browser and returns a function that says, after parsing,
// whether it was given and its value.
func browserFlag(fs *flag.FlagSet, what string) func() (set, on bool) {
	on := fs.Bool("browser", false, what)
	return func() (bool, bool) {
		set := false
		fs.Visit(func(f *flag.Flag) { set = set || f.Name == "browser" })
		return set, *on
	}
}

// browserChoice is whether a new search reads with a browser: --browser when
// given (refused in words when no browser is installed), else as the site's
// other searches do.
func browserChoice(flagged func() (bool, bool), svc backend, rawURL string) (bool, error) {
	set, on := flagged()
	if !set {
		return svc.BrowserDefault(rawURL), nil
	}
	if on {
		if err := checkBrowser(svc); err != nil {
			return false, err
		}
	}
	return on, nil
}

// findBrowser looks for an installed browser without a watcher.
type findBrowser struct{}

func (findBrowser) BrowserAvailable() error {
	_, err := browser.Find()
	return poll.BrowserError(err, "")
}

// checkBrowser refuses --browser in words when no browser is installed.
func checkBrowser(svc interface{ BrowserAvailable() error }) error {
	if err := svc.BrowserAvailable(); err != nil {
		return &ExitError{Code: 1, Msg: "notifio: --browser needs a browser: " + userMessage(err)}
	}
	return nil
}

// printBrowserTry says what reading with a browser changed, when `check`
// tried it on a page built by scripts.
func printBrowserTry(env *Env, dr model.DryRun) {
	if dr.BrowserNote == "" {
		return
	}
	fmt.Fprintln(env.Stdout)
	fmt.Fprintln(env.Stdout, printable(dr.BrowserNote))
	if dr.BrowserTry != nil && len(dr.BrowserTry.Listings) > 0 {
		fmt.Fprintf(env.Stdout, "Watch it with: notifio search add --browser %s\n", quoteArg(dr.URL))
	}
}

// quoteArg quotes a URL for a shell when it holds characters a shell reads.
func quoteArg(s string) string {
	for _, r := range s {
		switch r {
		case '&', '?', ' ', '*', ';', '|', '(', ')', '<', '>', '$', '#', '\'', '"':
			return "'" + s + "'"
		}
	}
	return s
}
