// Package ui is Notifio's desktop window (Fyne): the searches with their live
// countdowns, the add/edit dialog with its dry run, the listings, the sites and
// their backoff, the email settings, the tray and desktop notifications.
//
// It holds no business logic: it renders poll.Snapshot values and calls the same
// operations the command line calls, through Backend.
package ui

import (
	"fmt"
	"log/slog"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"

	"notifio/poll"
)

// Preference keys (fyne.Preferences) the window remembers between runs.
const (
	prefWidth           = "window.width"
	prefHeight          = "window.height"
	prefView            = "window.view"
	prefNotifications   = "notifications.desktop"
	prefCloseToTray     = "tray.close_keeps_watching"
	prefStartInTray     = "tray.start_minimised"
	prefDefaultInterval = "searches.default_interval_seconds"
)

// The views of the main window, in tab order (the index is stored in preferences).
const (
	viewSearches = iota
	viewListings
	viewSites
	viewSettings
)

// Options tune a UI; the zero value is right for the real app.
type Options struct {
	// Now is the clock for countdowns; nil means time.Now.
	Now func() time.Time
	// Dispatch runs a function on the Fyne UI goroutine; nil means fyne.Do. Tests
	// pass a recording dispatcher and run what it recorded on the test goroutine.
	Dispatch func(func())
	// OpenURL opens a link in the browser or a file in its viewer; nil means the
	// app's OpenURL.
	OpenURL func(*url.URL) error
	// SendNotification shows a desktop notification; nil means the app's
	// SendNotification. It is called only when the user has notifications on.
	SendNotification func(*fyne.Notification)
	// StartHidden starts in the tray without showing the window (when the platform
	// has a tray), as if the user had chosen "start minimised to the tray".
	StartHidden bool
	// TickEvery is the period of the countdown ticker; 0 means one second.
	TickEvery time.Duration
	// NewTicker makes the countdown ticker; nil means time.NewTicker. Tests pass
	// one whose ticks they send themselves and whose Stop and Reset they see.
	NewTicker func(time.Duration) Ticker
	// Version is shown in the About dialog (main passes FyneApp.toml's Version);
	// "" or "dev" reads as a development build.
	Version string
	// DataDir is the data folder shown in the About dialog; "" means the default
	// (os.UserConfigDir()/notifio).
	DataDir string
}

// Ticker is what the countdowns run on: a time.Ticker, or a test's own.
type Ticker interface {
	// Chan delivers the ticks.
	Chan() <-chan time.Time
	// Stop stops the ticks until Reset.
	Stop()
	// Reset starts the ticks again, d apart.
	Reset(d time.Duration)
}

// realTicker is a time.Ticker as a Ticker.
type realTicker struct{ *time.Ticker }

func (t realTicker) Chan() <-chan time.Time { return t.C }

// UI is Notifio's window and tray. Create it with New. Its methods must be called
// on the Fyne UI goroutine, except Notify and NotifyDigest, which are safe from any
// goroutine.
type UI struct {
	app      fyne.App
	win      fyne.Window
	b        Backend
	prefs    fyne.Preferences
	now      func() time.Time
	dispatch func(func())
	openURL  func(*url.URL) error
	sendNote func(*fyne.Notification)

	snap poll.Snapshot // the last snapshot applied; UI goroutine only

	tabs     *container.AppTabs
	searches *searchesView
	listings *listingsView
	sites    *sitesView
	settings *settingsView

	tray        *fyne.Menu // nil when the platform has no tray
	trayShow    *fyne.MenuItem
	trayPause   *fyne.MenuItem
	trayHealth  *fyne.MenuItem // how the searches are, in the words alerts use
	visible     bool
	startHidden bool

	version, dataDir string // for the About dialog (about.go)

	thumbs *thumbs // listing photos (thumbs.go); made on first use

	cancelSub func()
	done      chan struct{}
	closeOnce sync.Once

	dialogs []keyedDialog // open dialogs that take Enter and Escape, top last (keys.go)

	// tickOff stops the countdown ticker while the window is hidden in the tray;
	// resume wakes it (runTicker).
	tickOff atomic.Bool
	resume  chan struct{}
}

