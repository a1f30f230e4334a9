package ui

import (
	"log/slog"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// trayHostLikely reports whether a tray can work here. On Linux the tray speaks
// D-Bus (StatusNotifierItem) on the session bus. Fyne's systray cannot show an
// icon without one and panics on quit when it could not connect (nil
// connection in systray's nativeEnd), and "close to tray" would hide the
// window for good. So the bus systray will use must answer, not just be
// named: an inherited DBUS_SESSION_BUS_ADDRESS (ssh, sudo, a container) often
// points at a socket that is gone.
func trayHostLikely() bool {
	runDir := "/run/user/" + strconv.Itoa(os.Getuid())
	addr := sessionBusAddress(os.Getenv("DBUS_SESSION_BUS_ADDRESS"), runDir)
	if addr == "" {
		return false
	}
	if !sessionBusReachable(addr) {
		slog.Info("no tray icon: the D-Bus session bus does not answer", "dbus_address", addr)
		return false
	}
	return true
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
// list accepts a connection.
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
