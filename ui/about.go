package ui

import (
	"net/url"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	fstorage "fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/widget"

	"notifio/internal/datadir"
)

// website is Notifio's home page; it must match Website in FyneApp.toml (a test
// checks that it does).
const website = "https://notifio.app"

// aboutView is the About dialog's content: name, version, the folder that holds
// the user's data, the folder of the window's own settings, and the website. It is
// built and used on the Fyne UI goroutine only.
type aboutView struct {
	content  *fyne.Container
	name     *widget.Label
	version  *widget.Label
	dataDir  *widget.Label
	prefsDir *widget.Label
	openDir  *widget.Button
	website  *widget.Hyperlink
}

// newAboutView builds the About content from what the UI was given: the version
// and data folder come from Options (main passes the FyneApp.toml version and the
// folder it opened).
func newAboutView(u *UI) *aboutView {
	v := &aboutView{}
	v.name = widget.NewLabelWithStyle("Notifio", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	v.version = widget.NewLabel(versionWords(u.version))

	dir := u.dataDir
	if dir == "" {
		// main always passes the folder it opened; this is for callers that do not.
		if d, err := datadir.Default(); err == nil {
			dir = d
		}
	}
	v.dataDir = widget.NewLabel(dir)
	v.dataDir.Selectable = true
	v.dataDir.Wrapping = fyne.TextWrapBreak
	v.openDir = widget.NewButton("Open data folder", func() {
		u.open(fstorage.NewFileURI(dir).String())
	})
	if dir == "" {
		v.dataDir.SetText("unknown (start Notifio with --data DIR)")
		v.openDir.Disable()
	}

	// Fyne keeps the window's own settings (size, last tab, notification
	// choice) apart from the data, in its per-app folder.
	prefs := ""
	if root := u.app.Storage().RootURI(); root != nil {
		prefs = root.Path()
	}
	v.prefsDir = widget.NewLabel(prefs)
	v.prefsDir.Selectable = true
	v.prefsDir.Wrapping = fyne.TextWrapBreak

	link, _ := url.Parse(website)
	v.website = widget.NewHyperlink(website, link)
	v.website.OnTapped = func() { u.open(website) }

	var icon fyne.CanvasObject = widget.NewLabel("")
	if res := u.app.Icon(); res != nil {
		img := canvas.NewImageFromResource(res)
		img.FillMode = canvas.ImageFillContain
		img.SetMinSize(fyne.NewSize(64, 64))
		icon = img
	}
	head := container.NewBorder(nil, nil, icon, nil,
		container.NewVBox(v.name, v.version, v.website))
	v.content = container.NewVBox(
		head,
		widget.NewSeparator(),
		widget.NewLabelWithStyle("Your data (searches, listings, email settings)", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		v.dataDir,
		container.NewHBox(v.openDir),
		widget.NewLabelWithStyle("Window settings", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		v.prefsDir,
	)
	return v
}

// versionWords is the version line of the About dialog.
func versionWords(version string) string {
	if version == "" || version == "dev" {
		return "Development build (no version number)"
	}
	return "Version " + version
}

// showAbout opens the About dialog over the main window.
func (u *UI) showAbout() {
	v := newAboutView(u)
	d := dialog.NewCustom("About Notifio", "Close", v.content, u.win)
	d.Resize(fyne.NewSize(520, 0))
	// Escape and Enter close it, as in the window's other dialogs.
	u.showKeyed(d, d.Hide, d.Hide, nil)
}

// newMainMenu is the window's menu: About, and Quit (which macOS shows in its own
// application menu instead).
func (u *UI) newMainMenu() *fyne.MainMenu {
	about := fyne.NewMenuItem("About Notifio", u.showAbout)
	quit := fyne.NewMenuItem("Quit", u.closeWindow) // as the close button: the first time it says watching goes on
	quit.IsQuit = true
	return fyne.NewMainMenu(fyne.NewMenu("Notifio", about, fyne.NewMenuItemSeparator(), quit))
}
