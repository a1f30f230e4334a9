// Command sniwatcher is a stand-in tray host for the soak (tools/soak/soak.sh):
// it owns org.kde.StatusNotifierWatcher on the session bus and takes every
// RegisterStatusNotifierItem, so that `notifio --hidden` shows its tray icon
// under Xvfb as on a desktop with a tray. It prints each item that registers.
package main

import (
	"fmt"
	"log"
	"os"

	"github.com/godbus/dbus/v5"
)

// watcher is the StatusNotifierWatcher's one method a tray item calls.
type watcher struct{ conn *dbus.Conn }

// RegisterStatusNotifierItem takes an item (its object path; the sender is
// the item's bus name).
func (w watcher) RegisterStatusNotifierItem(sender dbus.Sender, item string) *dbus.Error {
	fmt.Printf("registered %s %s\n", sender, item)
	return nil
}

func main() {
	conn, err := dbus.SessionBus()
	if err != nil {
		log.Fatalf("sniwatcher: the session bus: %v", err)
	}
	if err := conn.Export(watcher{conn}, "/StatusNotifierWatcher", "org.kde.StatusNotifierWatcher"); err != nil {
		log.Fatalf("sniwatcher: export: %v", err)
	}
	reply, err := conn.RequestName("org.kde.StatusNotifierWatcher", dbus.NameFlagDoNotQueue)
	if err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		log.Fatalf("sniwatcher: own org.kde.StatusNotifierWatcher: %v %v", reply, err)
	}
	fmt.Println("ready")
	_ = os.Stdout.Sync()
	select {}
}
