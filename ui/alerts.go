package ui

import (
	"log/slog"
	"time"

	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"notifio/internal/model"
	"notifio/poll/words"
)

// alertsCard is the Settings card for health alerts: whether Notifio tells the
// user (email, phone, desktop) that a search stopped working, after how long,
// how often it reminds, and the daily summary.
type alertsCard struct {
	u         *UI
	on        *widget.Check
	after     *widget.Select
	remind    *widget.Select
	summary   *widget.Check
	summaryAt *widget.Entry
	result    *widget.Label
	card      *widget.Card

	// A change applies at once, as the page's other choices do (one way of
	// saving on the page besides the email form). One save runs at a time;
	// changes made meanwhile are saved after it (dirty), so an older save can
	// never land after a newer one.
	saving, dirty bool
}

// The choices offered; the command line takes any duration.
var (
	afterChoices  = durationChoices(15*time.Minute, 30*time.Minute, time.Hour, 2*time.Hour, 6*time.Hour, 24*time.Hour)
	remindChoices = []choice{{"every " + words.DurationWords(6*time.Hour), 6 * time.Hour},
		{"every " + words.DurationWords(12*time.Hour), 12 * time.Hour}, {"once a day", 24 * time.Hour}, {"never", 0}}
)

// durationChoices offers durations in the words the command line prints
// them in (words.DurationWords).
func durationChoices(ds ...time.Duration) []choice {
	out := make([]choice, len(ds))
	for i, d := range ds {
		out[i] = choice{words.DurationWords(d), d}
	}
	return out
}

type choice struct {
	words string
	d     time.Duration
}

func choiceWords(cs []choice) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.words
	}
	return out
}

// closest is the choice nearest to d (the command line may have set another).
func closest(cs []choice, d time.Duration) string {
	best := cs[0]
	for _, c := range cs {
		if (c.d - d).Abs() < (best.d - d).Abs() {
			best = c
		}
	}
	return best.words
}

func durationOf(cs []choice, w string) time.Duration {
	for _, c := range cs {
		if c.words == w {
			return c.d
		}
	}
	return 0
}

func newAlertsCard(u *UI) *alertsCard {
	c := &alertsCard{u: u}
	c.on = widget.NewCheck("Tell me when a search stops working (blocked, login expired, no results)", nil)
	c.after = widget.NewSelect(choiceWords(afterChoices), nil)
	c.remind = widget.NewSelect(choiceWords(remindChoices), nil)
	c.summary = widget.NewCheck("Send a daily summary, so silence can be trusted, at", nil)
	c.summaryAt = widget.NewEntry()
	c.summaryAt.SetPlaceHolder(model.DefaultSummaryAt)
	c.result = wrapped("")
	c.result.Hide()
	note := quietWrapped("A login that expired and messages that do not go out are told at once. " +
		"Alerts go by email, to your phone channels and as a desktop notification; " +
		"trouble with one channel is told through the others.")
	form := widget.NewForm(
		&widget.FormItem{Text: "When blocked or no results for", Widget: c.after},
		&widget.FormItem{Text: "Remind me while it lasts", Widget: c.remind},
	)
	c.card = widget.NewCard("Alerts when a search stops working", "",
		container.NewVBox(c.on, form, container.NewBorder(nil, nil, nil, c.summaryAt, c.summary), note,
			c.result))
	c.show(u.b.AlertSettings())
	c.on.OnChanged = func(bool) { c.saveSettings() }
	c.after.OnChanged = func(string) { c.saveSettings() }
	c.remind.OnChanged = func(string) { c.saveSettings() }
	c.summary.OnChanged = func(bool) { c.saveSettings() }
	c.summaryAt.OnChanged = func(string) { c.saveSettings() }
	return c
}

// show fills the card from a.
func (c *alertsCard) show(a model.AlertSettings) {
	c.on.SetChecked(!a.Off)
	c.after.SetSelected(closest(afterChoices, a.AfterOrDefault()))
	c.remind.SetSelected(closest(remindChoices, a.RemindEvery()))
	c.summary.SetChecked(a.Summary)
	c.summaryAt.SetText(a.SummaryClock())
}

// settings reads the card.
func (c *alertsCard) settings() model.AlertSettings {
	a := model.AlertSettings{Off: !c.on.Checked, After: durationOf(afterChoices, c.after.Selected),
		Summary: c.summary.Checked, SummaryAt: c.summaryAt.Text}
	if r := durationOf(remindChoices, c.remind.Selected); r == 0 {
		a.NoRemind = true
	} else {
		a.Remind = r
	}
	return a
}

// saveSettings saves off the UI goroutine (a database commit) and says how
// it went.
func (c *alertsCard) saveSettings() {
	a := c.settings()
	if err := a.Validate(); err != nil {
		c.say(err.Error(), widget.DangerImportance)
		return
	}
	if c.saving {
		c.dirty = true
		return
	}
	c.saving = true
	b := c.u.b
	go func() {
		err := b.SetAlertSettings(a)
		c.u.dispatch(func() {
			c.saving = false
			if c.dirty {
				c.dirty = false
				c.saveSettings()
				return
			}
			if err != nil {
				slog.Warn("save alert settings", "err", err)
				c.say("Notifio could not save the alert settings: "+backendWords(err), widget.DangerImportance)
				return
			}
			c.say("Alert settings saved.", widget.SuccessImportance)
		})
	}()
}

func (c *alertsCard) say(text string, imp widget.Importance) {
	c.result.Importance = imp
	showText(c.result, text)
	c.result.Refresh()
}
