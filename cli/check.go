package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"notifio/internal/api"
	"notifio/poll"
	"notifio/storage"

	"notifio/internal/model"
)

func cmdCheck(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "check", "notifio check [--json] [--data DIR] [--browser] [--item SEL --link SEL --title SEL --price SEL | --example TEXT] URL\n\nOne dry-run poll of URL: fetch (or, with --browser, render in your browser), classify, extract. Nothing is saved.")
	sel := selectorFlags(fs)
	useBrowser := browserFlag(fs, "read the page with your browser (Chrome, Chromium, Edge or Brave), as a search added with --browser does")
	example := fs.String("example", "", "the title, price or link of one listing as your browser shows it: Notifio finds the list around it")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return flagErr(err)
	}
	if len(pos) != 1 {
		return usagef("give exactly one URL")
	}
	_, withBrowser := useBrowser()
	dr, note, err := env.dryRun(ctx, model.SearchInput{URL: pos[0], Selectors: sel(), Example: *example, Browser: withBrowser})
	if err != nil {
		return err
	}
	if env.JSON {
		ls := dr.Listings
		if ls == nil {
			ls = []model.PageListing{}
		}
		return env.printJSON(map[string]any{
			"url": dr.URL, "site": dr.Site, "outcome": dr.Outcome, "status": dr.Status,
			"retry_after_s": dr.RetryAfter.Seconds(), "signal": dr.Signal, "listings": ls,
			"browser": dr.Browser, "browser_note": dr.BrowserNote,
		})
	}
	fmt.Fprintf(env.Stdout, "URL:     %s\nSite:    %s\nOutcome: %s", printable(dr.URL), printable(dr.Site), dr.Outcome)
	if dr.Status != 0 {
		fmt.Fprintf(env.Stdout, " (status %d)", dr.Status)
	}
	fmt.Fprintln(env.Stdout)
	if dr.Signal != "" {
		fmt.Fprintf(env.Stdout, "Signal:  %s\n", printable(dr.Signal))
	}
	if dr.RetryAfter > 0 {
		fmt.Fprintf(env.Stdout, "Retry-After: %s\n", dr.RetryAfter)
	}
	if dr.Method != "" {
		fmt.Fprintf(env.Stdout, "Method:  %s\n", dr.Method)
	}
	fmt.Fprintln(env.Stdout, printable(dr.Message))
	if note != "" {
		fmt.Fprintln(env.Stderr, note)
	}
	if len(dr.Listings) > 0 {
		fmt.Fprintln(env.Stdout)
		if dr.Derived.Item != "" {
			fmt.Fprintf(env.Stdout, "Selectors for this list (give them to 'notifio search add' or 'search edit'):\n  %s\n", selectorArgs(dr.Derived))
		}
		if err := renderListings(env.Stdout, model.PageResult{Site: dr.Site, Method: dr.Method, Note: dr.Note, Listings: dr.Listings, NoResults: dr.NoResults}); err != nil {
			return err
		}
	}
	printOtherGroups(env, dr.Groups)
	printBrowserTry(env, dr)
	if dr.ExampleProblem != "" {
		return &ExitError{Code: 1, Msg: "notifio: " + dr.ExampleProblem}
	}
	return nil
}

// dryRun is one dry run of in: by the running watcher, else over the
// database (both with the saved cookies and the sites' waits), else — the
// database held by a Notifio that does not answer, or not readable — with
// neither, which note says. Without a database it creates none (check saves
// nothing: no data folder, no database, no backup).
func (env *Env) dryRun(ctx context.Context, in model.SearchInput) (dr model.DryRun, note string, err error) {
	if env.Connect != "" || env.hasDatabase() {
		b, err := env.attach()
		if err == nil {
			defer b.done()
			if in.Browser {
				if err := checkBrowser(b); err != nil {
					return model.DryRun{}, "", err
				}
			}
			dr, err := b.TestSearch(ctx, in)
			return dr, "", err
		}
		if env.Connect != "" || errors.Is(err, api.ErrVersion) {
			return model.DryRun{}, "", err
		}
		if errors.Is(err, storage.ErrAlreadyRunning) {
			note = "Notifio is running and holds the database, so this check used no saved cookie and did not look at the sites' backoff state."
		}
	}
	if in.Browser {
		if err := checkBrowser(findBrowser{}); err != nil {
			return model.DryRun{}, "", err
		}
	}
	dr, err = poll.DryRunOnce(ctx, nil, in, poll.Options{Logger: env.Logger})
	return dr, note, err
}

// hasDatabase reports whether the data folder holds a database already.
func (env *Env) hasDatabase() bool {
	dir, err := env.dataDir()
	if err != nil {
		return false
	}
	_, err = os.Stat(filepath.Join(dir, storage.FileName))
	return err == nil
}
