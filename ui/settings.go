package ui

import (
	"context"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"notifio/poll/words"

	"notifio/internal/model"
)

// testEmailTimeout bounds "Send test email" as a whole.
const testEmailTimeout = 2 * time.Minute

// securityChoices are the security modes as the settings form offers them.
var securityChoices = []struct {
	mode  model.Security
	words string
}{
	{model.SecurityStartTLS, "STARTTLS (usually port 587)"},
	{model.SecurityTLS, "TLS (usually port 465)"},
	{model.SecurityNone, "None (only for a mail bridge on this computer)"},
}

// settingsView is the Settings screen: email (presets, server, password kept in
// the keyring, a test email) and the window's own choices.
type settingsView struct {
	u *UI

	preset                       *widget.Select
	presetHint                   *widget.Label
	host, port, username         *widget.Entry
	password, from, to, pin      *widget.Entry
	security                     *widget.Select
	saveBtn, testBtn             *widget.Button
	activity                     *widget.Activity
	problem, warning, testResult *widget.Label

	interval        *widget.SelectEntry
	intervalProblem *widget.Label
	notifications   *widget.Check
	startAtLogin    *widget.Check // nil when the platform's start at login is not offered (watcher.go)
	alerts          *alertsCard

	channels *channelsView // phone push (channels.go)

	autoFrom string // the From the username filled in, "" when the user wrote it

	tester  job // "Send test email": a newer test supersedes it
	working int // email actions under way (busy)

	box     *fyne.Container // the cards, in a scroll
	frame   *fyne.Container // the scroll above the email actions
	content fyne.CanvasObject
}

func newSettingsView(u *UI) *settingsView {
	v := &settingsView{u: u}
	v.tester = job{dispatch: u.dispatch, timeout: testEmailTimeout, cancels: true, busy: v.busy}
	names := make([]string, len(model.Presets))
	for i, p := range model.Presets {
		names[i] = p.Name
	}
	v.presetHint = wrapped("")
	v.presetHint.Hide() // the chosen provider's advice on signing in; worth reading
	v.preset = widget.NewSelect(names, v.presetChosen)
	v.preset.PlaceHolder = "Choose your email provider"
	v.host = widget.NewEntry()
	v.host.SetPlaceHolder("smtp.example.com")
	v.port = widget.NewEntry()
	v.port.SetPlaceHolder("587")
	secWords := make([]string, len(securityChoices))
	for i, c := range securityChoices {
		secWords[i] = c.words
	}
	v.security = widget.NewSelect(secWords, nil)
	v.username = widget.NewEntry()
	v.username.SetPlaceHolder("usually your email address; empty if the server needs no sign-in")
	v.password = widget.NewPasswordEntry()
	v.password.SetPlaceHolder("kept in your system's keyring when it has one")
	v.from = widget.NewEntry()
	v.from.SetPlaceHolder("you@example.com")
	// The sender is nearly always the account itself: From follows the
	// username until the user writes a From of their own.
	v.username.OnChanged = func(user string) {
		if v.from.Text == "" || v.from.Text == v.autoFrom {
			v.autoFrom = ""
			if strings.Contains(user, "@") {
				v.autoFrom = strings.TrimSpace(user)
			}
			v.from.SetText(v.autoFrom)
		}
	}
	v.to = widget.NewEntry()
	v.to.SetPlaceHolder("you@example.com, flatmate@example.com")
	v.pin = widget.NewEntry()
	v.pin.SetPlaceHolder("optional: SHA-256 fingerprint of a mail bridge's own certificate")

	v.problem = wrapped("")
	v.problem.Importance = widget.DangerImportance
	v.problem.Hide()
	v.warning = wrapped("")
	v.warning.Importance = widget.WarningImportance
	v.warning.Hide()
	v.testResult = wrapped("")
	v.testResult.Hide()
	v.activity = widget.NewActivity()
	v.activity.Hide()
	v.saveBtn = widget.NewButtonWithIcon("Save email settings", theme.DocumentSaveIcon(), v.save)
	v.saveBtn.Importance = widget.HighImportance
	v.testBtn = widget.NewButtonWithIcon("Send test email", theme.MailSendIcon(), v.sendTest)

	email := widget.NewForm(
		&widget.FormItem{Text: "Provider", Widget: v.preset},
		&widget.FormItem{Text: "Server", Widget: v.host},
		&widget.FormItem{Text: "Port", Widget: v.port},
		&widget.FormItem{Text: "Security", Widget: v.security},
		&widget.FormItem{Text: "Username", Widget: v.username},
		&widget.FormItem{Text: "Password", Widget: v.password},
		&widget.FormItem{Text: "From", Widget: v.from},
		&widget.FormItem{Text: "To", Widget: v.to, HintText: "Separate several addresses with commas."},
		&widget.FormItem{Text: "Certificate", Widget: v.pin},
	)
	emailBox := container.NewVBox(v.presetHint, email)

	v.interval = widget.NewSelectEntry(words.IntervalOptions())
	v.interval.SetText(words.DurationWords(u.defaultInterval()))
	v.intervalProblem = wrapped("")
	v.intervalProblem.Importance = widget.DangerImportance
	v.intervalProblem.Hide()
	v.interval.OnChanged = v.intervalChanged
	v.notifications = newDesktopNotificationsCheck(u)
	v.startAtLogin = newStartAtLoginCheck(u)
	v.alerts = newAlertsCard(u)
	themeNote := quietWrapped("Notifio follows your system's light or dark theme.")
	general := container.NewVBox(
		widget.NewForm(&widget.FormItem{Text: "New searches check every", Widget: v.interval}),
		v.intervalProblem, v.notifications, themeNote,
	)
	if v.startAtLogin != nil {
		general.Add(v.startAtLogin)
	}

	v.channels = newChannelsView(u)
	v.box = container.NewVBox(
		widget.NewCard("Email", "Where Notifio sends a digest of new listings", emailBox),
		v.channels.card,
		widget.NewCard("Window and notifications", "", general),
		v.alerts.card,
	)
	// The email actions and what they said stay below the scrolling cards: at
	// 800×600 they were below the fold, and their answers further down.
	actions := container.NewVBox(widget.NewSeparator(), v.problem, v.warning,
		container.NewHBox(v.saveBtn, v.testBtn, v.activity), v.testResult)
	v.frame = container.NewBorder(nil, actions, nil, nil, container.NewVScroll(v.box))
	v.content = v.frame
	v.load()
	return v
}

