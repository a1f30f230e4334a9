package cli

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"notifio/poll"
	"notifio/poll/extract"

	"notifio/internal/model"
)

// extractByExample prints the selectors that read the list around the user's
// example listing, and what they find.
func extractByExample(env *Env, body []byte, u *url.URL, example string) error {
	if err := poll.CheckExample(example); err != nil {
		return err
	}
	sel, res, err := extract.Example(extract.Parse(body), u, example)
	if err != nil {
		return err
	}
	if env.JSON {
		return env.printJSON(struct {
			Selectors selectorsJSON `json:"selectors"`
			extract.JSONOutput
		}{selectorsJSON{sel.Item, sel.Link, sel.Title, sel.Price}, extract.JSON(res).(extract.JSONOutput)})
	}
	if sel.Item == "" {
		fmt.Fprintln(env.Stdout, "No selectors needed: Notifio reads this page's listings automatically.")
	} else {
		fmt.Fprintf(env.Stdout, "Selectors for this list (give them to 'notifio search add' or 'search edit'):\n  %s\n\n", selectorArgs(sel))
	}
	return renderListings(env.Stdout, res)
}

type selectorsJSON struct {
	Item  string `json:"item"`
	Link  string `json:"link,omitempty"`
	Title string `json:"title,omitempty"`
	Price string `json:"price,omitempty"`
}

// selectorArgs writes selectors as command-line flags, quoted for a shell.
func selectorArgs(sel model.PageSelectors) string {
	var parts []string
	for _, f := range []struct{ flag, v string }{{"--item", sel.Item}, {"--link", sel.Link}, {"--title", sel.Title}, {"--price", sel.Price}} {
		if f.v != "" {
			parts = append(parts, f.flag+" '"+strings.ReplaceAll(f.v, "'", `'\''`)+"'")
		}
	}
	return strings.Join(parts, " ")
}

// printOtherGroups lists the page's other repeated groups, for the user to
// pick one when automatic extraction read the wrong list.
func printOtherGroups(env *Env, groups []model.Group) {
	var others []model.Group
	for _, g := range groups {
		if !g.Chosen && g.Count >= 2 {
			others = append(others, g)
		}
	}
	if len(others) == 0 {
		return
	}
	fmt.Fprintln(env.Stdout, "\nOther lists on this page (not these listings? read one of them instead):")
	for _, g := range others[:min(len(others), 5)] {
		fmt.Fprintf(env.Stdout, "  %d items like %q\n      %s\n", g.Count, printable(g.Example), selectorArgs(g.Selectors))
	}
}

// selectorsFromExample fetches the search's page once and derives the
// selectors that read the list around the user's example listing.
func selectorsFromExample(ctx context.Context, env *Env, svc backend, in model.SearchInput, example string) (model.PageSelectors, error) {
	in.Example = example
	dr, err := svc.TestSearch(ctx, in)
	if err != nil {
		return model.PageSelectors{}, err
	}
	if dr.Outcome != "ok" {
		return model.PageSelectors{}, fmt.Errorf("the page could not be read to find the example: %s", dr.Message)
	}
	if dr.ExampleProblem != "" {
		return model.PageSelectors{}, errors.New(dr.ExampleProblem)
	}
	if dr.Derived.Item == "" {
		fmt.Fprintln(env.Stdout, "Notifio reads this page's listings automatically; no selectors needed.")
	} else {
		fmt.Fprintf(env.Stdout, "Found the list around your example (%d listings); saving its selectors: %s\n", len(dr.Listings), selectorArgs(dr.Derived))
	}
	return dr.Derived, nil
}
