//go:build (linux || freebsd || openbsd || netbsd) && !android

package tray

import (
	"context"
	"errors"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/godbus/dbus/v5"
)

// watcherName is the tray host's name on the session bus: what systray
// registers its icon with (KDE's name; GNOME's extension, XFCE and the other
// hosts take it too).
const watcherName = "org.kde.StatusNotifierWatcher"

// HostAnswers reports whether a tray host shows icons here: the session bus
// systray will use answers and a StatusNotifierWatcher owns its name on it.
// Without one, systray's icon shows nowhere (and systray panics on quit when
// it could not connect), so the watcher runs without a tray. why says what
// was missing.
func HostAnswers() (ok bool, why string) {
	runDir := "/run/user/" + strconv.Itoa(os.Getuid())
	addr := sessionBusAddress(os.Getenv("DBUS_SESSION_BUS_ADDRESS"), runDir)
	if addr == "" {
		return false, "there is no D-Bus session bus"
	}
	if !sessionBusReachable(addr) {
		return false, "the D-Bus session bus does not answer (" + addr + ")"
	}
	has, err := nameHasOwner(addr, watcherName)
	if err != nil {
		return false, "the D-Bus session bus: " + err.Error()
	}
	if !has {
		return false, "no tray host runs (nothing owns " + watcherName + " on the session bus)"
	}
	return true, ""
}

// nameHasOwner asks the bus at addr whether a name has an owner, on a
// private connection of its own (systray's shared one is not made yet).
func nameHasOwner(addr, name string) (bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	conn, err := dbus.Connect(addr, dbus.WithContext(ctx))
	if err != nil {
		return false, err
	}
	defer conn.Close()
	var has bool
	call := conn.BusObject().CallWithContext(ctx, "org.freedesktop.DBus.NameHasOwner", 0, name)
	if call.Err != nil {
		return false, call.Err
	}
	if err := call.Store(&has); err != nil {
		return false, errors.Join(errors.New("an answer not understood"), err)
	}
	return has, nil
}

// sessionBusAddress finds the session bus as godbus (systray's D-Bus library)
// does without launching one: the environment's address, else the "bus"
// socket in the user's /run/user directory (not $XDG_RUNTIME_DIR), else the
// address its "dbus-session" file names; "" when none.
func sessionBusAddress(env, runDir string) string {
	if env != "" && env != "autolaunch:" {
		return env
	}
	if bus := filepath.Join(runDir, "bus"); fileExists(bus) {
		return "unix:path=" + bus
	}
	if b, err := os.ReadFile(filepath.Join(runDir, "dbus-session")); err == nil {
		if addr, ok := strings.CutPrefix(string(b), "DBUS_SESSION_BUS_ADDRESS="); ok {
			return strings.TrimRight(addr, "\r\n")
		}
	}
	return ""
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// sessionBusReachable reports whether one of the addresses in a D-Bus address
// list accepts a connection (an inherited DBUS_SESSION_BUS_ADDRESS from ssh,
// sudo or a container often points at a socket that is gone).
func sessionBusReachable(address string) bool {
	for _, a := range strings.Split(address, ";") {
		network, target, ok := busDialTarget(a)
		if !ok {
			continue
		}
		c, err := net.DialTimeout(network, target, 500*time.Millisecond)
		if err == nil {
			_ = c.Close()
			return true
		}
	}
	return false
}

// busDialTarget turns one D-Bus address ("unix:path=/run/user/1000/bus",
// "unix:abstract=/tmp/dbus-x,guid=…", "tcp:host=h,port=p") into what net.Dial
// takes; ok is false for transports it does not know.
func busDialTarget(address string) (network, target string, ok bool) {
	transport, rest, found := strings.Cut(strings.TrimSpace(address), ":")
	if !found {
		return "", "", false
	}
	keys := map[string]string{}
	for _, kv := range strings.Split(rest, ",") {
		if k, v, ok := strings.Cut(kv, "="); ok {
			if u, err := url.PathUnescape(v); err == nil { // values escape bytes as %XX
				v = u
			}
			keys[k] = v
		}
	}
	switch {
	case transport == "unix" && keys["path"] != "":
		return "unix", keys["path"], true
	case transport == "unix" && keys["abstract"] != "":
		return "unix", "@" + keys["abstract"], true
	case transport == "tcp" && keys["port"] != "":
		return "tcp", net.JoinHostPort(keys["host"], keys["port"]), true
	}
	return "", "", false
}