// load fills the email form from the saved settings.
func (v *settingsView) load() {
	cfg, err := v.u.b.EmailConfig()
	if err != nil {
		slog.Warn("read email settings", "err", err)
		v.setProblem("Notifio could not read the saved email settings: " + err.Error())
		return
	}
	v.host.SetText(cfg.Host)
	if cfg.Port != 0 {
		v.port.SetText(strconv.Itoa(cfg.Port))
	}
	v.setSecurity(cfg.Security)
	v.username.SetText(cfg.Username)
	v.from.SetText(cfg.From)
	v.to.SetText(strings.Join(cfg.To, ", "))
	v.pin.SetText(cfg.PinnedCertSHA256)
	if p, ok := model.PresetFor(cfg.Host); ok {
		v.preset.SetSelected(p.Name)
	} else if cfg.Configured() {
		v.preset.SetSelected(model.Presets[len(model.Presets)-1].Name)
	}
	if cfg.Configured() && cfg.Username != "" {
		v.password.SetPlaceHolder("saved; type a new one to change it")
	}
}

// presetChosen fills server, port and security from a provider preset.
func (v *settingsView) presetChosen(name string) {
	for _, p := range model.Presets {
		if p.Name != name {
			continue
		}
		showText(v.presetHint, p.Hint)
		v.relayout()
		switch _, preset := model.PresetFor(v.host.Text); {
		case p.Host != "":
			v.host.SetText(p.Host)
			v.port.SetText(strconv.Itoa(p.Port))
			v.setSecurity(p.Security)
		case preset:
			// Custom after a provider: its server is not the user's. A server
			// they typed themselves stays.
			v.host.SetText("")
			v.port.SetText("")
		}
		return
	}
}

// setSecurity selects a security mode in the form.
func (v *settingsView) setSecurity(m model.Security) {
	for _, c := range securityChoices {
		if c.mode == m {
			v.security.SetSelected(c.words)
			return
		}
	}
	v.security.ClearSelected()
}

// config reads the email form.
func (v *settingsView) config() (model.Config, error) {
	cfg := model.Config{
		Host:             strings.TrimSpace(v.host.Text),
		Username:         strings.TrimSpace(v.username.Text),
		From:             strings.TrimSpace(v.from.Text),
		PinnedCertSHA256: strings.TrimSpace(v.pin.Text),
	}
	for _, c := range securityChoices {
		if c.words == v.security.Selected {
			cfg.Security = c.mode
		}
	}
	for _, to := range strings.FieldsFunc(v.to.Text, func(r rune) bool { return r == ',' || r == ';' }) {
		if to = strings.TrimSpace(to); to != "" {
			cfg.To = append(cfg.To, to)
		}
	}
	if p := strings.TrimSpace(v.port.Text); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil {
			return cfg, userError("The port must be a number, usually 587 (STARTTLS) or 465 (TLS).")
		}
		cfg.Port = n
	}
	return cfg, cfg.Validate()
}

