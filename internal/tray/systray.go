//go:build !darwin || cgo

package tray

import (
	"sync"

	"fyne.io/systray"
)

// Run shows the menu as the tray icon and blocks until Stop is called (or
// Quit is clicked and the watcher stops, which calls Stop). Call it on the
// main goroutine: on Windows and macOS the tray's event loop must run on the
// main thread (systray locks it at start).
func Run(m *Menu, icon []byte) {
	systray.Run(func() { show(m, icon) }, nil)
}

// Stop takes the icon away and makes Run return; safe before Run returns
// and more than once.
func Stop() { stopOnce.Do(systray.Quit) }

var stopOnce sync.Once

// show builds the native items once and keeps their words in step with the
// menu's.
func show(m *Menu, icon []byte) {
	systray.SetIcon(icon)
	systray.SetTitle("Notifio")
	systray.SetTooltip(m.Tooltip())
	items := m.Items()
	native := make([]*systray.MenuItem, len(items))
	for i, it := range items {
		if it.Label == "" {
			systray.AddSeparator()
			continue
		}
		native[i] = systray.AddMenuItem(it.Label, "")
		setEnabled(native[i], it.Enabled)
		go func(i int, n *systray.MenuItem) {
			for range n.ClickedCh {
				if cur := m.Items(); cur[i].Enabled && cur[i].Action != nil {
					cur[i].Action()
				}
			}
		}(i, native[i])
	}
	systray.SetOnTapped(func() { m.Items()[itemOpen].Action() })
	var mu sync.Mutex
	shown, tip := items, m.Tooltip()
	m.onChange(func() { // every snapshot; D-Bus hears only what changed
		mu.Lock()
		defer mu.Unlock()
		for i, it := range m.Items() {
			if native[i] != nil && (it.Label != shown[i].Label || it.Enabled != shown[i].Enabled) {
				native[i].SetTitle(it.Label)
				setEnabled(native[i], it.Enabled)
				shown[i] = it
			}
		}
		if t := m.Tooltip(); t != tip {
			systray.SetTooltip(t)
			tip = t
		}
	})
}

func setEnabled(n *systray.MenuItem, on bool) {
	if on {
		n.Enable()
	} else {
		n.Disable()
	}
}
