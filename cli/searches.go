package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"text/tabwriter"
	"time"

	"notifio/poll/filter"

	"notifio/internal/model"
	"notifio/poll/words"
)

func cmdSearch(ctx context.Context, env *Env, args []string) error {
	usage := "notifio search add [--name N] [--every 2m] [--item SEL --link SEL --title SEL --price SEL] [--cookie C] [--browser] [filters] URL\n       notifio search edit ID [--name N] [--every 2m] [--url URL] [--cookie C] [filters] [--show-held]\n       notifio search list [--json]\n       notifio search remove|pause|resume|check ID\n  filters: " + filterUsage
	if len(args) == 0 {
		fmt.Fprintln(env.Stderr, "Usage: "+usage)
		return usagef("say what to do: add, edit, list, remove, pause, resume or check")
	}
	switch args[0] {
	case "add":
		return cmdSearchAdd(ctx, env, args[1:])
	case "edit":
		return cmdSearchEdit(ctx, env, args[1:])
	case "list", "ls":
		return cmdSearchList(env, args[1:])
	case "remove", "rm", "pause", "resume", "check":
		return cmdSearchOne(env, args[0], args[1:])
	}
	return usagef("unknown search command %q; use add, edit, list, remove, pause, resume or check", args[0])
}

// cmdSearchOne is `notifio search remove|pause|resume|check ID`.
func cmdSearchOne(env *Env, verb string, args []string) error {
	fs := newFlags(env, "search "+verb, "notifio search "+verb+" ID")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return flagErr(err)
	}
	if len(pos) != 1 {
		return usagef("give the ID of one search (see \"notifio search list\")")
	}
	b, err := env.attach()
	if err != nil {
		return err
	}
	defer b.done()
	id := pos[0]
	if _, err := b.Search(id); err != nil {
		return noSearch(id, err)
	}
	switch verb {
	case "remove", "rm":
		err = b.RemoveSearch(id)
	case "pause":
		err = b.SetPaused(id, true)
	case "resume":
		err = b.SetPaused(id, false)
	default:
		err = b.CheckNow(id)
	}
	if err != nil {
		return err
	}
	switch {
	case verb == "check" && !b.live:
		fmt.Fprintf(env.Stdout, "check: no Notifio is running; %s is checked when \"notifio run\" starts (or now: notifio once)\n", id)
	case verb == "check":
		fmt.Fprintf(env.Stdout, "check: %s is checked now\n", id)
	default:
		fmt.Fprintf(env.Stdout, "%s: done (%s)\n", verb, id)
	}
	return nil
}

// noSearch is the error of an ID that names no search; an error of another
// kind (the watcher not answering) is passed on.
func noSearch(id string, err error) error {
	if errors.Is(err, model.ErrNotFound) {
		return fmt.Errorf("there is no search with ID %q (see \"notifio search list\")", id)
	}
	return err
}

func cmdSearchAdd(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "search add", "notifio search add [--name N] [--every 2m] [selector flags | --example TEXT] [--cookie C] [--browser] "+filterUsage+" URL")
	name := fs.String("name", "", "a name for the search (default: from the URL)")
	every := durationFlag(fs, "every", model.DefaultInterval, "how often to check (at least 30s)")
	sel := selectorFlags(fs)
	example := fs.String("example", "", "the title, price or link of one listing as your browser shows it: Notifio finds the list around it")
	cookie := fs.String("cookie", "", "a Cookie header for this site (for portals that need you logged in); one per site: all its searches use it")
	useBrowser := browserFlag(fs, "read the page with your browser (Chrome, Chromium, Edge or Brave), for portals that show results only with JavaScript; default: as this site's other searches")
	filters := filterFlags(fs)
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return flagErr(err)
	}
	f, err := filters(model.Filters{})
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("give exactly one search URL (quote it if it contains & or ?)")
	}
	if *every == 0 {
		return usagef("--every 0 would check all the time; choose an interval from %s to 7 days, e.g. --every 2m", model.MinInterval)
	}
	svc, err := env.attach()
	if err != nil {
		return err
	}
	defer svc.done()
	in := model.SearchInput{Name: *name, URL: pos[0], Interval: *every, Cookie: *cookie, Selectors: sel(), Filters: f}
	if in.Browser, err = browserChoice(useBrowser, svc, in.URL); err != nil {
		return err
	}
	if *example != "" {
		if in.Selectors, err = selectorsFromExample(ctx, env, svc, in, *example); err != nil {
			return err
		}
	}
	s, err := svc.AddSearch(ctx, in)
	if err != nil {
		return err
	}
	_, warn := svc.SiteRate(s.URL, 0, "")
	if perMin, w := svc.SiteRate(s.URL, s.Interval, s.ID); w != "" {
		_ = perMin
		warn = w
	}
	if env.JSON {
		return env.printJSON(searchJSON(s))
	}
	fmt.Fprintf(env.Stdout, "Added %s: %q on %s, checked every %s. Its first check records the listings already there (no email).\n", s.ID, printable(s.Name), s.Site, s.Interval)
	if warn != "" {
		fmt.Fprintln(env.Stderr, "Warning: "+warn)
	}
	return nil
}

// selectorFlags adds the CSS selector flags and returns a function that reads
// them after parsing.
func selectorFlags(fs *flag.FlagSet) func() model.PageSelectors {
	item := fs.String("item", "", "CSS selector of one listing (overrides automatic extraction)")
	link := fs.String("link", "", "CSS selector of the listing's link, inside the item")
	title := fs.String("title", "", "CSS selector of the listing's title, inside the item")
	price := fs.String("price", "", "CSS selector of the listing's price, inside the item")
	return func() model.PageSelectors {
		return model.PageSelectors{Item: *item, Link: *link, Title: *title, Price: *price}
	}
}

func cmdSearchList(env *Env, args []string) error {
	fs := newFlags(env, "search list", "notifio search list [--json]")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	snap, live, err := env.snapshot()
	if err != nil {
		return err
	}
	if env.JSON {
		out := make([]searchOut, len(snap.Searches))
		for i, s := range snap.Searches {
			out[i] = snapshotSearchJSON(s)
		}
		return env.printJSON(out)
	}
	if len(snap.Searches) == 0 {
		fmt.Fprintln(env.Stdout, "No searches yet. Add one: notifio search add URL")
		return nil
	}
	sites := make(map[string]*model.SiteSnapshot, len(snap.Sites))
	for i := range snap.Sites {
		sites[snap.Sites[i].Site] = &snap.Sites[i]
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tSITE\tEVERY\tSTATUS\tFILTERS\tURL")
	for _, s := range snap.Searches {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", printable(s.ID), printable(s.Name), printable(s.Site), words.DurationWords(s.Interval),
			printable(SearchStatus(s, sites[s.Site], snap.At, live)), printable(orNone(filter.Describe(s.Filters))), printable(s.URL))
	}
	return tw.Flush()
}

// SearchStatus is a search's state in plain words, as `search list` prints
// it: the window's words (words.StatusWords); site is the search's site, or nil.
// A snapshot read while no Notifio runs has no schedule to count down.
func SearchStatus(s model.SearchSnapshot, site *model.SiteSnapshot, now time.Time, live bool) string {
	if !live && s.State == model.StateScheduled {
		return "not running"
	}
	return words.StatusWords(s, site, now)
}
