package ui

import (
	"log/slog"
	"sort"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"notifio/internal/model"

	"notifio/poll/words"
)

// allSearches is the picker's choice of every search's listings in one view.
const allSearches = "\x00all"

// listingsView shows the listings of one search, or of all searches, newest
// first. Tapping one opens it in the browser. The listings that were new when the
// user opened the view stay marked as new while they look; opening the view
// counts as having seen them.
type listingsView struct {
	u *UI

	pick     *widget.Select
	pickIDs  []string
	searchID string // a search's ID, allSearches, or "" for none chosen

	items []model.Listing
	from  []string        // in the all-searches view: the search of each item
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
	photo        *canvas.Image // the listing's thumbnail (thumbs.go), on a quiet frame when it has none
	box          *fyne.Container
}

// photoSize is the thumbnail's size in a row.
var photoSize = fyne.NewSize(64, 48)

func newListingRowObject() fyne.CanvasObject {
	r := &listingRowWidget{
		badge:  widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		title:  widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		detail: newQuiet(""),
	}
	r.badge.Importance = widget.HighImportance
	r.title.Truncation = fyne.TextTruncateEllipsis
	r.detail.Truncation = fyne.TextTruncateEllipsis
	r.photo = canvas.NewImageFromResource(nil)
	r.photo.FillMode = canvas.ImageFillContain
	r.photo.SetMinSize(photoSize)
	frame := canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))
	frame.CornerRadius = 4
	frame.SetMinSize(photoSize)
	text := container.New(layout.NewCustomPaddedVBoxLayout(-theme.InnerPadding()),
		container.NewBorder(nil, nil, r.badge, nil, r.title), r.detail)
	r.box = container.NewBorder(nil, nil, container.NewCenter(container.NewStack(frame, r.photo)), nil, text)
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
	r.badge.Text, r.badge.Importance = "", widget.HighImportance
	switch {
	case words.PriceDropped(l):
		r.badge.Text, r.badge.Importance = "PRICE DROPPED", widget.SuccessImportance
	case v.isNew[l.ID]:
		r.badge.Text = "NEW"
	}
	r.badge.Hidden = r.badge.Text == ""
	r.title.Text = l.Title
	r.photo.Resource = v.u.photos().get(l.Image, func() { v.photoReady(id, l.ID) })
	r.photo.Image = nil
	r.photo.Refresh()
	r.detail.Text = words.ListingDetail(words.PriceWords(l), l.Size, l.Rooms, l.Location, l.FirstSeen, v.now)
	if m := words.MatchWords(l); m != "" {
		r.detail.Text += " · " + m
	}
	if id < len(v.from) {
		r.detail.Text = v.from[id] + " · " + r.detail.Text
	}
	r.box.Refresh()
}

// photoReady draws row id again when its photo came (if the row still shows
// the same listing).
func (v *listingsView) photoReady(id widget.ListItemID, listingID string) {
	if id < len(v.items) && v.items[id].ID == listingID {
		v.list.RefreshItem(id)
	}
}

// apply keeps the search picker in step with the searches: all of them first,
// then each, with how many new listings they have.
func (v *listingsView) apply(s model.Snapshot, now time.Time) {
	v.now = now
	names := make([]string, 0, len(s.Searches)+1)
	v.pickIDs = v.pickIDs[:0]
	sel, unseen := -1, 0
	if len(s.Searches) > 1 {
		for _, ss := range s.Searches {
			unseen += ss.Unseen
		}
		names = append(names, pickName("All searches", "", unseen))
		v.pickIDs = append(v.pickIDs, allSearches)
		if v.searchID == allSearches {
			sel = 0
		}
	}
	for _, ss := range s.Searches {
		names = append(names, pickName(ss.Name, ss.Site, ss.Unseen))
		v.pickIDs = append(v.pickIDs, ss.ID)
		if ss.ID == v.searchID {
			sel = len(v.pickIDs) - 1
		}
	}
	v.pick.SetOptions(names)
	switch {
	case sel >= 0:
		v.pick.SetSelectedIndex(sel)
	case v.searchID != "":
		v.searchID = ""
		v.items, v.from = nil, nil
		v.pick.ClearSelected()
		v.list.Refresh()
	}
	if v.searchID == "" {
		v.setNote(s)
	}
	// New listings arrived for what the user is looking at: show them now.
	if !v.visible() || sel < 0 {
		return
	}
	if v.searchID != allSearches {
		unseen = s.Searches[sel-(len(v.pickIDs)-len(s.Searches))].Unseen
	}
	if unseen > 0 {
		v.load()
	}
}

