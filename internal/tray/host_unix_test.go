//go:build (linux || freebsd || openbsd || netbsd) && !android

package tray

import (
	"bufio"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godbus/dbus/v5"
)

func TestSessionBusReachable(t *testing.T) {
	bus := filepath.Join(t.TempDir(), "bus")
	l, err := net.Listen("unix", bus)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	gone := filepath.Join(t.TempDir(), "bus") // a bus that was there once

	for _, tc := range []struct {
		name, address string
		want          bool
	}{
		{"no address", "", false},
		{"a live bus", "unix:path=" + bus + ",guid=0123", true},
		{"a dead bus", "unix:path=" + gone, false},
		{"dead first, live second", "unix:path=" + gone + ";unix:path=" + bus, true},
		{"unknown transport", "launchd:env=DBUS_LAUNCHD_SESSION_BUS_SOCKET", false},
	} {
		if got := sessionBusReachable(tc.address); got != tc.want {
			t.Errorf("%s: reachable = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestSessionBusAddressIsWhereSystrayLooks(t *testing.T) {
	empty := t.TempDir()
	withBus := t.TempDir()
	l, err := net.Listen("unix", filepath.Join(withBus, "bus"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	withFile := t.TempDir()
	if err := os.WriteFile(filepath.Join(withFile, "dbus-session"),
		[]byte("DBUS_SESSION_BUS_ADDRESS=unix:abstract=/tmp/dbus-E1c73yNqrG\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, env, runDir, want string
	}{
		{"the environment wins", "unix:path=/x/bus", withBus, "unix:path=/x/bus"},
		{"the user's bus socket", "", withBus, "unix:path=" + filepath.Join(withBus, "bus")},
		{"autolaunch means look", "autolaunch:", withBus, "unix:path=" + filepath.Join(withBus, "bus")},
		{"the dbus-session file", "", withFile, "unix:abstract=/tmp/dbus-E1c73yNqrG"},
		{"nothing", "", empty, ""},
	} {
		if got := sessionBusAddress(tc.env, tc.runDir); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestBusDialTarget(t *testing.T) {
	for _, tc := range []struct {
		address, network, target string
		ok                       bool
	}{
		{"unix:path=/run/user/1000/bus", "unix", "/run/user/1000/bus", true},
		{"unix:path=/tmp/my%20bus,guid=ab", "unix", "/tmp/my bus", true},
		{"unix:abstract=/tmp/dbus-XYZ,guid=ab", "unix", "@/tmp/dbus-XYZ", true},
		{"tcp:host=127.0.0.1,port=5555", "tcp", "127.0.0.1:5555", true},
		{"unix:runtime=yes", "", "", false},
		{"autolaunch:", "", "", false},
		{"garbage", "", "", false},
	} {
		network, target, ok := busDialTarget(tc.address)
		if network != tc.network || target != tc.target || ok != tc.ok {
			t.Errorf("busDialTarget(%q) = %q, %q, %v; want %q, %q, %v", tc.address, network, target, ok, tc.network, tc.target, tc.ok)
		}
	}
}

// privateBus starts a D-Bus session daemon of the test's own and returns its
// address.
func privateBus(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("dbus-daemon"); err != nil {
		t.Skip("needs dbus-daemon")
	}
	sock := filepath.Join(t.TempDir(), "bus")
	cmd := exec.Command("dbus-daemon", "--session", "--nofork", "--print-address", "--address=unix:path="+sock)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	// The daemon prints its address once it listens.
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("the private bus did not start: %v", err)
	}
	return strings.TrimSpace(line)
}

func TestHostAnswersOnlyWithATrayHost(t *testing.T) {
	addr := privateBus(t)
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", addr)
	if ok, why := HostAnswers(); ok || !strings.Contains(why, "no tray host") {
		t.Fatalf("a bus without a tray host: %v %q", ok, why)
	}
	host, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	if r, err := host.RequestName(watcherName, dbus.NameFlagDoNotQueue); err != nil || r != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("owning %s: %v %v", watcherName, r, err)
	}
	if ok, why := HostAnswers(); !ok {
		t.Fatalf("with a tray host on the bus: %q", why)
	}

	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path="+filepath.Join(t.TempDir(), "gone"))
	if ok, why := HostAnswers(); ok || !strings.Contains(why, "does not answer") {
		t.Fatalf("a dead bus: %v %q", ok, why)
	}
}

// notifications is a stand-in freedesktop notification service.
type notifications struct{ got chan string }

func (n notifications) Notify(app string, id uint32, icon, title, body string, actions []string,
	hints map[string]dbus.Variant, timeout int32) (uint32, *dbus.Error) {
	n.got <- app + "|" + title + "|" + body
	return 1, nil
}

func TestNotifierSpeaksToTheNotificationService(t *testing.T) {
	addr := privateBus(t)
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", addr)
	srv, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	n := notifications{got: make(chan string, 1)}
	if err := srv.Export(n, "/org/freedesktop/Notifications", "org.freedesktop.Notifications"); err != nil {
		t.Fatal(err)
	}
	if _, err := srv.RequestName("org.freedesktop.Notifications", dbus.NameFlagDoNotQueue); err != nil {
		t.Fatal(err)
	}
	notify := Notifier(slog.Default())
	if notify == nil {
		t.Fatal("no notifier on a live bus")
	}
	notify("3 new on Kreuzberg", "Open Notifio to see them.")
	if got := <-n.got; got != "Notifio|3 new on Kreuzberg|Open Notifio to see them." {
		t.Fatalf("the service got %q", got)
	}

	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path="+filepath.Join(t.TempDir(), "gone"))
	if Notifier(slog.Default()) != nil {
		t.Fatal("a notifier on a bus that does not answer")
	}
}
