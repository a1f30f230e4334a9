package ui

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"notifio/internal/model"
)

// showOne is "Not these?" under a tested search's listings: the page's other
// lists to pick from, and a field for one listing as the user's browser shows
// it, from which Notifio finds the rest. What either picks is written into the
// Advanced selectors (visible, editable, saved with the search) and tested.
type showOne struct {
	e       *searchEditor
	box     *fyne.Container
	entry   *widget.Entry
	find    *widget.Button
	lists   *fyne.Container
	derived *widget.Label
	problem *widget.Label // why the example gave no list
}

func newShowOne(e *searchEditor) *showOne {
	o := &showOne{e: e}
	o.entry = widget.NewEntry()
	o.entry.SetPlaceHolder("the title (or price, or link) of one listing, as your browser shows it")
	o.entry.OnSubmitted = func(string) { o.findOne() }
	o.find = widget.NewButtonWithIcon("Find the others", theme.SearchIcon(), o.findOne)
	o.lists = container.NewVBox()
	o.derived = wrapped("")
	o.derived.Importance = widget.SuccessImportance
	o.derived.Hide()
	o.problem = wrapped("")
	o.problem.Importance = widget.WarningImportance
	o.problem.Hide()
	intro := wrapped("Not the listings you want? Show Notifio one listing of the right list, or pick one of the page's other lists:")
	o.box = container.NewVBox(o.derived, intro, container.NewBorder(nil, nil, nil, o.find, o.entry), o.problem, o.lists)
	o.box.Hide()
	return o
}

// reset empties it for a new dialog.
func (o *showOne) reset() {
	o.entry.SetText("")
	o.lists.RemoveAll()
	o.derived.Hide()
	o.problem.Hide()
	o.box.Hide()
}

// update shows what a test found: selectors derived from the user's example
// go into Advanced; the page's other lists become buttons.
func (o *showOne) update(res model.DryRun) {
	o.lists.RemoveAll()
	o.derived.Hide()
	showText(o.problem, res.ExampleProblem)
	if res.Outcome != model.OutcomeOK {
		o.box.Hide()
		return
	}
	if res.Derived.Item != "" {
		o.setSelectors(res.Derived)
		showText(o.derived, fmt.Sprintf("Found the list around your listing: %d listings. Notifio reads it with the selectors now under Advanced; Save keeps them.", len(res.Listings)))
	}
	for _, g := range res.Groups {
		if g.Count < 2 || g.Chosen && res.Method != model.MethodSelectors || shown(g, res.Listings) {
			continue
		}
		g := g
		b := widget.NewButton(fmt.Sprintf("Use this list: %d items like “%s”", g.Count, g.Example), func() { o.use(g.Selectors) })
		b.Alignment = widget.ButtonAlignLeading
		o.lists.Add(b)
	}
	o.box.Show()
}

// findOne tests the search again with the user's example listing.
func (o *showOne) findOne() {
	if t := strings.TrimSpace(o.entry.Text); t != "" {
		o.e.runTest(t)
	}
}

// use reads the page with another of its lists.
func (o *showOne) use(sel model.PageSelectors) {
	o.setSelectors(sel)
	o.e.runTest("")
}

func (o *showOne) setSelectors(sel model.PageSelectors) {
	o.e.item.SetText(sel.Item)
	o.e.link.SetText(sel.Link)
	o.e.title.SetText(sel.Title)
	o.e.price.SetText(sel.Price)
}

// shown reports a group whose first listing is the first one shown: the list
// being read already.
func shown(g model.Group, ls []model.PageListing) bool {
	if len(ls) == 0 {
		return false
	}
	first, _, _ := strings.Cut(g.Example, " · ")
	return strings.TrimSuffix(first, "…") != "" && strings.HasPrefix(ls[0].Title, strings.TrimSuffix(first, "…"))
}
