package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"notifio/internal/api"
	"notifio/notify"
	"notifio/poll"
	"notifio/poll/extract"
	"notifio/poll/fetch"
	"notifio/poll/filter"
	"notifio/storage"

	"notifio/internal/model"
	"notifio/poll/words"
)

// newWatcher builds the watcher of a data directory with its relays, as run
// and once use it.
func (env *Env) newWatcher(db *storage.DB, dir string) (*Watcher, error) {
	w, err := NewWatcher(db, env.serviceOptions(dir))
	if err != nil {
		return nil, err
	}
	env.applyMemoryLimit(len(w.Service.Snapshot().Searches))
	return w, nil
}

func cmdRun(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "run", "notifio run [--data DIR]\n\nWatches every search until SIGINT or SIGTERM. Logs go to standard error.")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	db, dir, err := env.openDB()
	if err != nil {
		return err
	}
	defer db.Close()
	if addr := os.Getenv("NOTIFIO_DEBUG_ADDR"); addr != "" { // pprof + expvar for docs/PERFORMANCE.md
		if err := startDebug(addr, db); err != nil {
			return err
		}
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	w, err := env.newWatcher(db, dir)
	if err != nil {
		return err
	}
	svc, relay, pushRelay := w.Service, w.Relay, w.Push
	defer svc.Close()
	stopAPI, err := ServeAPI(ctx, dir, env.Version, w, stop, env.Logger)
	if err != nil {
		return err
	}
	defer stopAPI()
	if env.OnWatching != nil {
		env.OnWatching(w, stop)
	}
	snap := svc.Snapshot()
	env.Logger.Info("notifio is watching", "data", dir, "searches", len(snap.Searches), "version", env.Version)
	if n := snap.Outbox.NeedsAttention; n > 0 {
		env.Logger.Warn("emails need attention and are not sent", "count", n, "err", snap.Outbox.LastError,
			"hint", snap.Outbox.Hint, "what_to_do", emailAttentionHint)
	}
	relayDone := make(chan struct{}, 2)
	go func() {
		defer func() { relayDone <- struct{}{} }()
		relay.Run(ctx)
	}()
	go func() {
		defer func() { relayDone <- struct{}{} }()
		pushRelay.Run(ctx)
	}()
	err = svc.Run(ctx)
	<-relayDone
	<-relayDone
	env.Logger.Info("notifio stopped cleanly")
	return err
}

// emailAttentionHint says how to get emails that need attention sent.
const emailAttentionHint = "Fix the email settings (notifio email set), check them with \"notifio email test\" " +
	"(a successful test queues these emails again), or queue them again by hand: notifio email retry"

func cmdOnce(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "once", "notifio once [--data DIR] [--json]\n\nChecks every search once (sites that are backing off are skipped), sends the emails, and exits:\n0 when all went out, 1 when an email needs attention or could not be sent yet.")
	wait := durationFlag(fs, "wait", 2*time.Minute, "how long to keep retrying emails that failed temporarily")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	db, dir, err := env.openDB()
	if err != nil {
		return err
	}
	defer db.Close()
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	w, err := env.newWatcher(db, dir)
	if err != nil {
		return err
	}
	svc, relay, pushRelay := w.Service, w.Relay, w.Push
	defer svc.Close()
	results := svc.Once(ctx)
	drainCtx, cancel := context.WithTimeout(ctx, *wait)
	defer cancel()
	pushErr := drainPush(drainCtx, db, pushRelay)
	sendErr := drain(drainCtx, db, relay)
	if sendErr == nil || errors.Is(sendErr, model.ErrNotConfigured) {
		sendErr = errors.Join(sendErr, pushErr)
	}
	snap := svc.Snapshot()
	if env.JSON {
		_ = env.printJSON(map[string]any{"searches": onceJSON(results), "outbox": outboxJSON(snap.Outbox)})
	} else {
		tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "SEARCH\tSITE\tOUTCOME\tNEW\tNOTE")
		for _, r := range results {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\n", printable(r.Name), printable(r.Site), r.Outcome, r.New, printable(r.Reason))
		}
		tw.Flush()
	}
	for _, r := range results {
		if r.SaveErr != nil {
			return &ExitError{Code: 1, Msg: fmt.Sprintf("notifio: %s: %s (data: %s)", r.Name, r.Reason, dir)}
		}
	}
	if n := snap.Outbox.Held; n > 0 && !env.JSON {
		// Held on purpose, not a failure: exit 0 if nothing else is wrong.
		fmt.Fprintf(env.Stdout, "%d push(es) wait for quiet hours to end; the first run after they end sends them.\n", n)
	}
	switch {
	case snap.Outbox.NeedsAttention > 0:
		msg := fmt.Sprintf("notifio: %d alert(s) need attention: %s", snap.Outbox.NeedsAttention, snap.Outbox.LastError)
		if snap.Outbox.Hint != "" {
			msg += " — " + snap.Outbox.Hint
		}
		msg += "\n" + emailAttentionHint
		return &ExitError{Code: 1, Msg: msg}
	case snap.Outbox.Pending > 0:
		msg := fmt.Sprintf("notifio: %d alert(s) could not be sent yet; they stay queued for the next run", snap.Outbox.Pending)
		if sendErr != nil {
			msg += ": " + userMessage(sendErr)
		}
		return &ExitError{Code: 1, Msg: msg}
	}
	return nil
}

