package ui

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"notifio/internal/model"

	"notifio/poll/words"
)

// How long a dry run and a save may take before the dialog gives up.
const (
	testSearchTimeout = 90 * time.Second
	saveTimeout       = 15 * time.Second
	maxShownListings  = 30
)

// searchEditor is the add/edit dialog: address, name, interval with the site's
// total request rate, optional selectors and cookie, and "Test this search".
type searchEditor struct {
	u      *UI
	editID string // "" when adding

	url, name                *keyEntry
	interval                 *keySelectEntry
	item, link, title, price *keyEntry
	cookie                   *keyEntry
	problem, rateWarn        *widget.Label
	rate, summary            *quietLabel
	advanced                 *widget.Accordion
	testBtn, saveBtn, cancel *widget.Button
	activity                 *widget.Activity
	testing, outcome         *widget.Label
	found                    *fyne.Container
	browser                  *browserOption
	one                      *showOne      // "not these?": other lists, show me one
	filters                  *filterForm   // the Filters section (filters.go)
	origFilters              model.Filters // as stored when the dialog opened

	body     fyne.CanvasObject    // made once, shown by every dialog: scroll
	scroll   *container.Scroll    // over content
	content  *fyne.Container      // the form, messages, Advanced and testArea
	testArea *fyne.Container      // the test's progress, outcome and listings
	dlg      *dialog.CustomDialog // nil until first opened
	tester   job                  // "Test this search": a newer test, a save or a refusal supersedes it
	saver    job                  // Save: reopening the dialog supersedes it, nothing cancels it
}

func newSearchEditor(u *UI) *searchEditor {
	e := &searchEditor{u: u}
	e.tester = job{dispatch: u.dispatch, timeout: testSearchTimeout, cancels: true}
	e.saver = job{dispatch: u.dispatch, timeout: saveTimeout}
	// Enter saves, as the dialog's primary button does; Escape closes (keys.go).
	e.url = newKeyEntry(u, e.save)
	e.url.SetPlaceHolder("https://www.kleinanzeigen.de/s-wohnung-mieten/berlin/…")
	e.url.OnChanged = func(s string) { e.updateRate(); e.browser.urlChanged(s) }
	e.name = newKeyEntry(u, e.save)
	e.name.SetPlaceHolder("e.g. Kreuzberg < 1200 € (suggested by the test)")
	e.interval = newKeySelectEntry(u, words.IntervalOptions(), e.save)
	e.interval.OnChanged = func(string) { e.updateRate() }
	e.item, e.link, e.title, e.price = newKeyEntry(u, e.save), newKeyEntry(u, e.save), newKeyEntry(u, e.save), newKeyEntry(u, e.save)
	e.item.SetPlaceHolder("e.g. article.aditem (one per listing)")
	e.link.SetPlaceHolder("e.g. a.ellipsis (inside the listing)")
	e.title.SetPlaceHolder("e.g. h2")
	e.price.SetPlaceHolder("e.g. .aditem-main--middle--price")
	e.cookie = newKeyPasswordEntry(u, e.save)
	e.cookie.SetPlaceHolder("only if the site shows results to logged-in users")

	e.problem = wrapped("")
	e.problem.Importance = widget.DangerImportance
	e.problem.Hide()
	e.rate = quietWrapped("")
	e.rateWarn = wrapped("")
	e.rateWarn.Importance = widget.WarningImportance
	e.rateWarn.Hide()

	form := widget.NewForm(
		&widget.FormItem{Text: "Search address", Widget: e.url,
			HintText: "Copy it from your browser's address bar on the results page."},
		&widget.FormItem{Text: "Name", Widget: e.name},
		&widget.FormItem{Text: "Check every", Widget: e.interval},
	)
	adv := widget.NewForm(
		&widget.FormItem{Text: "Listing", Widget: e.item},
		&widget.FormItem{Text: "Link", Widget: e.link},
		&widget.FormItem{Text: "Title", Widget: e.title},
		&widget.FormItem{Text: "Price", Widget: e.price},
		&widget.FormItem{Text: "Cookie", Widget: e.cookie,
			HintText: "Pasted from your browser; kept for this site only."},
	)
	e.browser = newBrowserOption(e)
	advNote := quietWrapped("Notifio finds the listings on its own. Only if the test finds none, tell it where they are with CSS selectors.")
	e.advanced = widget.NewAccordion(widget.NewAccordionItem("Advanced", container.NewVBox(advNote, adv, e.browser.box)))

	e.activity = widget.NewActivity()
	e.activity.Hide()
	e.testing = widget.NewLabel("")
	e.testing.Hide()
	e.outcome = wrapped("")
	e.summary = quietWrapped("")
	e.found = container.NewVBox()
	e.one = newShowOne(e)

	e.testBtn = widget.NewButtonWithIcon("Test this search", theme.SearchIcon(), e.test)
	e.saveBtn = widget.NewButtonWithIcon("Save", theme.DocumentSaveIcon(), e.save)
	e.saveBtn.Importance = widget.HighImportance
	e.cancel = widget.NewButton("Cancel", e.close)

	testArea := container.NewVBox(
		container.NewHBox(e.activity, e.testing),
		e.outcome, e.summary, e.browser.offer, e.found, e.one.box,
	)
	// One scroll for all of it: with the test result in a scroll of its own
	// below the form, opening Advanced at 800×600 left the result no height.
	e.filters = newFilterForm(u, e.save)
	e.content = container.NewVBox(form, e.rate, e.rateWarn, e.problem, e.filters.accordion, e.advanced, testArea)
	e.testArea = testArea
	e.scroll = container.NewVScroll(e.content)
	e.body = e.scroll
	return e
}