// pickName is a picker entry: "Kreuzberg (kleinanzeigen.de) · 3 new".
func pickName(name, site string, unseen int) string {
	if site != "" {
		name += " (" + site + ")"
	}
	if unseen > 0 {
		name += " · " + words.UnseenWords(unseen)
	}
	return name
}

// setNote explains an empty view.
func (v *listingsView) setNote(s model.Snapshot) {
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

// firstChoice is what the view opens on when nothing was chosen, or "": the
// search selected in the list, else the one search with new listings, else
// all searches (or an only search).
func (v *listingsView) firstChoice() string {
	if id := v.u.searches.selected; id != "" {
		return id
	}
	with := ""
	for _, s := range v.u.snap.Searches {
		if s.Unseen > 0 {
			if with != "" {
				return allSearches // new listings in several searches: see them together
			}
			with = s.ID
		}
	}
	if with != "" {
		return with
	}
	if len(v.pickIDs) > 0 {
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

// load reads the chosen listings, marks the unseen ones as new for this viewing
// and tells the backend the user has seen them.
func (v *listingsView) load() {
	if v.searchID == "" {
		return
	}
	v.now = v.u.now()
	ids := []string{v.searchID}
	if v.searchID == allSearches {
		ids = ids[:0]
		for _, s := range v.u.snap.Searches {
			ids = append(ids, s.ID)
		}
	}
	v.items, v.from = nil, nil
	var items []model.Listing
	var from []string
	seen := map[string]bool{}
	baselined, viewed := false, []string{}
	for _, id := range ids {
		got, err := v.u.b.Listings(id)
		if err != nil {
			slog.Warn("list listings", "search_id", id, "err", err)
			v.note.SetText("Notifio could not read the listings: " + backendWords(err))
			v.list.Refresh()
			return
		}
		sort.SliceStable(got, func(i, j int) bool { return got[i].FirstSeen.After(got[j].FirstSeen) })
		s, _ := v.u.searchSnap(id)
		baselined = baselined || s.Baselined
		for i := 0; i < s.Unseen && i < len(got); i++ {
			v.isNew[got[i].ID] = true
		}
		if s.Unseen > 0 {
			viewed = append(viewed, id)
		}
		for _, l := range got {
			if !seen[l.ID] { // one listing found by two searches shows once
				seen[l.ID] = true
				items = append(items, l)
				from = append(from, s.Name)
			}
		}
	}
	if v.searchID == allSearches {
		order := make([]int, len(items))
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(i, j int) bool { return items[order[i]].FirstSeen.After(items[order[j]].FirstSeen) })
		for _, i := range order {
			v.items = append(v.items, items[i])
			v.from = append(v.from, from[i])
		}
	} else {
		v.items = items
	}
	v.setLoadedNote(baselined)
	v.list.Refresh()
	for _, id := range viewed {
		if err := v.u.b.MarkViewed(id); err != nil {
			slog.Warn("mark listings viewed", "search_id", id, "err", err)
		}
	}
}

// setLoadedNote says what the view shows.
func (v *listingsView) setLoadedNote(baselined bool) {
	switch {
	case len(v.items) == 0 && !baselined:
		v.note.SetText("Nothing yet: the first check records the listings already on the page.")
	case len(v.items) == 0:
		v.note.SetText("No listings recorded yet.")
	case v.searchID == allSearches:
		v.note.SetText(words.Plural(len(v.items), "listing", "listings") + " of all searches, newest first. Tap one to open it in your browser.")
	default:
		v.note.SetText(words.Plural(len(v.items), "listing", "listings") + ", newest first. Tap one to open it in your browser.")
	}
}
