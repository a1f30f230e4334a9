package cli

import (
	"context"
	"flag"
	"fmt"

	"notifio/poll/filter"

	"notifio/internal/model"
)

// filterUsage is the filter flags as the usage line shows them.
const filterUsage = "[--min-price N] [--max-price N] [--min-rooms N] [--min-size N] [--include WORDS] [--exclude WORDS] [--hide-promoted] [--price-shown] [--price-rises] [--no-price-drops]"

// amountFlag is a filter amount as filter.ParseAmount reads it: "1200",
// "1.200", "1,200", "2,5", "2k", "1200 €"; "" or 0 is no limit.
type amountFlag struct{ v *float64 }

func (a amountFlag) String() string {
	if a.v == nil || *a.v == 0 {
		return ""
	}
	return filter.Num(*a.v)
}

func (a amountFlag) Set(s string) error {
	v, err := filter.ParseAmount(s)
	if err != nil {
		return err
	}
	*a.v = v
	return nil
}

// wordsFlag is a list of words and "quoted phrases".
type wordsFlag struct{ v *[]string }

func (w wordsFlag) String() string {
	if w.v == nil {
		return ""
	}
	return filter.FormatWords(*w.v)
}

func (w wordsFlag) Set(s string) error {
	words, err := filter.ParseWords(s)
	if err != nil {
		return fmt.Errorf("%w; close it, e.g. --include '\"ruhige Lage\" Balkon'", err)
	}
	*w.v = words
	return nil
}

// filterFlags adds the filter flags to fs. After parsing, apply sets on base
// only the filters that were given (so `search edit` keeps the others) and
// checks the result.
func filterFlags(fs *flag.FlagSet) (apply func(base model.Filters) (model.Filters, error)) {
	var f model.Filters
	fs.Var(amountFlag{&f.MinPrice}, "min-price", "hold back listings cheaper than this (in the listing's currency; 0: no limit)")
	fs.Var(amountFlag{&f.MaxPrice}, "max-price", "hold back listings dearer than this (0: no limit)")
	fs.Var(amountFlag{&f.MinRooms}, "min-rooms", "hold back listings with fewer rooms")
	fs.Var(amountFlag{&f.MinSize}, "min-size", "hold back listings smaller than this many m²")
	fs.Var(wordsFlag{&f.Include}, "include", `words that must all appear in the title or location ("quoted phrases"; case and accents do not count)`)
	fs.Var(wordsFlag{&f.Exclude}, "exclude", "words none of which may appear")
	fs.BoolVar(&f.HidePromoted, "hide-promoted", false, "hold back promoted listings (ads)")
	fs.BoolVar(&f.PriceShown, "price-shown", false, "with a price limit: hold back listings that show no price (else they come marked \"price not shown\")")
	fs.BoolVar(&f.PriceRises, "price-rises", false, "also tell me when a price goes up")
	fs.BoolVar(&f.NoPriceDrops, "no-price-drops", false, "do not tell me when a price drops")
	return func(base model.Filters) (model.Filters, error) {
		fs.Visit(func(fl *flag.Flag) {
			switch fl.Name {
			case "min-price":
				base.MinPrice = f.MinPrice
			case "max-price":
				base.MaxPrice = f.MaxPrice
			case "min-rooms":
				base.MinRooms = f.MinRooms
			case "min-size":
				base.MinSize = f.MinSize
			case "include":
				base.Include = f.Include
			case "exclude":
				base.Exclude = f.Exclude
			case "hide-promoted":
				base.HidePromoted = f.HidePromoted
			case "price-shown":
				base.PriceShown = f.PriceShown
			case "price-rises":
				base.PriceRises = f.PriceRises
			case "no-price-drops":
				base.NoPriceDrops = f.NoPriceDrops
			}
		})
		if err := filter.Check(base); err != nil {
			return base, usagef("%v", err)
		}
		return base, nil
	}
}

// cmdSearchEdit is `notifio search edit ID`: change what was given, keep the rest.
func cmdSearchEdit(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "search edit", "notifio search edit ID [--name N] [--every 2m] [--url URL] [--cookie C] "+filterUsage+" [--show-held]")
	name := fs.String("name", "", "a new name")
	every := durationFlag(fs, "every", 0, "how often to check (at least 30s)")
	newURL := fs.String("url", "", "a new search URL (its first check records the listings there, no email)")
	cookie := fs.String("cookie", "", "a fresh Cookie header for this search's site, after logging in again (one cookie per site: all its searches use it)")
	showHeld := fs.Bool("show-held", false, "show in the listings those held back earlier that the filters now let through (no email)")
	apply := filterFlags(fs)
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return flagErr(err)
	}
	if len(pos) != 1 {
		return usagef("give the ID of one search (see \"notifio search list\")")
	}
	svc, err := env.attach()
	if err != nil {
		return err
	}
	defer svc.done()
	cur, err := svc.Search(pos[0])
	if err != nil {
		return noSearch(pos[0], err)
	}
	in := model.SearchInput{Name: cur.Name, URL: cur.URL, Interval: cur.Interval, Selectors: model.PageSelectors(cur.Selectors),
		Browser: cur.Browser, Cookie: *cookie}
	if *name != "" {
		in.Name = *name
	}
	if given(fs, "every") {
		if *every == 0 {
			return usagef("--every %s would check all the time; choose an interval from %s to 7 days, e.g. --every 2m", *every, model.MinInterval)
		}
		in.Interval = *every
	}
	if *newURL != "" {
		in.URL = *newURL
	}
	if in.Filters, err = apply(cur.Filters); err != nil {
		return err
	}
	s, err := svc.UpdateSearch(ctx, cur.ID, in)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "Saved %s: %q, checked every %s. Filters: %s\n", s.ID, printable(s.Name), s.Interval, orNone(filter.Describe(s.Filters)))
	if *cookie != "" {
		fmt.Fprintf(env.Stdout, "The new cookie is kept for %s: all its searches use it from their next check.\n", printable(s.Site))
	}
	return reportHeld(env, svc, s.ID, *showHeld)
}

// reportHeld says how many held-back listings the filters now let through and,
// when asked, shows them in the listings (never by email).
func reportHeld(env *Env, svc backend, id string, show bool) error {
	passing, err := svc.HeldNowPassing(id)
	if err != nil || len(passing) == 0 {
		return err
	}
	if !show {
		fmt.Fprintf(env.Stdout, "%d listing(s) held back earlier pass the new filters. To see them (no email): notifio search edit %s --show-held\n", len(passing), id)
		return nil
	}
	n, err := svc.ShowHeld(id, passing)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "%d listing(s) held back earlier are now in the listings (notifio listings %s).\n", n, id)
	return nil
}

// given reports whether the flag name was set on the command line.
func given(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