// open shows the dialog to add a search (id "") or edit one.
func (e *searchEditor) open(id string) {
	e.editID = id
	e.reset()
	title := "Add a search"
	if id != "" {
		s, err := e.u.b.Search(id)
		if err != nil {
			slog.Warn("load search", "search_id", id, "err", err)
			e.u.showError("Could not open the search", "Notifio could not read this search: "+backendWords(err))
			return
		}
		title = "Edit “" + words.ShortName(s.Name, words.NameRunes) + "”"
		e.url.SetText(s.URL)
		e.name.SetText(s.Name)
		iv := s.Interval
		if iv <= 0 {
			iv = model.DefaultInterval
		}
		e.interval.SetText(words.DurationWords(iv))
		e.item.SetText(s.Selectors.Item)
		e.link.SetText(s.Selectors.Link)
		e.title.SetText(s.Selectors.Title)
		e.price.SetText(s.Selectors.Price)
		e.browser.reset(s.Browser)
		if s.Browser {
			e.advanced.Open(0)
		}
		e.filters.set(s.Filters)
		e.origFilters = s.Filters
		if s.CookieRef != "" {
			e.cookie.SetPlaceHolder("a cookie is saved for this site; paste a new one to replace it")
		}
		if s.Selectors != (model.Selectors{}) {
			e.advanced.Open(0)
		}
	}
	// A dialog's title is fixed, so each opening gets a new one around the same form.
	e.dlg = dialog.NewCustomWithoutButtons(title, e.body, e.u.win)
	e.dlg.SetButtons([]fyne.CanvasObject{e.cancel, e.testBtn, e.saveBtn})
	e.updateRate()
	e.dlg.Resize(fyne.NewSize(640, 600))
	e.u.showKeyed(e.dlg, e.save, e.close, e.tester.cancel)
	e.u.win.Canvas().Focus(e.url)
}

// close hides the dialog.
func (e *searchEditor) close() {
	if e.dlg != nil {
		e.dlg.Hide()
	}
}

// reset empties every field and the test result.
func (e *searchEditor) reset() {
	for _, en := range []*keyEntry{e.url, e.name, e.item, e.link, e.title, e.price, e.cookie} {
		en.SetText("")
	}
	e.cookie.SetPlaceHolder("only if the site shows results to logged-in users")
	e.scroll.ScrollToTop()
	// A test or a save still running belongs to the last opening: a test
	// stops, a save goes on (and, if it worked, refreshes the window).
	e.tester.supersede()
	e.saver.supersede()
	e.interval.SetText(words.DurationWords(e.u.defaultInterval()))
	e.advanced.Close(0)
	e.browser.reset(false)
	e.filters.set(model.Filters{})
	e.origFilters = model.Filters{}
	e.setProblem("")
	e.clearResult()
	e.one.reset()
	e.saveBtn.Enable()
}

// setProblem shows what is wrong with the form, or hides the message.
func (e *searchEditor) setProblem(text string) {
	showText(e.problem, text)
	e.relayout()
	if text != "" {
		e.reveal(e.problem)
	}
}

