package ui

import (
	"errors"
	"fmt"
	"log/slog"
	"math"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"notifio/internal/model"

	"notifio/poll/words"
)

// emptyText tells a new user what to do.
const emptyText = "Paste a search URL from your portal (e.g. a kleinanzeigen or wg-gesucht results page) " +
	"and Notifio checks it every 2 minutes. The first check quietly records the listings already there; " +
	"after that you hear about every new one: here, on your desktop and by email."

// searchRow is one search as the list shows it.
type searchRow struct {
	snap   model.SearchSnapshot
	status string // the state or countdown, recomputed every tick
	detail string
	unseen string
	icon   fyne.Resource
	imp    widget.Importance // of the status
}

// looksLike reports whether two rows draw the same, but for the status, which
// tick keeps up to date.
func (r searchRow) looksLike(o searchRow) bool {
	return r.snap.ID == o.snap.ID && r.snap.Name == o.snap.Name && r.snap.Site == o.snap.Site &&
		r.detail == o.detail && r.unseen == o.unseen && r.icon.Name() == o.icon.Name() && r.imp == o.imp
}

// searchesView is the main screen: a toolbar, the outbox banner and the list of
// searches (or, before the first search, a short explanation with an Add button).
type searchesView struct {
	u *UI

	add, edit, remove, pause, check, listings *widget.Button

	list     *widget.List
	rows     []searchRow
	selected string // the selected search's ID, "" when none
	stale    bool   // snapshots came while hidden: the list is not drawn up to date
	// bound is the row widget the list last bound to each item id. The list does
	// not say when a row scrolls out and is pooled, so tick also checks that the
	// id is among the rows the list shows (shownRows).
	bound map[widget.ListItemID]*searchRowWidget

	empty    fyne.CanvasObject
	emptyAdd *widget.Button
	body     *fyne.Container // holds either list or empty

	banner     *fyne.Container
	bannerText *widget.Label
	retry      *widget.Button
	offline    *widget.Label

	// find is the search box: only the searches whose name or site has its
	// words are listed; noMatch says so when none has.
	find       *widget.Entry
	noMatch    *quietLabel
	noMatchBox fyne.CanvasObject

	editor  *searchEditor
	frame   *fyne.Container
	content fyne.CanvasObject
}

func newSearchesView(u *UI) *searchesView {
	v := &searchesView{u: u, bound: map[widget.ListItemID]*searchRowWidget{}}
	v.editor = newSearchEditor(u)
	v.add = widget.NewButtonWithIcon("Add", theme.ContentAddIcon(), func() { v.editor.open("") })
	v.add.Importance = widget.HighImportance
	v.edit = widget.NewButtonWithIcon("Edit", theme.DocumentCreateIcon(), func() { v.editor.open(v.selected) })
	v.remove = widget.NewButtonWithIcon("Remove", theme.DeleteIcon(), v.confirmRemove)
	v.pause = widget.NewButtonWithIcon("Pause", theme.MediaPauseIcon(), v.togglePause)
	v.check = widget.NewButtonWithIcon("Check now", theme.ViewRefreshIcon(), v.checkNow)
	v.listings = widget.NewButtonWithIcon("Listings", theme.ListIcon(), func() { u.showListings(v.selected) })
	// Sites and Settings are the tabs right above: buttons for them here too made
	// the toolbar (and so the window's narrowest width) 200 px wider.
	v.find = widget.NewEntry()
	v.find.SetPlaceHolder("Find a search")
	v.find.OnChanged = func(string) { v.apply(u.snap, u.now()) }
	v.noMatch = quietWrapped("")
	v.noMatchBox = container.NewVBox(v.noMatch)
	toolbar := container.NewBorder(nil, nil, container.NewHBox(v.add, v.edit, v.remove, v.pause, v.check, v.listings), nil, v.find)

	v.list = widget.NewList(func() int { return len(v.rows) }, newSearchRowObject, v.updateRowObject)
	v.list.OnSelected = func(id widget.ListItemID) {
		if id >= 0 && id < len(v.rows) {
			v.selected = v.rows[id].snap.ID
		}
		v.updateButtons()
	}
	v.list.OnUnselected = func(widget.ListItemID) {
		v.selected = ""
		v.updateButtons()
	}

	heading := widget.NewLabelWithStyle("Watch your first search", fyne.TextAlignCenter, fyne.TextStyle{Bold: true})
	heading.SizeName = theme.SizeNameSubHeadingText
	explain := widget.NewLabel(emptyText)
	explain.Wrapping = fyne.TextWrapWord
	explain.Alignment = fyne.TextAlignCenter
	v.emptyAdd = widget.NewButtonWithIcon("Add a search", theme.ContentAddIcon(), func() { v.editor.open("") })
	v.emptyAdd.Importance = widget.HighImportance
	v.empty = container.NewVBox(layout.NewSpacer(), heading, explain, container.NewCenter(v.emptyAdd), layout.NewSpacer())

	v.bannerText = widget.NewLabel("")
	v.bannerText.Wrapping = fyne.TextWrapWord
	v.bannerText.Importance = widget.WarningImportance
	v.retry = widget.NewButtonWithIcon("Retry", theme.MailSendIcon(), v.retryOutbox)
	v.banner = container.NewBorder(nil, nil, widget.NewIcon(theme.NewWarningThemedResource(theme.MailComposeIcon())),
		v.retry, v.bannerText)
	v.banner.Hide()
	v.offline = widget.NewLabel("You seem to be offline. Notifio keeps trying, and no site is blamed for it.")
	v.offline.Wrapping = fyne.TextWrapWord
	v.offline.Importance = widget.WarningImportance
	v.offline.Hide()

	v.body = container.NewStack(v.list)
	v.frame = container.NewBorder(container.NewVBox(toolbar, v.banner, v.offline), nil, nil, nil, v.body)
	v.content = v.frame
	v.updateButtons()
	return v
}

