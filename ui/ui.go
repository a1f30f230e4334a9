// Package ui is Notifio's desktop window (Fyne): the searches with their live
// countdowns, the add/edit dialog with its dry run, the listings, the sites and
// their backoff, the settings and desktop notifications.
//
// It holds no business logic: it renders model.Snapshot values and calls the same
// operations the command line calls, through Backend (the watcher's API client in
// the real app: the window is a process of its own, the watcher and its tray icon
// another).
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
	"fyne.io/fyne/v2/theme"

	"notifio/internal/model"
)

// Preference keys (fyne.Preferences) the window remembers between runs.
const (
	prefWidth           = "window.width"
	prefHeight          = "window.height"
	prefView            = "window.view"
	prefCloseExplained  = "window.close_explained"
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
	// Watcher, when set, says how the watcher behind the window runs on its own
	// (the real app): the first close of the window says that watching goes on
	// and how to come back, and offers to stop watching instead.
	Watcher *WatcherProcess
	// StartAtLogin reads and switches whether the watcher starts when the user
	// logs in (Settings); nil hides the setting.
	StartAtLogin StartAtLogin
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

// WatcherProcess is what the window knows of the watcher process behind it.
type WatcherProcess struct {
	// TrayIcon is true when the watcher shows an icon in the tray (a tray host
	// answers on this desktop).
	TrayIcon bool
	// QuitAll stops the watcher (nil: this window cannot, e.g. a watcher on
	// another machine).
	QuitAll func() error
	// Restart starts the watcher again after it stopped (nil: cannot).
	Restart func() error
}

// StartAtLogin is whether the watcher starts when the user logs in.
type StartAtLogin interface {
	On() (bool, error)
	Set(on bool) error
}

// UI is Notifio's window. Create it with New. Its methods must be called
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

	snap model.Snapshot // the last snapshot applied; UI goroutine only

	tabs     *container.AppTabs
	searches *searchesView
	listings *listingsView
	sites    *sitesView
	settings *settingsView

	visible bool

	watcher      *WatcherProcess // nil in tests that do not set it
	startAtLogin StartAtLogin
	gone         dialog.Dialog // "the watcher stopped", while shown (watcher.go)

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
		now: opts.Now, dispatch: opts.Dispatch, openURL: opts.OpenURL,
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
	u.watcher, u.startAtLogin = opts.Watcher, opts.StartAtLogin
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
	u.version, u.dataDir = opts.Version, opts.DataDir
	u.win.SetMainMenu(u.newMainMenu())

	// Subscribe before reading the first snapshot, so no change falls in between;
	// apply drops a published snapshot older than the one already shown.
	u.cancelSub = b.Subscribe(func(s model.Snapshot) {
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

// ShowAndRun shows the window, runs the app until it quits, then calls Close.
func (u *UI) ShowAndRun() {
	u.show()
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
		// The tests stop; a save runs to its end (its job does not cancel).
		u.searches.editor.tester.cancel()
		u.settings.tester.cancel()
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
func (u *UI) apply(s model.Snapshot) {
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
}

// refresh re-reads the backend's state after an action of the user's, so the
// window shows its effect without waiting for the next published snapshot.
func (u *UI) refresh() { u.apply(u.b.Snapshot()) }

// searchSnap returns the last snapshot of a search.
func (u *UI) searchSnap(id string) (model.SearchSnapshot, bool) {
	for _, s := range u.snap.Searches {
		if s.ID == id {
			return s, true
		}
	}
	return model.SearchSnapshot{}, false
}

// siteSnap returns the last snapshot of a site.
func (u *UI) siteSnap(site string) (model.SiteSnapshot, bool) {
	for _, s := range u.snap.Sites {
		if s.Site == site {
			return s, true
		}
	}
	return model.SiteSnapshot{}, false
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

// show brings the window up.
func (u *UI) show() {
	u.visible = true
	u.setTicking(true)
	u.searches.catchUp() // snapshots that came while hidden
	u.tick()             // the countdowns stood still while hidden
	u.win.Show()
	u.win.RequestFocus()
}

// hide puts the window away; watching goes on.
func (u *UI) hide() {
	u.saveWindowSize()
	u.visible = false
	u.setTicking(false)
	u.win.Hide()
}

// closeWindow is what the window's close button does: it ends this window's
// process; the watcher, a process of its own, watches on. The first time, it
// says so and how to come back (the tray icon where a tray host answers,
// starting Notifio again in any case), and offers to stop watching instead.
func (u *UI) closeWindow() {
	if u.watcher == nil || u.prefs.Bool(prefCloseExplained) {
		u.quit()
		return
	}
	u.explainClose()
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