// refuse shows what is wrong with the form. An earlier test's result goes: it
// was about the form as it was, and under the new problem it read as current.
func (e *searchEditor) refuse(err error) {
	e.tester.supersede() // a test still running reports to nobody
	e.clearResult()
	e.setProblem(backendWords(err))
}

// clearResult removes a test's outcome and what it found.
func (e *searchEditor) clearResult() {
	e.activity.Stop()
	e.activity.Hide()
	e.testing.Hide()
	e.testBtn.Enable()
	e.outcome.SetText("")
	e.summary.SetText("")
	e.found.RemoveAll()
	e.one.update(model.DryRun{})
	e.browser.hideOffer()
}

// relayout lays the form out again after messages appeared or went. Twice: a
// wrapped message knows its height only once the first pass gave it a width.
func (e *searchEditor) relayout() {
	if e.scroll == nil {
		return // still being built
	}
	e.content.Refresh()
	e.content.Refresh()
	e.scroll.Refresh()
}

// reveal scrolls the dialog so that o, one of content's rows, is in view.
func (e *searchEditor) reveal(o fyne.CanvasObject) {
	view, top := e.scroll.Size().Height, o.Position().Y
	switch {
	case view <= 0:
		return
	case top < e.scroll.Offset.Y:
		e.scroll.Offset.Y = top
	case o.Size().Height > view:
		e.scroll.Offset.Y = top // taller than the view: its start, which is read first
	case top+o.Size().Height > e.scroll.Offset.Y+view:
		e.scroll.Offset.Y = top + o.Size().Height - view
	default:
		return
	}
	e.scroll.Offset.Y = max(0, min(e.scroll.Offset.Y, e.content.Size().Height-view))
	e.scroll.Refresh()
}

// input reads and validates the form.
func (e *searchEditor) input() (model.SearchInput, error) {
	u, err := words.CheckSearchURL(e.url.Text)
	if err != nil {
		return model.SearchInput{}, err
	}
	iv, err := words.ParseInterval(e.interval.Text)
	if err != nil {
		return model.SearchInput{}, err
	}
	filters, err := e.filters.read()
	if err != nil {
		return model.SearchInput{}, err
	}
	return model.SearchInput{
		Filters:  filters,
		Name:     strings.TrimSpace(e.name.Text),
		URL:      u,
		Interval: iv,
		Selectors: model.PageSelectors{
			Item:  strings.TrimSpace(e.item.Text),
			Link:  strings.TrimSpace(e.link.Text),
			Title: strings.TrimSpace(e.title.Text),
			Price: strings.TrimSpace(e.price.Text),
		},
		Cookie:  strings.TrimSpace(e.cookie.Text),
		Browser: e.browser.on(),
	}, nil
}

// updateRate shows how often Notifio would ask the search's site, counting all
// of its searches, and the backend's warning when that is a lot.
func (e *searchEditor) updateRate() {
	u, err := words.CheckSearchURL(e.url.Text)
	iv, ierr := words.ParseInterval(e.interval.Text)
	if err != nil || ierr != nil {
		showQuiet(e.rate, "")
		showText(e.rateWarn, "")
		e.relayout()
		return
	}
	perMin, warn := e.u.b.SiteRate(u, iv, e.editID)
	e.rate.SetText(words.SiteRateWords(perMin))
	e.rate.Show()
	showText(e.rateWarn, warn)
	e.relayout()
}

// save validates the form and adds or updates the search. On a problem nothing
// is saved and the dialog says what to fix.
func (e *searchEditor) save() {
	in, err := e.input()
	if err != nil {
		e.refuse(err)
		return
	}
	e.setProblem("")
	e.tester.supersede() // a test still running reports to nobody
	// The database commit (and a cookie's keyring write, up to 20 s) runs off
	// the UI goroutine, behind the activity; the dialog waits for its answer.
	editID, b := e.editID, e.u.b
	e.saveBtn.Disable()
	e.testBtn.Disable()
	e.testing.SetText("Saving…")
	e.testing.Show()
	e.activity.Show()
	e.activity.Start()
	e.relayout()
	e.saver.start(func(ctx context.Context) func(bool) {
		var s model.Search
		var err error
		if editID == "" {
			s, err = b.AddSearch(ctx, in)
		} else {
			s, err = b.UpdateSearch(ctx, editID, in)
		}
		return func(current bool) { e.saved(current, editID, in, s.ID, err) }
	})
}