// searchRowWidget is one row of the searches list: status icon, name and site on
// the first line, state and detail on the second, the unseen badge on the right.
type searchRowWidget struct {
	widget.BaseWidget
	icon                 *widget.Icon
	name, status, unseen *widget.Label
	site, detail         *quietLabel
	box                  *fyne.Container
	second               *fyne.Container // the line of status and detail
	id                   widget.ListItemID
}

func newSearchRowObject() fyne.CanvasObject {
	r := &searchRowWidget{
		icon:   widget.NewIcon(nil),
		name:   widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		site:   newQuiet(""),
		status: widget.NewLabel(""),
		detail: newQuiet(""),
		unseen: widget.NewLabelWithStyle("", fyne.TextAlignTrailing, fyne.TextStyle{Bold: true}),
	}
	r.unseen.Importance = widget.HighImportance
	// Two tight lines; a long name, reason or detail is cut with an ellipsis
	// instead of running out of the window.
	r.second = newLine(r.status, r.detail)
	// The lines overlap by more than the labels' inner padding: 4 px between
	// the texts instead of 8, so a 850 px window shows a dozen rows and more
	// (issue 37: 11 of 24).
	lines := container.New(layout.NewCustomPaddedVBoxLayout(-1.5*theme.InnerPadding()),
		newLine(r.name, r.site),
		r.second,
	)
	r.box = container.NewBorder(nil, nil, r.icon, r.unseen, lines)
	r.ExtendBaseWidget(r)
	return r
}

// CreateRenderer lays the row out.
func (r *searchRowWidget) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(r.box)
}

func (v *searchesView) updateRowObject(id widget.ListItemID, o fyne.CanvasObject) {
	w := o.(*searchRowWidget)
	if v.bound[w.id] == w {
		delete(v.bound, w.id)
	}
	if id < 0 || id >= len(v.rows) {
		return
	}
	w.id, v.bound[id] = id, w
	r := v.rows[id]
	w.icon.Resource = r.icon
	w.status.Importance = r.imp
	w.status.Text = r.status
	w.detail.Text = "· " + r.detail
	w.unseen.Text = r.unseen
	w.name.Text, w.site.Text = r.snap.Name, r.snap.Site
	// The texts' widths changed: lay the row out again, then redraw it.
	w.box.Refresh()
}

