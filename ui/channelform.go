package ui

import (
	"log/slog"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"notifio/internal/model"

	"notifio/internal/pushurl"
)

// The services the Add form offers, in its order; the last takes any URL.
const (
	formNtfy     = "ntfy (free, no account)"
	formTelegram = "Telegram"
	formPushover = "Pushover"
	formOther    = "Another service (paste its URL)"
)

// channelForm is the Add a channel dialog: a small form per service that
// builds the service URL (pushurl.NtfyURL, TelegramURL, PushoverURL), or a
// pasted URL, plus a name, the searches it gets and quiet hours.
type channelForm struct {
	v   *channelsView
	dlg dialog.Dialog

	service              *widget.Select
	server, topic        *keyEntry // ntfy
	botToken, chat       *keyEntry // Telegram
	appToken, userKey    *keyEntry // Pushover
	rawURL               *keyEntry // another service
	name, quiet          *keyEntry
	searches             *widget.CheckGroup
	searchIDs            map[string]string
	problem              *widget.Label
	addBtn               *widget.Button
	activity             *widget.Activity
	forms                map[string]*widget.Form // the chosen service's shows
	body                 *fyne.Container
	frame                *fyne.Container // body in its scroll, the problem below it
	ntfyHint, formatHint *widget.Label
	saving               bool
}

func (v *channelsView) openForm() {
	f := &channelForm{v: v}
	u := v.u
	f.service = widget.NewSelect([]string{formNtfy, formTelegram, formPushover, formOther}, f.serviceChosen)
	f.server = newKeyEntry(u, f.submit)
	f.server.SetPlaceHolder("ntfy.sh (or your own server, e.g. https://ntfy.example.org)")
	f.topic = newKeyEntry(u, f.submit)
	f.topic.SetPlaceHolder("a hard-to-guess name, e.g. flats-anna-7x2k")
	f.botToken = newKeyPasswordEntry(u, f.submit)
	f.botToken.SetPlaceHolder("from @BotFather, like 123456789:AAH…")
	f.chat = newKeyEntry(u, f.submit)
	f.chat.SetPlaceHolder("your chat ID, e.g. 123456789 (ask @userinfobot)")
	f.appToken = newKeyPasswordEntry(u, f.submit)
	f.appToken.SetPlaceHolder("your application's API token on pushover.net")
	f.userKey = newKeyPasswordEntry(u, f.submit)
	f.userKey.SetPlaceHolder("your user key from the pushover.net dashboard")
	f.rawURL = newKeyPasswordEntry(u, f.submit)
	f.rawURL.SetPlaceHolder("e.g. gotify://host/token or discord://token@id")
	f.name = newKeyEntry(u, f.submit)
	f.name.SetPlaceHolder("optional, e.g. Anna's phone")
	f.quiet = newKeyEntry(u, f.submit)
	f.quiet.SetPlaceHolder("optional, e.g. 23:00-07:00")
	names, ids := v.searchChoices()
	f.searches, f.searchIDs = widget.NewCheckGroup(names, nil), ids
	f.ntfyHint = quietWrappedLabel("Install the ntfy app on your phone and subscribe to the same topic. Anyone who knows the topic can read it, so make it hard to guess.")
	f.formatHint = quietWrappedLabel("Paste the address your service gives for notifications. Notifio knows ntfy, Telegram, Pushover, Gotify, Discord, Slack, Matrix and web hooks; its README shows how each address looks.")
	f.problem = wrapped("")
	f.problem.Importance = widget.DangerImportance
	f.problem.Hide()
	f.activity = widget.NewActivity()
	f.activity.Hide()
	// One form per service, the chosen one shown: a form whose items are
	// swapped kept drawing the first service's entries under the new labels.
	f.forms = map[string]*widget.Form{
		formNtfy: widget.NewForm(&widget.FormItem{Text: "Server", Widget: f.server}, &widget.FormItem{Text: "Topic", Widget: f.topic}),
		formTelegram: widget.NewForm(&widget.FormItem{Text: "Bot token", Widget: f.botToken},
			&widget.FormItem{Text: "Chat ID", Widget: f.chat, HintText: "Send /start to your bot first, or it cannot write to you."}),
		formPushover: widget.NewForm(&widget.FormItem{Text: "API token", Widget: f.appToken}, &widget.FormItem{Text: "User key", Widget: f.userKey}),
		formOther:    widget.NewForm(&widget.FormItem{Text: "Service URL", Widget: f.rawURL}),
	}
	fields := container.NewVBox(f.forms[formNtfy], f.forms[formTelegram], f.forms[formPushover], f.forms[formOther])
	var searchArea fyne.CanvasObject = quietWrappedLabel("It gets every search (you have none yet).")
	if len(names) > 0 {
		searchArea = container.NewVBox(quietWrappedLabel("Tick none to get every search, also those you add later."), f.searches)
	}
	common := widget.NewForm(
		&widget.FormItem{Text: "Name", Widget: f.name},
		&widget.FormItem{Text: "Quiet hours", Widget: f.quiet, HintText: "Pushes in these hours wait and arrive as one summary when they end."},
	)
	f.body = container.NewVBox(
		widget.NewForm(&widget.FormItem{Text: "Service", Widget: f.service}),
		fields, f.ntfyHint, f.formatHint, common,
		widget.NewLabelWithStyle("Searches", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), searchArea,
	)
	// The problem stays below the scrolling form, just above Add: under 24
	// search boxes it was out of sight.
	f.frame = container.NewBorder(nil, f.problem, nil, nil, container.NewVScroll(f.body))
	f.dlg = dialog.NewCustomWithoutButtons("Add a push channel", f.frame, u.win)
	f.addBtn = widget.NewButtonWithIcon("Add", theme.ContentAddIcon(), f.submit)
	f.addBtn.Importance = widget.HighImportance
	f.dlg.(*dialog.CustomDialog).SetButtons([]fyne.CanvasObject{
		widget.NewButton("Cancel", f.dlg.Hide), f.activity, f.addBtn})
	f.service.SetSelected(formNtfy)
	f.dlg.Resize(fyne.NewSize(620, 560))
	v.form = f
	u.showKeyed(f.dlg, f.submit, f.dlg.Hide, func() {
		if v.form == f {
			v.form = nil
		}
	})
}