// saved shows how a save went: the dialog closes on the new or changed search,
// or says what went wrong. A save the dialog no longer waits for (it was
// closed and opened again: not current) only refreshes the window.
func (e *searchEditor) saved(current bool, editID string, in model.SearchInput, id string, err error) {
	if !current {
		if err == nil {
			e.u.refresh()
		}
		return
	}
	e.activity.Stop()
	e.activity.Hide()
	e.testing.Hide()
	e.saveBtn.Enable()
	e.testBtn.Enable()
	switch {
	case err != nil && editID == "":
		slog.Warn("add search", "url", in.URL, "err", err)
		e.setProblem("Notifio could not save this search. " + words.UpperFirst(backendWords(err)))
	case err != nil:
		slog.Warn("update search", "search_id", editID, "err", err)
		e.setProblem("Notifio could not save your changes. " + words.UpperFirst(backendWords(err)))
	default:
		e.close()
		e.u.refresh()
		e.u.searches.selectSearch(id)
		if editID != "" && filtersLooser(e.origFilters, in.Filters) {
			e.u.offerHeld(id)
		}
	}
}

// test runs one dry-run poll in the background and shows what it found.
func (e *searchEditor) test() { e.runTest("") }

// runTest tests the search as the form says, with the user's example listing
// when there is one (example "" = none).
func (e *searchEditor) runTest(example string) {
	in, err := e.input()
	if err != nil {
		e.refuse(err)
		return
	}
	in.Example = example
	e.one.update(model.DryRun{}) // (hidden until the new result)
	e.setProblem("")
	e.testBtn.Disable()
	e.outcome.SetText("")
	e.summary.SetText("")
	e.found.RemoveAll()
	e.testing.SetText("Testing… Notifio loads the page once and saves nothing.")
	e.testing.Show()
	e.activity.Show()
	e.activity.Start()
	e.relayout()
	e.reveal(e.testArea)
	b := e.u.b
	e.tester.start(func(ctx context.Context) func(bool) {
		res, err := b.TestSearch(ctx, in)
		return func(current bool) {
			if current {
				e.showResult(res, err)
			}
		}
	})
}

// showResult shows a dry run's outcome and the listings it would find.
func (e *searchEditor) showResult(res model.DryRun, err error) {
	e.activity.Stop()
	e.activity.Hide()
	e.testing.Hide()
	e.testBtn.Enable()
	e.found.RemoveAll()
	if err != nil {
		slog.Info("test search failed", "url", e.url.Text, "err", err)
		e.outcome.Importance = widget.DangerImportance
		e.outcome.SetText("The test did not work: " + backendWords(err))
		e.summary.SetText("")
		e.relayout()
		e.reveal(e.testArea)
		return
	}
	e.outcome.Importance = widget.MediumImportance
	if res.Outcome != model.OutcomeOK && !words.ScriptsOnly(res) {
		e.outcome.Importance = widget.WarningImportance
	}
	e.outcome.SetText(words.DryRunMessage(res))
	if strings.TrimSpace(e.name.Text) == "" && res.Outcome == model.OutcomeOK {
		e.name.SetText(words.SuggestName(res.Title, res.URL, res.Site, e.nameTaken))
	}
	e.summary.SetText(words.DryRunSummary(res))
	for i, l := range res.Listings {
		if i == maxShownListings {
			e.found.Add(widget.NewLabel(fmt.Sprintf("…and %d more", len(res.Listings)-i)))
			break
		}
		line := widget.NewLabel(words.VerdictLine(words.PageListingLine(l), res, i))
		line.Truncation = fyne.TextTruncateEllipsis
		e.found.Add(line)
	}
	e.one.update(res)
	e.browser.showTry(res)
	e.relayout()
	e.reveal(e.testArea)
}

// nameTaken reports whether another search than the one being edited has
// the name (the UI's last snapshot; UI goroutine only).
func (e *searchEditor) nameTaken(name string) bool {
	return slices.ContainsFunc(e.u.snap.Searches, func(s model.SearchSnapshot) bool {
		return s.ID != e.editID && s.Name == name
	})
}

// defaultInterval is the interval the user chose for new searches.
func (u *UI) defaultInterval() time.Duration {
	d := time.Duration(u.prefs.IntWithFallback(prefDefaultInterval, int(model.DefaultInterval/time.Second))) * time.Second
	if d < model.MinInterval {
		return model.DefaultInterval
	}
	return d
}