// stateLook is the icon and text colour of a search's state (theme colours only,
// so light and dark themes both read well). site is the search's site, or nil.
func stateLook(s model.SearchSnapshot, site *model.SiteSnapshot) (fyne.Resource, widget.Importance) {
	if words.Retrying(s, site) {
		return theme.NewWarningThemedResource(theme.HistoryIcon()), widget.WarningImportance
	}
	switch s.State {
	case model.StateChecking:
		return theme.NewPrimaryThemedResource(theme.ViewRefreshIcon()), widget.HighImportance
	case model.StateProbing:
		return theme.NewPrimaryThemedResource(theme.SearchIcon()), widget.HighImportance
	case model.StateWaiting:
		return theme.NewWarningThemedResource(theme.HistoryIcon()), widget.WarningImportance
	case model.StatePaused:
		// Not the disabled colour: the row is quiet, not out of reach.
		return theme.NewColoredResource(theme.MediaPauseIcon(), colorNameQuiet), widget.MediumImportance
	case model.StateAttention:
		return theme.NewErrorThemedResource(theme.ErrorIcon()), widget.DangerImportance
	}
	if s.LastOutcome == model.OutcomeUnexpectedPage {
		return theme.NewWarningThemedResource(theme.WarningIcon()), widget.WarningImportance
	}
	return stateIconOK(), widget.MediumImportance
}

// stateIconOK is the icon of a search whose last check went well.
func stateIconOK() fyne.Resource { return theme.NewSuccessThemedResource(theme.ConfirmIcon()) }

// apply shows a new snapshot. Every poll publishes one (two: checking, then
// its result), so it redraws only what changed: the rows on screen whose words
// or look changed, the whole list only when searches came, went or moved, the
// screen only when the empty state or a banner came or went.
func (v *searchesView) apply(s model.Snapshot, now time.Time) {
	old := v.rows
	v.rows = make([]searchRow, 0, len(s.Searches))
	sel := -1
	for _, ss := range s.Searches {
		if !matchesFilter(ss, v.find.Text) {
			continue
		}
		if ss.ID == v.selected {
			sel = len(v.rows)
		}
		site := siteOf(s, ss.Site)
		icon, imp := stateLook(ss, site)
		v.rows = append(v.rows, searchRow{
			snap:   ss,
			status: words.StatusWords(ss, site, now),
			detail: words.SearchDetail(ss, now),
			unseen: words.UnseenWords(ss.Unseen),
			icon:   icon, imp: imp,
		})
	}
	if sel < 0 && v.selected != "" {
		v.selected = ""
		v.list.UnselectAll()
	}
	screen := v.screenState()
	showIf(v.find, len(s.Searches) > 0)
	switch {
	case len(s.Searches) == 0:
		v.body.Objects = []fyne.CanvasObject{v.empty}
	case len(v.rows) == 0:
		v.noMatch.SetText("No search has “" + strings.TrimSpace(v.find.Text) + "” in its name or site.")
		v.body.Objects = []fyne.CanvasObject{v.noMatchBox}
	default:
		v.body.Objects = []fyne.CanvasObject{v.list}
	}
	v.applyOutbox(s)
	v.updateButtons()
	switch {
	case v.u.tickOff.Load():
		// Hidden in the tray: nothing is drawn; show catches up (catchUp).
		v.stale = true
	case v.screenState() != screen || v.stale:
		v.stale = false
		v.frame.Refresh() // lays the screen out again and binds every row
	case !sameSearches(old, v.rows):
		v.list.Refresh()
	default:
		v.refreshChangedRows(old)
	}
}

// catchUp draws the snapshots that came while the window was hidden.
func (v *searchesView) catchUp() {
	if v.stale {
		v.stale = false
		v.frame.Refresh()
	}
}

// screenState is what decides the screen's layout: the empty state, the
// search box's "no match", the banner and the offline note.
func (v *searchesView) screenState() [4]bool {
	shows := func(o fyne.CanvasObject) bool { return len(v.body.Objects) > 0 && v.body.Objects[0] == o }
	return [4]bool{shows(v.empty), shows(v.noMatchBox), v.banner.Visible(), v.offline.Visible()}
}

// sameSearches reports whether two row lists hold the same searches in the
// same order.
func sameSearches(a, b []searchRow) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].snap.ID != b[i].snap.ID {
			return false
		}
	}
	return true
}