// New builds the window over b and subscribes to its snapshots. The countdown
// ticker runs from here until Close. The window is not shown: call ShowAndRun.
func New(a fyne.App, b Backend, opts Options) *UI {
	u := &UI{
		app: a, b: b, prefs: a.Preferences(),
		now: opts.Now, dispatch: opts.Dispatch, openURL: opts.OpenURL, sendNote: opts.SendNotification,
		done: make(chan struct{}), resume: make(chan struct{}, 1),
	}
	if u.now == nil {
		u.now = time.Now
	}
	if u.dispatch == nil {
		u.dispatch = fyne.Do
	}
	if u.openURL == nil {
		u.openURL = a.OpenURL
	}
	if u.sendNote == nil {
		u.sendNote = a.SendNotification
	}
	u.startHidden = opts.StartHidden || u.prefs.Bool(prefStartInTray)
	useAppTheme(a)

	u.win = a.NewWindow("Notifio")
	u.searches = newSearchesView(u)
	u.listings = newListingsView(u)
	u.sites = newSitesView(u)
	u.settings = newSettingsView(u)
	u.tabs = container.NewAppTabs(
		container.NewTabItemWithIcon("Searches", theme.SearchIcon(), u.searches.content),
		container.NewTabItemWithIcon("Listings", theme.ListIcon(), u.listings.content),
		container.NewTabItemWithIcon("Sites", theme.ComputerIcon(), u.sites.content),
		container.NewTabItemWithIcon("Settings", theme.SettingsIcon(), u.settings.content),
	)
	u.tabs.OnSelected = func(*container.TabItem) { u.viewChanged() }
	u.win.SetContent(u.tabs)
	u.win.Canvas().SetOnTypedKey(u.typedKey)
	u.win.Resize(fyne.NewSize(
		float32(u.prefs.FloatWithFallback(prefWidth, 900)),
		float32(u.prefs.FloatWithFallback(prefHeight, 620)),
	))
	u.win.SetCloseIntercept(u.closeWindow)
	u.setupTray()
	u.version, u.dataDir = opts.Version, opts.DataDir
	u.win.SetMainMenu(u.newMainMenu())

	// Subscribe before reading the first snapshot, so no change falls in between;
	// apply drops a published snapshot older than the one already shown.
	u.cancelSub = b.Subscribe(func(s poll.Snapshot) {
		u.dispatch(func() { u.apply(s) })
	})
	u.apply(b.Snapshot())
	if v := u.prefs.Int(prefView); v > 0 && v < len(u.tabs.Items) {
		u.tabs.SelectIndex(v)
	}
	every := opts.TickEvery
	if every <= 0 {
		every = time.Second
	}
	newTicker := opts.NewTicker
	if newTicker == nil {
		newTicker = func(d time.Duration) Ticker { return realTicker{time.NewTicker(d)} }
	}
	go u.runTicker(newTicker(every), every)
	return u
}

// Window returns the main window.
func (u *UI) Window() fyne.Window { return u.win }

// ShowAndRun shows the window (unless the user chose to start in the tray and the
// platform has one), runs the app until it quits, then calls Close.
func (u *UI) ShowAndRun() {
	if !u.startHidden || u.tray == nil {
		u.show()
	} else {
		u.setTicking(false)
	}
	u.app.Run()
	u.Close()
}

// Close stops the countdown ticker and the snapshot subscription and remembers the
// window size. It does not quit the app; it is safe to call more than once.
func (u *UI) Close() {
	u.closeOnce.Do(func() {
		close(u.done)
		if u.cancelSub != nil {
			u.cancelSub()
		}
		u.searches.editor.cancelTest()
		u.settings.cancelTest()
		u.saveWindowSize()
	})
}

// runTicker drives every countdown in the window from one ticker: one dispatch a
// second, and only labels whose words changed are set. While the window is hidden
// (setTicking(false)) the ticker is stopped and nothing is dispatched.
func (u *UI) runTicker(t Ticker, every time.Duration) {
	defer t.Stop()
	for {
		if u.tickOff.Load() {
			t.Stop()
			select {
			case <-u.done:
				return
			case <-u.resume:
			}
			t.Reset(every)
			continue
		}
		select {
		case <-u.done:
			return
		case <-u.resume:
		case <-t.Chan():
			u.dispatch(u.tick)
		}
	}
}