// drainPush sends the pushes due now and retries temporary failures until
// nothing is due within ctx's time; pushes held for quiet hours stay queued.
func drainPush(ctx context.Context, db *storage.DB, relay *notify.PushRelay) error {
	for {
		if _, err := relay.SendDue(ctx); err != nil {
			return err
		}
		next, ok := db.NextChannelDue()
		deadline, has := ctx.Deadline()
		if !ok || (has && next.After(deadline)) {
			return nil
		}
		t := time.NewTimer(max(time.Until(next), 0))
		select {
		case <-ctx.Done():
			t.Stop()
			return nil
		case <-t.C:
		}
	}
}

// drain sends the outbox until nothing is pending or ctx ends.
func drain(ctx context.Context, db *storage.DB, relay *notify.Relay) error {
	var last error
	for {
		_, err := relay.SendDue(ctx)
		if err != nil {
			if errors.Is(err, model.ErrNotConfigured) {
				return err
			}
			last = err
		}
		next, ok := db.NextOutboxDue()
		if !ok {
			return last
		}
		d := time.Until(next)
		if d < 0 {
			d = 0
		}
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			return last
		case <-t.C:
		}
	}
}

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

// snapshot returns the watcher's state: live from the running watcher, else
// read from the database. live says whether a watcher runs (its countdowns
// count).
func (env *Env) snapshot() (model.Snapshot, bool, error) {
	b, err := env.attach()
	if err != nil {
		return model.Snapshot{}, false, err
	}
	defer b.done()
	if c, ok := b.backend.(*api.Client); ok { // a watcher that stops answering is an error, not an empty list
		snap, err := c.SnapshotErr(context.Background())
		return snap, b.live, err
	}
	return b.Snapshot(), b.live, nil
}

func cmdSites(_ context.Context, env *Env, args []string) error {
	fs := newFlags(env, "sites", "notifio sites [--json]\n\nShows each site's backoff state: why it is waiting, the status and signal that decided it, and when the next probe goes.")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	snap, _, err := env.snapshot()
	if err != nil {
		return err
	}
	if env.JSON {
		type site struct {
			Site         string    `json:"site"`
			Waiting      bool      `json:"waiting"`
			Kind         string    `json:"kind,omitempty"`
			Rung         int       `json:"rung,omitempty"`
			NextProbe    time.Time `json:"next_probe,omitzero"`
			RetryAfterS  float64   `json:"retry_after_s,omitempty"`
			LastStatus   int       `json:"last_status,omitempty"`
			LastSignal   string    `json:"last_signal,omitempty"`
			Searches     int       `json:"searches"`
			SuccessRate  float64   `json:"success_rate"`
			AvgResponseS float64   `json:"avg_response_s"`
			Attention    string    `json:"attention,omitempty"`
		}
		out := []site{}
		for _, s := range snap.Sites {
			out = append(out, site{s.Site, s.Waiting, s.Kind, s.Rung, s.NextProbe, s.RetryAfter.Seconds(),
				s.LastStatus, s.LastSignal, s.Searches, s.SuccessRate, s.AvgResponse.Seconds(), s.Attention})
		}
		return env.printJSON(out)
	}
	if len(snap.Sites) == 0 {
		fmt.Fprintln(env.Stdout, "No sites yet.")
		return nil
	}
	for _, s := range snap.Sites {
		fmt.Fprintln(env.Stdout, printable(SiteLine(s, snap.At)))
	}
	return nil
}

// SiteLine describes one site's state in the window's words (words.SiteWords,
// words.NextProbeWords), then the evidence a headless user wants to see.
func SiteLine(s model.SiteSnapshot, now time.Time) string {
	state := words.SiteWords(s, now)
	if s.Attention != "" {
		state = "needs you: " + s.Attention
	}
	parts := []string{s.Site + ": " + state + "."}
	if w := words.NextProbeWords(s, now); w != "" {
		parts = append(parts, w)
	}
	if s.LastStatus != 0 || s.LastSignal != "" {
		last := fmt.Sprintf("Last answer: status %d", s.LastStatus)
		if s.LastSignal != "" {
			last += ", signal: " + s.LastSignal
		}
		parts = append(parts, last+".")
	}
	if w := words.RetryAfterWords(s); w != "" {
		parts = append(parts, w)
	}
	parts = append(parts, words.Plural(s.Searches, "search", "searches")+".")
	return strings.Join(parts, " ")
}