// setProblem shows what is wrong with the email settings, one problem a line.
func (v *settingsView) setProblem(text string) {
	showText(v.problem, text)
	v.relayout()
}

// refuse shows what is wrong with the form. The last test email's result goes:
// it was about the settings as they were, and under the new problem it read as
// current.
func (v *settingsView) refuse(err error) {
	if !v.tester.running() { // a test still sending reports when it is done
		showText(v.testResult, "")
	}
	v.setProblem(backendWords(err))
}

// relayout lays the form out again after messages appeared or went. Twice: a
// wrapped message knows its height only once the first pass gave it a width.
func (v *settingsView) relayout() {
	if v.frame != nil {
		v.frame.Refresh()
		v.frame.Refresh()
	}
}

// relayoutIfBuilt is relayout for parts built before the Settings view was
// (the channels card, while newSettingsView runs).
func (v *settingsView) relayoutIfBuilt() {
	if v != nil {
		v.relayout()
	}
}

// save stores the email settings and the password (in the keyring).
func (v *settingsView) save() {
	cfg, err := v.config()
	if err != nil {
		v.refuse(err)
		return
	}
	v.setProblem("")
	// The keyring write can take up to 20 s (a locked keyring asks for its
	// password), and the database commits: off the UI goroutine, behind the
	// activity, ending in one dispatch.
	v.saveBtn.Disable()
	v.busy(1)
	v.testResult.Importance = widget.MediumImportance
	showText(v.testResult, "Saving the email settings…")
	v.relayout()
	b, password := v.u.b, v.password.Text
	go func() {
		warning, err := b.SetEmailConfig(cfg, password)
		v.u.dispatch(func() { v.saved(password, warning, err) })
	}()
}

// saved shows how saving the email settings went.
func (v *settingsView) saved(password, warning string, err error) {
	v.busy(-1)
	v.saveBtn.Enable()
	if err != nil {
		slog.Warn("save email settings", "err", err)
		showText(v.testResult, "")
		v.setProblem("Notifio could not save the email settings: " + backendWords(err))
		return
	}
	showText(v.warning, warning)
	if password != "" && v.password.Text == password {
		v.password.SetText("")
		// Where it was kept: the warning says when there was no keyring.
		where := "saved in your system's keyring; type a new one to change it"
		if warning != "" {
			where = "saved in a file only you can read (no keyring, see below); type a new one to change it"
		}
		v.password.SetPlaceHolder(where)
	}
	v.testResult.Importance = widget.SuccessImportance
	showText(v.testResult, "Email settings saved.")
	v.relayout()
}

// busy counts the email actions under way (a save, a test email) and shows
// the activity while there is one.
func (v *settingsView) busy(delta int) { countBusy(v.activity, &v.working, delta) }

// sendTest sends a test email in the background and shows the outcome: the
// server's exact words and what to do about them.
func (v *settingsView) sendTest() {
	cfg, err := v.config()
	if err != nil {
		v.refuse(err)
		return
	}
	v.setProblem("")
	v.testBtn.Disable()
	v.testResult.Importance = widget.MediumImportance
	showText(v.testResult, "Sending a test email to "+strings.Join(cfg.To, ", ")+"…")
	v.relayout()
	b, password := v.u.b, v.password.Text
	v.tester.start(func(ctx context.Context) func(bool) {
		err := b.SendTestEmail(ctx, cfg, password)
		return func(current bool) {
			if current {
				v.showTestResult(cfg, err)
			}
		}
	})
}

// showTestResult shows how the test email went.
func (v *settingsView) showTestResult(cfg model.Config, err error) {
	v.testBtn.Enable()
	if err == nil {
		v.testResult.Importance = widget.SuccessImportance
		showText(v.testResult, "Test email sent to "+strings.Join(cfg.To, ", ")+". Check your inbox (and the spam folder).")
		v.relayout()
		return
	}
	slog.Info("test email failed", "host", cfg.Host, "port", cfg.Port, "err", err)
	v.testResult.Importance = widget.DangerImportance
	showText(v.testResult, words.EmailTestFailed(err).Words())
	v.relayout()
}

// intervalChanged stores the default interval for new searches once it is valid.
func (v *settingsView) intervalChanged(text string) {
	d, err := words.ParseInterval(text)
	if err != nil {
		showText(v.intervalProblem, err.Error())
		v.relayout()
		return
	}
	showText(v.intervalProblem, "")
	v.relayout()
	v.u.prefs.SetInt(prefDefaultInterval, int(d/time.Second))
}