// setTicking starts or stops the countdown ticker (the window shows or hides).
func (u *UI) setTicking(on bool) {
	u.tickOff.Store(!on)
	select {
	case u.resume <- struct{}{}:
	default:
	}
}

// tick refreshes the countdowns of the view on screen against the clock (a view
// catches up when it is selected: viewChanged). Nothing while hidden.
func (u *UI) tick() {
	select {
	case <-u.done:
		return
	default:
	}
	if u.tickOff.Load() {
		return
	}
	now := u.now()
	switch u.tabs.SelectedIndex() {
	case viewSearches:
		u.searches.tick(now)
	case viewSites:
		u.sites.tick(now)
	}
}

// apply renders a new snapshot in every view.
func (u *UI) apply(s poll.Snapshot) {
	if s.At.Before(u.snap.At) {
		return // a snapshot that was overtaken on its way to the UI goroutine
	}
	s.Searches = sortedSearches(s.Searches)
	u.snap = s
	now := u.now()
	u.searches.apply(s, now)
	u.sites.apply(s, now)
	u.listings.apply(s, now)
	u.settings.channels.outboxChanged(s.Outbox, u.tabs != nil && u.tabs.SelectedIndex() == viewSettings)
	u.updateTray()
}

// refresh re-reads the backend's state after an action of the user's, so the
// window shows its effect without waiting for the next published snapshot.
func (u *UI) refresh() { u.apply(u.b.Snapshot()) }

// searchSnap returns the last snapshot of a search.
func (u *UI) searchSnap(id string) (poll.SearchSnapshot, bool) {
	for _, s := range u.snap.Searches {
		if s.ID == id {
			return s, true
		}
	}
	return poll.SearchSnapshot{}, false
}

// siteSnap returns the last snapshot of a site.
func (u *UI) siteSnap(site string) (poll.SiteSnapshot, bool) {
	for _, s := range u.snap.Sites {
		if s.Site == site {
			return s, true
		}
	}
	return poll.SiteSnapshot{}, false
}

// viewChanged remembers the selected view and tells it that it is showing.
func (u *UI) viewChanged() {
	i := u.tabs.SelectedIndex()
	u.prefs.SetInt(prefView, i)
	switch i {
	case viewListings:
		u.listings.shown()
	case viewSettings:
		u.settings.channels.load() // how the pushes are doing now
	}
	u.tick()
}

// selectView switches the main window to one of its views.
func (u *UI) selectView(i int) { u.tabs.SelectIndex(i) }

// showListings opens the listings of one search.
func (u *UI) showListings(searchID string) {
	u.listings.choose(searchID)
	u.selectView(viewListings)
}

// open opens a link or a file with the system's handler and tells the user when
// that fails.
func (u *UI) open(raw string) {
	target, err := url.Parse(raw)
	if err == nil {
		err = u.openURL(target)
	}
	if err != nil {
		slog.Warn("open link", "url", raw, "err", err)
		u.showError("Could not open the link", fmt.Sprintf("Notifio could not open %s: %v", raw, err))
	}
}

// showError shows a problem in a dialog, in the user's words.
func (u *UI) showError(title, text string) {
	u.showMessage(title, text)
}

// showMessage shows an information dialog with wrapped text.
func (u *UI) showMessage(title, text string) {
	d := dialog.NewCustom(title, "OK", wrapped(text), u.win)
	d.Resize(fyne.NewSize(460, 0))
	u.showKeyed(d, d.Hide, d.Hide, nil)
}

// Notify shows a desktop notification unless the user turned them off in
// Settings. It is safe to call from any goroutine, so the notify package can use
// the UI as its desktop notifier.
func (u *UI) Notify(title, body string) {
	if !u.prefs.BoolWithFallback(prefNotifications, true) {
		return
	}
	u.sendNote(fyne.NewNotification(title, body))
}

