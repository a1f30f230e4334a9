package ui

import (
	"log/slog"
	"sort"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"notifio/poll"
	"notifio/storage"
)

// listingsView shows the listings of one search, newest first. Tapping one opens
// it in the browser. The listings that were new when the user opened the view stay
// marked as new while they look; opening the view counts as having seen them.
type listingsView struct {
	u *UI

	pick     *widget.Select
	pickIDs  []string
	searchID string

	items []storage.Listing
	isNew map[string]bool // listing IDs marked new in this viewing
	list  *widget.List
	note  *quietLabel
	now   time.Time

	content fyne.CanvasObject
}

func newListingsView(u *UI) *listingsView {
	v := &listingsView{u: u, isNew: map[string]bool{}}
	v.pick = widget.NewSelect(nil, func(string) {
		i := v.pick.SelectedIndex()
		if i >= 0 && i < len(v.pickIDs) && v.pickIDs[i] != v.searchID {
			v.searchID = v.pickIDs[i]
			v.isNew = map[string]bool{}
			v.load()
		}
	})
	v.pick.PlaceHolder = "Choose a search"
	v.list = widget.NewList(func() int { return len(v.items) }, newListingRowObject, v.updateRow)
	v.list.OnSelected = func(id widget.ListItemID) {
		v.list.Unselect(id)
		if id >= 0 && id < len(v.items) {
			v.u.open(v.items[id].URL)
		}
	}
	v.note = quietWrapped("")
	v.content = container.NewBorder(
		container.NewVBox(container.NewBorder(nil, nil, widget.NewLabel("Listings of"), nil, v.pick), v.note),
		nil, nil, nil, v.list)
	return v
}

// listingRowWidget is one listing: a "new" badge and the title, then the details.
type listingRowWidget struct {
	widget.BaseWidget
	badge, title *widget.Label
	detail       *quietLabel
	box          *fyne.Container
}

func newListingRowObject() fyne.CanvasObject {
	r := &listingRowWidget{
		badge:  widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		title:  widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		detail: newQuiet(""),
	}
	r.badge.Importance = widget.HighImportance
	r.title.Truncation = fyne.TextTruncateEllipsis
	r.detail.Truncation = fyne.TextTruncateEllipsis
	r.box = container.New(layout.NewCustomPaddedVBoxLayout(-theme.InnerPadding()),
		container.NewBorder(nil, nil, r.badge, nil, r.title), r.detail)
	r.ExtendBaseWidget(r)
	return r
}

// CreateRenderer lays the row out.
func (r *listingRowWidget) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(r.box)
}

func (v *listingsView) updateRow(id widget.ListItemID, o fyne.CanvasObject) {
	if id < 0 || id >= len(v.items) {
		return
	}
	l, r := v.items[id], o.(*listingRowWidget)
	r.badge.Text = ""
	if v.isNew[l.ID] {
		r.badge.Text = "NEW"
	}
	r.badge.Hidden = r.badge.Text == ""
	r.title.Text = l.Title
	r.detail.Text = listingDetail(priceWithHistory(l), l.Size, l.Rooms, l.Location, l.FirstSeen, v.now)
	if m := matchWords(l); m != "" {
		r.detail.Text += " · " + m
	}
	r.box.Refresh()
}

// apply keeps the search picker in step with the searches.
func (v *listingsView) apply(s poll.Snapshot, now time.Time) {
	v.now = now
	names := make([]string, len(s.Searches))
	v.pickIDs = v.pickIDs[:0]
	sel := -1
	for i, ss := range s.Searches {
		names[i] = ss.Name + " (" + ss.Site + ")"
		v.pickIDs = append(v.pickIDs, ss.ID)
		if ss.ID == v.searchID {
			sel = i
		}
	}
	v.pick.SetOptions(names)
	switch {
	case sel >= 0:
		v.pick.SetSelectedIndex(sel)
	case v.searchID != "":
		v.searchID = ""
		v.items = nil
		v.pick.ClearSelected()
		v.list.Refresh()
	}
	if v.searchID == "" {
		v.setNote(s)
	}
	// New listings arrived for the search the user is looking at: show them now.
	if v.visible() && sel >= 0 && s.Searches[sel].Unseen > 0 {
		v.load()
	}
}

// setNote explains an empty view.
func (v *listingsView) setNote(s poll.Snapshot) {
	switch {
	case len(s.Searches) == 0:
		v.note.SetText("Add a search first; the listings it finds appear here.")
	case v.searchID == "":
		v.note.SetText("Choose a search to see its listings.")
	}
}

// visible reports whether the listings view is the one showing.
func (v *listingsView) visible() bool {
	return v.u.tabs != nil && v.u.tabs.SelectedIndex() == viewListings
}

// choose shows the listings of a search.
func (v *listingsView) choose(searchID string) {
	if searchID != v.searchID {
		v.isNew = map[string]bool{}
	}
	v.searchID = searchID
	for i, id := range v.pickIDs {
		if id == searchID {
			v.pick.SetSelectedIndex(i)
		}
	}
	if v.visible() {
		v.load()
	}
}

// firstChoice is the search the view opens on when none was chosen, or "".
func (v *listingsView) firstChoice() string {
	if id := v.u.searches.selected; id != "" {
		return id
	}
	for _, s := range v.u.snap.Searches {
		if s.Unseen > 0 {
			return s.ID
		}
	}
	if len(v.pickIDs) == 1 {
		return v.pickIDs[0]
	}
	return ""
}

// shown is called when the view becomes visible.
func (v *listingsView) shown() {
	if v.searchID == "" {
		// Start where the user is likely looking: the search selected in the
		// list, else the first one with new listings, else an only search.
		if id := v.firstChoice(); id != "" {
			v.choose(id)
			return
		}
	}
	if v.searchID != "" {
		v.load()
	}
}

// load reads the search's listings, marks the unseen ones as new for this viewing
// and tells the backend the user has seen them.
func (v *listingsView) load() {
	if v.searchID == "" {
		return
	}
	v.now = v.u.now()
	items, err := v.u.b.Listings(v.searchID)
	if err != nil {
		slog.Warn("list listings", "search_id", v.searchID, "err", err)
		v.items = nil
		v.note.SetText("Notifio could not read the listings: " + err.Error())
		v.list.Refresh()
		return
	}
	sort.SliceStable(items, func(i, j int) bool { return items[i].FirstSeen.After(items[j].FirstSeen) })
	v.items = items
	s, _ := v.u.searchSnap(v.searchID)
	for i := 0; i < s.Unseen && i < len(items); i++ {
		v.isNew[items[i].ID] = true
	}
	switch {
	case len(items) == 0 && !s.Baselined:
		v.note.SetText("Nothing yet: the first check records the listings already on the page.")
	case len(items) == 0:
		v.note.SetText("No listings recorded for this search.")
	default:
		v.note.SetText(plural(len(items), "listing", "listings") + ", newest first. Tap one to open it in your browser.")
	}
	v.list.Refresh()
	if s.Unseen > 0 {
		if err := v.u.b.MarkViewed(v.searchID); err != nil {
			slog.Warn("mark listings viewed", "search_id", v.searchID, "err", err)
		}
	}
}
