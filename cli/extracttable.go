package cli

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"notifio/internal/model"
)

// renderListings writes what extraction read, r, as a readable table (title, price, size/rooms, location, url)
// under a one-line summary; with no listings it says why, as far as it can tell.
func renderListings(w io.Writer, r model.PageResult) error {
	var b strings.Builder
	n := len(r.Listings)
	fmt.Fprintf(&b, "%s: %d listing%s (method %s)\n", printable(r.Site), n, plural(n), r.Method)
	if r.Note != "" {
		b.WriteString(printable(r.Note) + "\n")
	}
	if n == 0 {
		switch {
		case r.Blocked != "":
			fmt.Fprintf(&b, "The page looks like a bot check, not results (%s). Open the search in a browser, or paste the site's cookie.\n", printable(r.Blocked))
		case r.NoResults:
			b.WriteString("The page says there are no results for this search.\n")
		case strings.HasPrefix(r.Method, "profile:") && !r.Container:
			fmt.Fprintf(&b, "The %s results list was not found: this may not be a results page (login, consent or error page), or the site changed its markup. Try --item/--link/--title/--price selectors.\n", r.Site)
		case r.Method == model.MethodSelectors && !r.Container:
			b.WriteString("The item selector matched nothing on this page.\n")
		case r.Method == model.MethodSelectors:
			b.WriteString("The item selector matched, but no item had a link to this site (check --link, and that --url is the page's real address).\n")
		default:
			b.WriteString("No listings recognised. If the page shows results, set --item (and --link/--title/--price) selectors.\n")
		}
		_, err := io.WriteString(w, b.String())
		return err
	}
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "TITLE\tPRICE\tSIZE/ROOMS\tLOCATION\tURL")
	for _, l := range r.Listings {
		title := l.Title
		if l.Promoted {
			title = "★ " + title
		}
		sr := l.Size
		if l.Rooms != "" {
			if sr != "" {
				sr += " · "
			}
			sr += l.Rooms
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", cell(title, 50), cell(l.Price, 18), cell(sr, 20), cell(l.Location, 32), printable(l.URL))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if promoted := countPromoted(r.Listings); promoted > 0 {
		fmt.Fprintf(&b, "★ = promoted by the site (%d)\n", promoted)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func cell(s string, n int) string {
	if s == "" {
		return "-"
	}
	return printable(trunc(s, n)) // the one sanitiser of every table
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func countPromoted(ls []model.PageListing) int {
	n := 0
	for _, l := range ls {
		if l.Promoted {
			n++
		}
	}
	return n
}
