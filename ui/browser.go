package ui

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"notifio/internal/model"
	"notifio/poll/words"
)

// solveTimeout is how long a "solve it in the browser" window may stay open.
const solveTimeout = 30 * time.Minute

// browserNote explains the option when a browser is installed.
const browserNote = "For portals that show results only with JavaScript: Notifio reads the page in your own Chrome, Chromium, Edge or Brave, unseen and without images."

// browserOption is the editor's "Read with a browser" checkbox, the note when
// no browser is installed, and Test this search's offer to use one.
type browserOption struct {
	e       *searchEditor
	check   *widget.Check
	note    *quietLabel // no browser installed: what to install
	touched bool        // the user ticked or unticked it in this opening
	setting bool        // the editor sets it (not the user)

	offer     *fyne.Container // the offer after a test: what the browser found
	offerText *widget.Label
	offerList *fyne.Container
	use       *widget.Button
	box       *fyne.Container
}

func newBrowserOption(e *searchEditor) *browserOption {
	o := &browserOption{e: e}
	o.check = widget.NewCheck("Read with a browser", func(bool) {
		if !o.setting {
			o.touched = true
		}
	})
	o.note = quietWrapped(browserNote)
	o.box = container.NewVBox(o.check, o.note)
	o.offerText = wrapped("")
	o.offerText.Importance = widget.WarningImportance
	o.offerList = container.NewVBox()
	o.use = widget.NewButton("Read it with a browser", func() {
		o.set(true)
		o.touched = true
		o.offer.Hide()
		o.e.relayout()
	})
	o.offer = container.NewVBox(o.offerText, o.offerList, o.use)
	o.offer.Hide()
	return o
}

// set ticks or unticks the box without counting it as the user's choice.
func (o *browserOption) set(on bool) {
	o.setting = true
	o.check.SetChecked(on)
	o.setting = false
}

// reset prepares a new opening: the stored choice (edit) or none yet (add),
// and whether a browser is installed at all.
func (o *browserOption) reset(on bool) {
	o.touched = false
	o.set(on)
	o.hideOffer()
	if err := o.e.u.b.BrowserAvailable(); err != nil {
		o.check.Disable()
		o.note.SetText(backendWords(err))
	} else {
		o.check.Enable()
		o.note.SetText(browserNote)
	}
}

// urlChanged ticks the box as the site's other searches read, until the user
// chose for themselves.
func (o *browserOption) urlChanged(raw string) {
	if o.touched || o.e.editID != "" || o.check.Disabled() {
		return
	}
	o.set(o.e.u.b.BrowserDefault(raw))
}

// on is the choice to save and test with.
func (o *browserOption) on() bool { return o.check.Checked && !o.check.Disabled() }

func (o *browserOption) hideOffer() {
	o.offer.Hide()
	o.offerList.RemoveAll()
}

// showTry shows what Test this search found when it also tried a browser.
func (o *browserOption) showTry(res model.DryRun) {
	o.hideOffer()
	if res.BrowserNote == "" {
		return
	}
	o.offerText.SetText(res.BrowserNote)
	useful := res.BrowserTry != nil && len(res.BrowserTry.Listings) > 0 && !o.on()
	showIf(o.use, useful)
	if useful {
		for i, l := range res.BrowserTry.Listings {
			if i == 5 {
				o.offerList.Add(widget.NewLabel(fmt.Sprintf("…and %d more", len(res.BrowserTry.Listings)-i)))
				break
			}
			line := widget.NewLabel(words.PageListingLine(l))
			line.Truncation = fyne.TextTruncateEllipsis
			o.offerList.Add(line)
		}
	}
	o.offer.Show()
}

// solveInBrowser opens a window of the user's browser at the site's page for
// them to solve its check; when they close it (or press Done here) the site's
// cookies are kept and its probe goes.
func (v *sitesView) solveInBrowser(site string) {
	c, ok := v.cards[site]
	if !ok {
		return
	}
	b := v.u.b
	wait := dialog.NewCustomWithoutButtons("Solve the check in the browser",
		wrapped("A window of your browser opens at "+site+". Solve the check there as usual (tick the box, "+
			"pick the pictures), then close that window or press Done. Notifio keeps the site's cookies and tries again."), v.u.win)
	done := widget.NewButton("Done", func() {
		go func() { // a request to the watcher: off the UI goroutine
			if err := b.SolveDone(site); err != nil {
				slog.Warn("end the solve window", "site", site, "err", err)
			}
		}()
	})
	done.Importance = widget.HighImportance
	wait.SetButtons([]fyne.CanvasObject{done})
	wait.Resize(fyne.NewSize(460, 0))
	wait.Show()
	c.solve.Disable()
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), solveTimeout)
		defer cancel()
		res, err := b.SolveInBrowser(ctx, site, nil)
		v.u.dispatch(func() {
			wait.Hide()
			c.solve.Enable()
			v.solved(c, site, res, err)
		})
	}()
}

// solved says on the site's card how solving went.
func (v *sitesView) solved(c *siteCard, site string, res model.SolveResult, err error) {
	switch {
	case err != nil:
		slog.Warn("solve in browser", "site", site, "err", err)
		c.message.Importance = widget.DangerImportance
		c.message.SetText("The browser window did not work. " + backendWords(err))
	case res.Cookies == 0:
		c.message.Importance = widget.WarningImportance
		c.message.SetText("The window closed, but " + site + " left no cookies: the check may not be solved. Try again, or wait for the next probe.")
	case res.ProbeNote != "" && !res.ProbeAt.IsZero():
		c.message.Importance = widget.SuccessImportance
		c.message.SetText("Thanks — Notifio kept the cookies of " + site + ". Its next probe goes at " + words.ClockTime(res.ProbeAt) +
			", the earliest the wait allows, and carries them.")
	default:
		c.message.Importance = widget.SuccessImportance
		c.message.SetText("Thanks — Notifio kept the cookies of " + site + " and probes it now with them.")
	}
	c.message.Show()
	v.u.refresh()
}
