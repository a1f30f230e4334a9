//go:build windows || darwin

package tray

import (
	"log/slog"
	"sync"

	"github.com/gen2brain/beeep"
)

// Notifier shows desktop notifications on Windows (a toast through the
// Windows Runtime, else PowerShell) and macOS (the notification center
// through purego, no cgo, else osascript) with gen2brain/beeep, which
// needs no Fyne and no window. A failure is logged once, not for every
// notification.
func Notifier(logger *slog.Logger) func(title, body string) {
	beeep.AppName = "Notifio"
	var once sync.Once
	var mu sync.Mutex // one notification at a time: beeep starts a helper for some
	return func(title, body string) {
		mu.Lock()
		defer mu.Unlock()
		if err := beeep.Notify(title, body, ""); err != nil {
			once.Do(func() { logger.Info("desktop notifications are not shown", "err", err) })
		}
	}
}