func cmdListings(_ context.Context, env *Env, args []string) error {
	fs := newFlags(env, "listings", "notifio listings [SEARCH_ID] [--json]\n\nShows the listings seen, newest first (all searches, or one).")
	limit := fs.Int("n", 50, "show at most this many per search (0 = all)")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return flagErr(err)
	}
	if *limit < 0 {
		return usagef("-n %d: give how many listings to show per search, or 0 for all", *limit)
	}
	if len(pos) > 1 {
		return usagef("give the ID of one search, or none for all (see \"notifio search list\")")
	}
	b, err := env.attach()
	if err != nil {
		return err
	}
	defer b.done()
	type entry struct {
		Search   string          `json:"search_id"`
		Name     string          `json:"name"`
		Listings []model.Listing `json:"listings"`
	}
	var searches []entry
	if len(pos) > 0 {
		s, err := b.Search(pos[0])
		if err != nil {
			return noSearch(pos[0], err)
		}
		searches = []entry{{Search: s.ID, Name: s.Name}}
	} else {
		for _, s := range b.Snapshot().Searches {
			searches = append(searches, entry{Search: s.ID, Name: s.Name})
		}
	}
	var all []entry
	for _, e := range searches {
		ls, err := b.Listings(e.Search)
		if err != nil {
			return err
		}
		if *limit > 0 && len(ls) > *limit {
			ls = ls[:*limit]
		}
		e.Listings = ls
		all = append(all, e)
	}
	if env.JSON {
		if all == nil {
			all = []entry{}
		}
		return env.printJSON(all)
	}
	for _, e := range all {
		fmt.Fprintf(env.Stdout, "== %s (%s): %d listing(s)\n", printable(e.Name), e.Search, len(e.Listings))
		tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
		for _, l := range e.Listings {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", l.FirstSeen.Local().Format("2006-01-02 15:04"), trunc(printable(l.Title), 60), printable(words.PriceTrail(l, 4)), printable(l.Location), printable(l.URL))
		}
		tw.Flush()
	}
	return nil
}

func trunc(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

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

func cmdExtract(_ context.Context, env *Env, args []string) error {
	fs := newFlags(env, "extract", "notifio extract [--json] --url PAGE_URL [--item SEL --link SEL --title SEL --price SEL | --example TEXT] FILE\n\nRuns extraction on a saved page as if it was fetched from PAGE_URL. With --example, the title, price or link of one\nlisting as the page shows it: Notifio finds the list around it and prints the selectors that read it.")
	pageURL := fs.String("url", "", "the address the page was saved from (needed to resolve links)")
	example := fs.String("example", "", "the title, price or link of one listing, as the page shows it")
	sel := selectorFlags(fs)
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return flagErr(err)
	}
	if len(pos) != 1 {
		return usagef("give exactly one saved page (an .html file)")
	}
	if *pageURL == "" {
		return usagef("--url is needed: the address the page came from, e.g. --url 'https://www.kleinanzeigen.de/s-wohnung-mieten/c203'")
	}
	u, err := words.ParseSearchURL(*pageURL)
	if err != nil {
		return err
	}
	body, err := readPageFile(pos[0], fetch.DefaultMaxBody)
	if err != nil {
		return err
	}
	body, _, _ = fetch.DecodePage(body, "") // as if fetched: one decoder for a page
	if *example != "" {
		return extractByExample(env, body, u, *example)
	}
	res, err := extract.Extract(body, u, sel())
	if err != nil {
		return err
	}
	if env.JSON {
		return env.printJSON(extract.JSON(res))
	}
	defer printOtherGroups(env, extract.Groups(extract.Parse(body), u, 6))
	if len(res.Listings) == 0 {
		if res.NoResults {
			fmt.Fprintln(env.Stdout, "The page says it has no results.")
			return nil
		}
		return &ExitError{Code: 1, Msg: "notifio: no listings found on this page. If it is a results page, try --item with a CSS selector that matches one listing (and --link, --title, --price inside it)."}
	}
	return renderListings(env.Stdout, res)
}

// readPageFile reads a saved page of at most max bytes, the fetcher's cap: a
// bigger file is refused in words, without reading it all.
func readPageFile(name string, max int64) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("the file %s does not exist", name)
		}
		return nil, fmt.Errorf("could not read %s: %w", name, err)
	}
	defer f.Close()
	body, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, fmt.Errorf("could not read %s: %w", name, err)
	}
	if int64(len(body)) > max {
		size := "more than " + megabytes(max)
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			size = megabytes(st.Size())
		}
		return nil, fmt.Errorf("%s is %s, but Notifio reads at most %s of a page (as when it fetches one). "+
			"Save the results page alone (in the browser: Save Page As → \"Web Page, HTML only\") and try that file", name, size, megabytes(max))
	}
	return body, nil
}

// megabytes writes a byte count as "5.2 MB".
func megabytes(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/1e6) }
