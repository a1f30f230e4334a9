package ui

import (
	"fmt"
	"log/slog"

	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"notifio/internal/model"
	"notifio/poll/filter"
	"notifio/poll/words"
)

// filterForm is the Filters section of the add/edit dialog: which listings
// the user wants to hear about. It only reads and shows model.Filters; the
// matching is poll/filter's, so the window and the CLI agree.
type filterForm struct {
	minPrice, maxPrice, minRooms, minSize *keyEntry
	include, exclude                      *keyEntry
	hidePromoted, priceShown              *widget.Check
	priceDrops, priceRises                *widget.Check
	accordion                             *widget.Accordion
}

func newFilterForm(u *UI, submit func()) *filterForm {
	f := &filterForm{}
	f.minPrice, f.maxPrice = newKeyEntry(u, submit), newKeyEntry(u, submit)
	f.minRooms, f.minSize = newKeyEntry(u, submit), newKeyEntry(u, submit)
	f.include, f.exclude = newKeyEntry(u, submit), newKeyEntry(u, submit)
	f.minPrice.SetPlaceHolder("no lower limit")
	f.maxPrice.SetPlaceHolder("no upper limit, e.g. 1.200")
	f.minRooms.SetPlaceHolder("any, e.g. 2 or 2,5")
	f.minSize.SetPlaceHolder("any, e.g. 50")
	f.include.SetPlaceHolder(`e.g. Balkon "ruhige Lage"`)
	f.exclude.SetPlaceHolder("e.g. WG Tausch Zwischenmiete")
	f.hidePromoted = widget.NewCheck("Hide promoted listings (ads)", nil)
	f.priceShown = widget.NewCheck("Only listings that show a price", nil)
	f.priceDrops = widget.NewCheck("Tell me when a price drops", nil)
	f.priceRises = widget.NewCheck("Tell me when a price goes up", nil)
	form := widget.NewForm(
		&widget.FormItem{Text: "Price from", Widget: f.minPrice},
		&widget.FormItem{Text: "Price up to", Widget: f.maxPrice, HintText: "In the listing's own currency."},
		&widget.FormItem{Text: "Rooms, at least", Widget: f.minRooms},
		&widget.FormItem{Text: "Size, at least (m²)", Widget: f.minSize},
		&widget.FormItem{Text: "Must mention", Widget: f.include, HintText: "All of these words."},
		&widget.FormItem{Text: "Must not mention", Widget: f.exclude},
	)
	note := quietWrapped("Words count in the title or the location; capitals and accents do not matter, and \"quoted words\" are one phrase. " +
		"A listing that does not show a price, rooms or size is still sent, marked (\"price not shown\"). " +
		"Listings held back are remembered: loosen a filter later and Notifio offers to show them.")
	box := container.NewVBox(form, f.hidePromoted, f.priceShown, f.priceDrops, f.priceRises, note)
	f.accordion = widget.NewAccordion(widget.NewAccordionItem("Filters", box))
	f.set(model.Filters{})
	return f
}

// set shows filters in the form, opening the section when any is set.
func (f *filterForm) set(fl model.Filters) {
	amount := func(v float64) string {
		if v == 0 {
			return ""
		}
		return filter.Num(v)
	}
	f.minPrice.SetText(amount(fl.MinPrice))
	f.maxPrice.SetText(amount(fl.MaxPrice))
	f.minRooms.SetText(amount(fl.MinRooms))
	f.minSize.SetText(amount(fl.MinSize))
	f.include.SetText(filter.FormatWords(fl.Include))
	f.exclude.SetText(filter.FormatWords(fl.Exclude))
	f.hidePromoted.SetChecked(fl.HidePromoted)
	f.priceShown.SetChecked(fl.PriceShown)
	f.priceDrops.SetChecked(!fl.NoPriceDrops)
	f.priceRises.SetChecked(fl.PriceRises)
	if fl.IsZero() {
		f.accordion.Close(0)
	} else {
		f.accordion.Open(0)
	}
}

// read returns the filters the form says, or what to fix in the user's words.
func (f *filterForm) read() (model.Filters, error) {
	var fl model.Filters
	for _, a := range []struct {
		label string
		in    *keyEntry
		to    *float64
	}{{"Price from", f.minPrice, &fl.MinPrice}, {"Price up to", f.maxPrice, &fl.MaxPrice},
		{"Rooms, at least", f.minRooms, &fl.MinRooms}, {"Size, at least", f.minSize, &fl.MinSize}} {
		// One reader of what people type, for the window and the command line
		// ("1.200", "1200 €", "2k"; "1.2.3" is refused as ambiguous).
		v, err := filter.ParseAmount(a.in.Text)
		if err != nil {
			return fl, userError(fmt.Sprintf("Filters, “%s”: %s.", a.label, words.UpperFirst(err.Error())))
		}
		*a.to = v
	}
	var err error
	if fl.Include, err = filter.ParseWords(f.include.Text); err != nil {
		return fl, userError("Filters, “Must mention”: " + words.UpperFirst(err.Error()) + ".")
	}
	if fl.Exclude, err = filter.ParseWords(f.exclude.Text); err != nil {
		return fl, userError("Filters, “Must not mention”: " + words.UpperFirst(err.Error()) + ".")
	}
	fl.HidePromoted, fl.PriceShown = f.hidePromoted.Checked, f.priceShown.Checked
	fl.NoPriceDrops, fl.PriceRises = !f.priceDrops.Checked, f.priceRises.Checked
	if err := filter.Check(fl); err != nil {
		return fl, userError("Filters: " + words.UpperFirst(err.Error()) + ".")
	}
	return fl, nil
}

// offerHeld runs after a save that loosened the filters: when listings held
// back earlier now pass, it asks whether to show them in the window (never by
// email). Disk work runs off the UI goroutine.
func (u *UI) offerHeld(id string) {
	go func() {
		passing, err := u.b.HeldNowPassing(id)
		if err != nil {
			slog.Warn("read held-back listings", "search_id", id, "err", err)
			return
		}
		if len(passing) == 0 {
			return
		}
		u.dispatch(func() {
			msg := fmt.Sprintf("%d listing(s) that your filters held back earlier pass them now.\nShow them under Listings? (No email is sent for them.)", len(passing))
			dialog.ShowConfirm("Show listings held back?", msg, func(yes bool) {
				if yes {
					go u.showHeld(id, passing)
				}
			}, u.win)
		})
	}()
}

func (u *UI) showHeld(id string, passing []model.Listing) {
	_, err := u.b.ShowHeld(id, passing)
	u.dispatch(func() {
		if err != nil {
			u.showError("Could not show the listings", words.UpperFirst(backendWords(err)))
			return
		}
		u.refresh()
	})
}

// filtersLooser reports whether saving after instead of before may let
// through listings held back earlier.
func filtersLooser(before, after model.Filters) bool { return filter.Looser(before, after) }
