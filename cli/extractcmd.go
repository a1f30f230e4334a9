package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"notifio/poll/extract"
	"notifio/poll/fetch"

	"notifio/poll/words"
)

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
