//go:build (linux || freebsd || openbsd || netbsd) && !android

package tray

import (
	"log/slog"
	"os"
	"strconv"
	"sync"

	"github.com/godbus/dbus/v5"
)

// Notifier shows desktop notifications through the freedesktop
// notification service on the session bus (what the window's Fyne did when
// the watcher lived in it); nil when the bus does not answer. A failure is
// logged once, not for every notification.
func Notifier(logger *slog.Logger) func(title, body string) {
	addr := sessionBusAddress(os.Getenv("DBUS_SESSION_BUS_ADDRESS"), "/run/user/"+strconv.Itoa(os.Getuid()))
	if addr == "" || !sessionBusReachable(addr) {
		return nil
	}
	var once sync.Once
	var mu sync.Mutex
	var conn *dbus.Conn
	return func(title, body string) {
		mu.Lock()
		defer mu.Unlock()
		err := func() error {
			if conn == nil {
				c, err := dbus.Connect(addr)
				if err != nil {
					return err
				}
				conn = c
			}
			obj := conn.Object("org.freedesktop.Notifications", "/org/freedesktop/Notifications")
			return obj.Call("org.freedesktop.Notifications.Notify", 0, "Notifio", uint32(0), "",
				title, body, []string{}, map[string]dbus.Variant{}, int32(-1)).Err
		}()
		if err != nil {
			if conn != nil {
				_ = conn.Close()
				conn = nil // connect again next time
			}
			once.Do(func() { logger.Info("desktop notifications are not shown", "err", err) })
		}
	}
}