// refreshChangedRows binds again the rows on screen that draw differently
// from old, and sets the status of the others when it changed.
func (v *searchesView) refreshChangedRows(old []searchRow) {
	first, last := v.shownRows()
	for id, w := range v.bound {
		if id < first || id > last || id >= len(v.rows) {
			continue
		}
		switch {
		case !v.rows[id].looksLike(old[id]):
			v.updateRowObject(id, w)
		case w.status.Text != v.rows[id].status:
			w.status.SetText(v.rows[id].status)
			w.second.Layout.Layout(w.second.Objects, w.second.Size())
		}
	}
}

// siteOf finds a site in a snapshot.
func siteOf(s model.Snapshot, site string) *model.SiteSnapshot {
	for i := range s.Sites {
		if s.Sites[i].Site == site {
			return &s.Sites[i]
		}
	}
	return nil
}

// tick recomputes the countdowns and sets the text of the status labels that
// changed in the rows on screen; nothing else is refreshed. List.RefreshItem
// refreshes the whole list and List.Refresh re-binds and re-shapes every label
// of every visible row (34% and 6.3% of a core with 50 searches:
// docs/PERFORMANCE.md). Rows not on screen get their words when the list binds
// them. Countdowns more than a few minutes away change only when the clock's
// minute does (words.Countdown), so most ticks set no label and the window draws no
// frame.
func (v *searchesView) tick(now time.Time) {
	for i := range v.rows {
		v.rows[i].status = words.StatusWords(v.rows[i].snap, siteOf(v.u.snap, v.rows[i].snap.Site), now)
	}
	first, last := v.shownRows()
	for id, w := range v.bound {
		if id < first || id > last || id >= len(v.rows) || w.status.Text == v.rows[id].status {
			continue
		}
		w.status.SetText(v.rows[id].status)
		// The status may be wider or narrower now: place the detail after it
		// again (a layout only; the detail's text is not shaped again).
		w.second.Layout.Layout(w.second.Objects, w.second.Size())
	}
}

// shownRows is the range of item ids the list shows now, as Fyne's list layout
// computes it (all rows have the template's height); last < first when none.
func (v *searchesView) shownRows() (first, last widget.ListItemID) {
	var rowHeight float32
	for _, w := range v.bound {
		rowHeight = w.Size().Height
		break
	}
	height := v.list.Size().Height
	if rowHeight <= 0 || height <= 0 || !v.list.Visible() {
		return 0, -1
	}
	step := rowHeight + v.list.Theme().Size(theme.SizeNamePadding)
	first = int(math.Floor(float64(v.list.GetScrollOffset() / step)))
	last = int(math.Ceil(float64((float32(first)*step + height) / step)))
	return first, last
}

// applyOutbox shows or hides the email problems banner (words.OutboxWords).
func (v *searchesView) applyOutbox(s model.Snapshot) {
	text := words.OutboxWords(s.Outbox)
	if text == "" {
		v.banner.Hide()
	} else {
		v.bannerText.SetText(text)
		v.retry.Enable()
		v.banner.Show()
	}
	if s.Offline {
		v.offline.Show()
	} else {
		v.offline.Hide()
	}
}

// updateButtons enables the actions that make sense for the selection.
func (v *searchesView) updateButtons() {
	s, ok := v.u.searchSnap(v.selected)
	for _, b := range []*widget.Button{v.edit, v.remove, v.pause, v.check, v.listings} {
		if ok {
			b.Enable()
		} else {
			b.Disable()
		}
	}
	// Set only on a change: SetText and SetIcon redraw the button (and render
	// its icon) each time, and this runs on every snapshot.
	text, icon := "Pause", theme.MediaPauseIcon()
	if ok && s.State == model.StatePaused {
		text, icon = "Resume", theme.MediaPlayIcon()
	}
	if v.pause.Text != text {
		v.pause.Text, v.pause.Icon = text, icon
		v.pause.Refresh()
	}
}

// selectSearch selects a search in the list by ID.
func (v *searchesView) selectSearch(id string) {
	for i, r := range v.rows {
		if r.snap.ID == id {
			v.list.Select(i)
			return
		}
	}
}

