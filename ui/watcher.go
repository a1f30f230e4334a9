package ui

import (
	"log/slog"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
)

// The window is a view of the watcher, a process of its own: closing the
// window leaves it watching, and the window says when it stopped.

// closeWords is what the first close says about coming back.
func (w *WatcherProcess) closeWords() string {
	back := "To open this window again, start Notifio again (from your applications menu, or run notifio)."
	if w.TrayIcon {
		back = "To open this window again, click Notifio's icon in the tray and choose Open Notifio, or start Notifio again."
	}
	return "Notifio goes on watching your searches in the background and still sends your emails and pushes " +
		"when you close this window.\n\n" + back
}

// explainClose says, once, that watching goes on after the window closes and
// how to come back, with a way to stop watching instead.
func (u *UI) explainClose() {
	var d dialog.Dialog
	closeOnly := widget.NewButton("Close the window, keep watching", func() {
		d.Hide()
		u.prefs.SetBool(prefCloseExplained, true)
		u.quit()
	})
	closeOnly.Importance = widget.HighImportance
	buttons := container.NewHBox(closeOnly)
	if u.watcher.QuitAll != nil {
		buttons.Add(widget.NewButton("Quit all (stop watching)", func() {
			d.Hide()
			u.prefs.SetBool(prefCloseExplained, true)
			u.quitAll()
		}))
	}
	buttons.Add(widget.NewButton("Cancel", func() { d.Hide() }))
	d = dialog.NewCustomWithoutButtons("Notifio keeps watching",
		container.NewVBox(wrapped(u.watcher.closeWords()), buttons), u.win)
	d.Resize(fyne.NewSize(520, 0))
	u.showKeyed(d, closeOnly.OnTapped, d.Hide, nil)
}

// quitAll asks the watcher to stop (a request on its socket, off the UI
// goroutine), then closes this window.
func (u *UI) quitAll() {
	go func() {
		err := u.watcher.QuitAll()
		u.dispatch(func() {
			if err != nil {
				slog.Warn("stop the watcher", "err", err)
				u.showError("Notifio could not stop watching", "The watcher did not stop: "+backendWords(err))
				return
			}
			u.quit()
		})
	}()
}

// WatcherGone tells the user that the watcher stopped (it crashed, or was
// quit from its tray icon or the command line): nothing is checked until it
// runs again. Call it on the UI goroutine; WatcherBack takes it away.
func (u *UI) WatcherGone() {
	if u.gone != nil {
		return
	}
	text := wrapped("Notifio's watcher has stopped: your searches are not checked and no emails or pushes " +
		"go out until it runs again. This window shows what it knew last.")
	box := container.NewVBox(text)
	var d dialog.Dialog
	if u.watcher != nil && u.watcher.Restart != nil {
		var start *widget.Button
		start = widget.NewButton("Start watching again", func() {
			start.Disable()
			go func() {
				err := u.watcher.Restart()
				u.dispatch(func() {
					start.Enable()
					if err != nil {
						slog.Warn("start the watcher again", "err", err)
						text.SetText("Notifio could not start its watcher: " + backendWords(err))
					}
				})
			}()
		})
		start.Importance = widget.HighImportance
		box.Add(start)
	}
	box.Add(widget.NewButton("Quit", u.quit))
	d = dialog.NewCustomWithoutButtons("Notifio stopped watching", box, u.win)
	d.Resize(fyne.NewSize(480, 0))
	u.gone = d
	u.showKeyed(d, func() {}, func() {}, nil) // it stays until the watcher is back
}

// WatcherBack takes away what WatcherGone said, once the watcher answers
// again. Call it on the UI goroutine.
func (u *UI) WatcherBack() {
	if u.gone == nil {
		return
	}
	d := u.gone
	u.gone = nil
	d.Hide()
	u.refresh()
}

// newStartAtLoginCheck is Settings' "start watching when I log in" (nil
// when the app offers no such setting). It shows what the system has, so a
// change made with `notifio autostart` reads true here.
func newStartAtLoginCheck(u *UI) *widget.Check {
	if u.startAtLogin == nil {
		return nil
	}
	on, err := u.startAtLogin.On()
	if err != nil {
		slog.Warn("read start at login", "err", err)
	}
	c := widget.NewCheck("Start watching in the background when I log in (with an icon in the tray where the desktop shows one)", nil)
	c.SetChecked(on) // before OnChanged: showing what is there writes nothing
	c.OnChanged = func(want bool) {
		err := u.startAtLogin.Set(want)
		if err == nil {
			return
		}
		slog.Warn("start at login", "on", want, "err", err)
		u.showError("Could not change starting at login", "Notifio could not change it: "+backendWords(err))
		now, _ := u.startAtLogin.On()
		changed := c.OnChanged
		c.OnChanged = nil
		c.SetChecked(now) // what the system has
		c.OnChanged = changed
	}
	return c
}

// newDesktopNotificationsCheck is Settings' "show a desktop notification":
// a setting of the watcher's, which shows the notifications (with or
// without this window), changed over its API off the UI goroutine.
func newDesktopNotificationsCheck(u *UI) *widget.Check {
	u.moveOldDesktopChoice()
	on, err := u.b.DesktopNotifications()
	if err != nil {
		slog.Warn("read the desktop notification setting", "err", err)
		on = true // the watcher's default
	}
	c := widget.NewCheck("Show a desktop notification when new listings arrive", nil)
	c.SetChecked(on) // before OnChanged: showing what is there writes nothing
	c.OnChanged = func(want bool) {
		go func() {
			err := u.b.SetDesktopNotifications(want)
			if err == nil {
				return
			}
			slog.Warn("change the desktop notification setting", "on", want, "err", err)
			u.dispatch(func() {
				u.showError("Could not change desktop notifications", "Notifio could not save the setting: "+backendWords(err))
				changed := c.OnChanged
				c.OnChanged = nil
				c.SetChecked(!want) // what the watcher has
				c.OnChanged = changed
			})
		}()
	}
	return c
}

// oldPrefNotifications is where the window kept the desktop notification
// choice when it was the watcher (a Fyne preference).
const oldPrefNotifications = "notifications.desktop"

// moveOldDesktopChoice hands a choice of "off" kept by an older window to
// the watcher, once, so that upgrading does not turn notifications on again.
func (u *UI) moveOldDesktopChoice() {
	if u.prefs.BoolWithFallback(oldPrefNotifications, true) {
		return // on, as the watcher's default, or never chosen
	}
	if err := u.b.SetDesktopNotifications(false); err != nil {
		slog.Warn("hand the desktop notification choice to the watcher", "err", err)
		return // tried again next time
	}
	u.prefs.RemoveValue(oldPrefNotifications)
}
