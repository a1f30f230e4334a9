// Package tray is the watcher's icon in the system tray (fyne.io/systray: a
// D-Bus StatusNotifierItem on Linux, no GL, no window toolkit): a line on how
// the searches are, "Open Notifio" (the window, its own process), "Pause all"
// or "Resume all", and "Quit Notifio", which stops the watcher.
//
// The menu is plain data (Menu.Items) kept in step with the watcher's
// snapshots; systray.go puts it on the screen.
package tray

import (
	"fmt"
	"log/slog"
	"sync"
	"unicode"
	"unicode/utf8"

	"notifio/internal/model"
)

// Watcher is what the tray needs from the watcher (*poll.Service).
type Watcher interface {
	Snapshot() model.Snapshot
	Subscribe(fn func(model.Snapshot)) (cancel func())
	PauseAll(paused bool) error
}

// Options are what the tray's items do beyond the watcher.
type Options struct {
	// Open starts the window (a process of its own).
	Open func() error
	// Quit stops the watcher cleanly; the tray goes with it.
	Quit func()
	// Logger; nil means slog.Default().
	Logger *slog.Logger
}

// Item is one line of the tray's menu as data: what it says, whether it can
// be clicked, what clicking does. A separator has no Label.
type Item struct {
	Label   string
	Enabled bool
	Action  func()
}

// Menu is the tray's menu over a watcher. Its methods are safe from any
// goroutine.
type Menu struct {
	w    Watcher
	opts Options
	log  *slog.Logger

	mu      sync.Mutex
	snap    model.Snapshot
	changed func() // the screen's refresh; nil until shown
}

// Indexes of the items in Items (systray.go keeps one native item per index).
const (
	itemHealth = iota
	itemSep1
	itemOpen
	itemPause
	itemSep2
	itemQuit
	itemCount
)

// NewMenu builds the menu from the watcher's snapshot and follows it until
// the returned cancel is called.
func NewMenu(w Watcher, opts Options) (*Menu, func()) {
	m := &Menu{w: w, opts: opts, log: opts.Logger}
	if m.log == nil {
		m.log = slog.Default()
	}
	cancel := w.Subscribe(m.update)
	m.update(w.Snapshot())
	return m, cancel
}

// update takes a newer snapshot and tells the screen.
func (m *Menu) update(s model.Snapshot) {
	m.mu.Lock()
	if s.At.Before(m.snap.At) {
		m.mu.Unlock()
		return
	}
	m.snap = s
	changed := m.changed
	m.mu.Unlock()
	if changed != nil {
		changed()
	}
}

// onChange sets the function called after every change of the items.
func (m *Menu) onChange(fn func()) {
	m.mu.Lock()
	m.changed = fn
	m.mu.Unlock()
}

// Items is the menu as it stands.
func (m *Menu) Items() []Item {
	m.mu.Lock()
	s := m.snap
	m.mu.Unlock()
	pause, paused := "Pause all searches", allPaused(s)
	if paused {
		pause = "Resume all searches"
	}
	items := make([]Item, itemCount)
	items[itemHealth] = Item{Label: HealthLine(s)}
	items[itemOpen] = Item{Label: "Open Notifio", Enabled: true, Action: m.open}
	items[itemPause] = Item{Label: pause, Enabled: len(s.Searches) > 0, Action: func() { m.pauseAll(!paused) }}
	items[itemQuit] = Item{Label: "Quit Notifio (stop watching)", Enabled: true, Action: m.quit}
	return items
}

// Tooltip is what the icon says when pointed at.
func (m *Menu) Tooltip() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return "Notifio: " + HealthLine(m.snap)
}

func (m *Menu) open() {
	if m.opts.Open == nil {
		return
	}
	if err := m.opts.Open(); err != nil {
		m.log.Error("tray: could not open the window", "err", err)
	}
}

func (m *Menu) pauseAll(paused bool) {
	if err := m.w.PauseAll(paused); err != nil {
		m.log.Error("tray: pause all searches", "paused", paused, "err", err)
		return
	}
	m.update(m.w.Snapshot())
}

func (m *Menu) quit() {
	if m.opts.Quit != nil {
		m.opts.Quit()
	}
}

// allPaused reports whether there are searches and all of them are paused.
func allPaused(s model.Snapshot) bool {
	if len(s.Searches) == 0 {
		return false
	}
	for _, ss := range s.Searches {
		if ss.State != model.StatePaused {
			return false
		}
	}
	return true
}

// HealthLine is the tray's line about the searches, in the words the alerts
// use (poll's Health.Problem): all working, the one that needs the user, or
// how many do.
func HealthLine(s model.Snapshot) string {
	var troubled []model.SearchSnapshot
	for _, ss := range s.Searches {
		if ss.Health.Kind.NeedsUser() {
			troubled = append(troubled, ss)
		}
	}
	switch {
	case len(s.Searches) == 0:
		return "No searches yet"
	case len(troubled) == 0 && allPaused(s):
		return "All searches are paused"
	case len(troubled) == 0:
		return "All searches are working"
	case len(troubled) == 1:
		return upperFirst(troubled[0].Name + ": " + troubled[0].Health.Problem)
	}
	return fmt.Sprintf("%d searches need you", len(troubled))
}

func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}