// confirmRemove asks before removing the selected search.
func (v *searchesView) confirmRemove() {
	s, ok := v.u.searchSnap(v.selected)
	if !ok {
		return
	}
	msg := fmt.Sprintf("Stop watching “%s”? Notifio forgets the listings it has seen for it.", s.Name)
	// Our own buttons, not dialog.NewConfirm's: the destructive one in the
	// danger colour with a delete icon, each made with its final text (a
	// confirm button renamed after it was made drew its icon over "Remove").
	d := dialog.NewCustomWithoutButtons("Remove this search?", wrapped(msg), v.u.win)
	remove := func() {
		d.Hide()
		if err := v.u.b.RemoveSearch(s.ID); err != nil {
			slog.Warn("remove search", "search_id", s.ID, "err", err)
			v.u.showError("Could not remove the search", "Notifio could not remove “"+s.Name+"”: "+backendWords(err))
			return
		}
		v.u.refresh()
	}
	removeBtn := widget.NewButtonWithIcon("Remove", theme.DeleteIcon(), remove)
	removeBtn.Importance = widget.DangerImportance
	d.SetButtons([]fyne.CanvasObject{widget.NewButton("Keep it", d.Hide), removeBtn})
	d.Resize(fyne.NewSize(460, 0))
	v.u.showKeyed(d, remove, d.Hide, nil)
}

// togglePause pauses or resumes the selected search.
func (v *searchesView) togglePause() {
	s, ok := v.u.searchSnap(v.selected)
	if !ok {
		return
	}
	paused := s.State != model.StatePaused
	if err := v.u.b.SetPaused(s.ID, paused); err != nil {
		slog.Warn("pause search", "search_id", s.ID, "paused", paused, "err", err)
		v.u.showError("Could not change the search", "Notifio could not pause or resume “"+s.Name+"”: "+backendWords(err))
		return
	}
	v.u.refresh()
}

// waitOf says why a search cannot be checked now (its site is backing off, or
// another search is the site's probe), or nil when it can.
func (v *searchesView) waitOf(s model.SearchSnapshot, now time.Time) *model.WaitError {
	site, hasSite := v.u.siteSnap(s.Site)
	switch {
	case s.State == model.StateWaiting:
		until := s.NextCheck
		if hasSite && site.NextProbe.After(until) {
			until = site.NextProbe
		}
		return &model.WaitError{Site: s.Site, Until: until, Wait: s.Wait, Reason: s.Reason}
	case hasSite && site.Waiting && site.NextProbe.After(now):
		return &model.WaitError{Site: s.Site, Until: site.NextProbe, Wait: model.WaitSite, Reason: s.Site + " " + words.KindWords(site.Kind)}
	}
	return nil
}

// checkNow checks the selected search now, unless its site asked us to wait: then
// it says why and until when, and nothing is fetched.
func (v *searchesView) checkNow() {
	s, ok := v.u.searchSnap(v.selected)
	if !ok {
		return
	}
	now := v.u.now()
	if w := v.waitOf(s, now); w != nil {
		v.showWait(w, now)
		return
	}
	if s.State == model.StateChecking || s.State == model.StateProbing {
		v.u.showMessage("Already checking", "Notifio is checking “"+s.Name+"” right now.")
		return
	}
	v.check.Disable()
	id := s.ID
	go func() {
		err := v.u.b.CheckNow(id)
		v.u.dispatch(func() {
			v.updateButtons()
			var w *model.WaitError
			switch {
			case errors.As(err, &w):
				v.showWait(w, v.u.now())
			case err != nil:
				slog.Warn("check now", "search_id", id, "err", err)
				v.u.showError("Could not check now", "Notifio could not check “"+s.Name+"” now: "+backendWords(err))
			default:
				v.u.refresh()
			}
		})
	}()
}

// showWait explains why a site cannot be checked yet.
func (v *searchesView) showWait(w *model.WaitError, now time.Time) {
	v.u.showMessage("Not yet: "+w.Site+" asked us to wait", words.WaitWords(w, now))
}

// retryOutbox puts the emails that failed back in the queue.
func (v *searchesView) retryOutbox() {
	if err := v.u.b.RetryOutbox(); err != nil {
		slog.Warn("retry outbox", "err", err)
		v.u.showError("Could not retry the emails", "Notifio could not queue the emails again: "+backendWords(err))
		return
	}
	v.retry.Disable()
	v.u.refresh()
}

// wrapped is a label that wraps its text at word boundaries.
func wrapped(text string) *widget.Label {
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	return l
}