// serviceChosen shows the fields of the chosen service.
func (f *channelForm) serviceChosen(s string) {
	for name, form := range f.forms {
		show(form, name == s)
	}
	show(f.ntfyHint, s == formNtfy)
	show(f.formatHint, s == formOther)
	showText(f.problem, "")
	f.relayout()
}

// relayout lays the form out again after parts appeared or went (twice: a
// wrapped hint knows its height only once it has a width).
func (f *channelForm) relayout() {
	if f.frame != nil {
		f.frame.Refresh()
		f.frame.Refresh()
	}
}

// show shows or hides o.
func show(o fyne.CanvasObject, on bool) {
	if on {
		o.Show()
	} else {
		o.Hide()
	}
}

// serviceURL builds the service URL from the form.
func (f *channelForm) serviceURL() (string, error) {
	switch f.service.Selected {
	case formNtfy:
		return pushurl.NtfyURL(f.server.Text, f.topic.Text)
	case formTelegram:
		return pushurl.TelegramURL(f.botToken.Text, f.chat.Text)
	case formPushover:
		return pushurl.PushoverURL(f.appToken.Text, f.userKey.Text)
	}
	raw := strings.TrimSpace(f.rawURL.Text)
	if raw == "" {
		return "", userError("Paste the service's URL, e.g. gotify://host/token.")
	}
	_, err := pushurl.CheckServiceURL(raw)
	return raw, err
}

// input reads the form, with the URL checked (nothing is contacted).
func (f *channelForm) input() (model.NewChannel, error) {
	raw, err := f.serviceURL()
	if err != nil {
		return model.NewChannel{}, err
	}
	in := model.NewChannel{Name: strings.TrimSpace(f.name.Text), URL: raw, Quiet: strings.TrimSpace(f.quiet.Text)}
	if _, err := model.ParseQuiet(in.Quiet); err != nil {
		return in, err
	}
	for _, n := range f.searches.Selected {
		in.Searches = append(in.Searches, f.searchIDs[n])
	}
	return in, nil
}

// submit saves the channel in the background: the keyring may take seconds.
func (f *channelForm) submit() {
	if f.saving {
		return
	}
	in, err := f.input()
	if err != nil {
		showText(f.problem, sentence(err.Error()))
		f.relayout()
		return
	}
	showText(f.problem, "")
	f.saving = true
	f.addBtn.Disable()
	f.activity.Show()
	f.activity.Start()
	b, v := f.v.u.b, f.v
	go func() {
		ch, warning, err := b.AddChannel(in)
		v.u.dispatch(func() {
			f.saving = false
			f.addBtn.Enable()
			f.activity.Stop()
			f.activity.Hide()
			if err != nil {
				slog.Info("add push channel", "service", ch.Service, "err", err)
				showText(f.problem, sentence(err.Error()))
				f.relayout()
				return
			}
			f.dlg.Hide()
			v.added(ch.Name, warning)
		})
	}()
}

// sentence starts text with a capital letter: notify's errors are written to
// follow "notifio: ".
func sentence(text string) string {
	if text == "" {
		return text
	}
	return strings.ToUpper(text[:1]) + text[1:]
}