// NotifyDigest announces n new listings of one search ("3 new on Kreuzberg <
// 1200 €"), honouring the user's choice. It is safe to call from any goroutine.
func (u *UI) NotifyDigest(searchName string, n int) {
	if n <= 0 {
		return
	}
	body := "Open Notifio to see them."
	if n == 1 {
		body = "Open Notifio to see it."
	}
	u.Notify(fmt.Sprintf("%d new on %s", n, searchName), body)
}

// show brings the window up.
func (u *UI) show() {
	u.visible = true
	u.setTicking(true)
	u.searches.catchUp() // snapshots that came while hidden
	u.tick()             // the countdowns stood still while hidden
	u.win.Show()
	u.win.RequestFocus()
	u.updateTray()
}

// hide puts the window away; watching goes on.
func (u *UI) hide() {
	u.saveWindowSize()
	u.visible = false
	u.setTicking(false)
	u.win.Hide()
	u.updateTray()
}

// closeWindow is what the window's close button does: keep watching in the tray
// when the user chose so and there is a tray, quit otherwise. It is off until
// chosen: Fyne cannot tell whether the desktop really shows tray icons (GNOME
// without an extension does not), and a window that hides with no icon to bring
// it back leaves Notifio running out of reach.
func (u *UI) closeWindow() {
	if u.tray != nil && u.prefs.BoolWithFallback(prefCloseToTray, false) {
		u.hide()
		return
	}
	u.quit()
}

// quit ends the app.
func (u *UI) quit() {
	u.Close()
	u.app.Quit()
}

// saveWindowSize remembers the window size for the next start.
func (u *UI) saveWindowSize() {
	sz := u.win.Canvas().Size()
	if sz.Width < 200 || sz.Height < 200 {
		return
	}
	u.prefs.SetFloat(prefWidth, float64(sz.Width))
	u.prefs.SetFloat(prefHeight, float64(sz.Height))
}

// setupTray installs the tray menu when the platform has a tray.
func (u *UI) setupTray() {
	desk, ok := u.app.(desktop.App)
	if !ok || !trayHostLikely() {
		return
	}
	u.tray = u.newTrayMenu()
	desk.SetSystemTrayMenu(u.tray)
	desk.SetSystemTrayWindow(u.win)
}

// newTrayMenu builds the tray menu: show/hide, pause all, quit.
func (u *UI) newTrayMenu() *fyne.Menu {
	u.trayShow = fyne.NewMenuItem("Show Notifio", func() {
		if u.visible {
			u.hide()
		} else {
			u.show()
		}
	})
	u.trayPause = fyne.NewMenuItem("Pause all searches", func() { u.pauseAll(!u.allPaused()) })
	u.trayHealth = fyne.NewMenuItem(trayHealthWords(u.snap), u.show)
	quit := fyne.NewMenuItem("Quit", u.quit)
	quit.IsQuit = true
	return fyne.NewMenu("Notifio", u.trayShow, u.trayPause, u.trayHealth, fyne.NewMenuItemSeparator(), quit)
}

// updateTray keeps the tray labels in step with the window and the searches.
func (u *UI) updateTray() {
	if u.tray == nil {
		return
	}
	show, pause := "Show Notifio", "Pause all searches"
	if u.visible {
		show = "Hide Notifio"
	}
	if u.allPaused() {
		pause = "Resume all searches"
	}
	health := trayHealthWords(u.snap)
	if u.trayShow.Label == show && u.trayPause.Label == pause && u.trayHealth.Label == health {
		return
	}
	u.trayShow.Label, u.trayPause.Label, u.trayHealth.Label = show, pause, health
	u.tray.Refresh()
}

// allPaused reports whether there are searches and all of them are paused.
func (u *UI) allPaused() bool {
	if len(u.snap.Searches) == 0 {
		return false
	}
	for _, s := range u.snap.Searches {
		if s.State != poll.StatePaused {
			return false
		}
	}
	return true
}

// pauseAll pauses or resumes every search.
func (u *UI) pauseAll(paused bool) {
	if err := u.b.PauseAll(paused); err != nil {
		slog.Warn("pause all searches", "paused", paused, "err", err)
		u.showError("Could not change the searches", "Notifio could not pause or resume the searches: "+backendWords(err))
		return
	}
	u.refresh()
}
