package cli

import (
	"context"
	"fmt"
	"text/tabwriter"

	"notifio/internal/model"
	"notifio/poll/words"
)

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
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", l.FirstSeen.Local().Format("2006-01-02 15:04"), trunc(printable(l.Title), 60), printable(words.PriceWords(l)), printable(l.Location), printable(l.URL))
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
