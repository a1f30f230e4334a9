package api

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Watchers of two data directories never share a socket; one directory,
// however it is written, has one socket.
func TestSocketPathKeyedToTheDataDir(t *testing.T) {
	rt := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", rt)
	a, b := t.TempDir(), t.TempDir()
	pa, pb := SocketPath(a), SocketPath(b)
	if pa == pb {
		t.Fatalf("two data directories share the socket %s", pa)
	}
	if filepath.Dir(pa) != rt || !strings.HasPrefix(filepath.Base(pa), "notifio-") {
		t.Errorf("socket %s, want notifio-HASH.sock in the runtime dir %s", pa, rt)
	}
	wd, _ := os.Getwd()
	rel, err := filepath.Rel(wd, a)
	if err == nil && SocketPath(rel) != pa {
		t.Errorf("the relative path %s gives %s, the absolute one %s", rel, SocketPath(rel), pa)
	}

	t.Setenv("XDG_RUNTIME_DIR", "")
	if got := SocketPath(a); got != filepath.Join(a, SocketName) {
		t.Errorf("without a runtime dir: %s, want it in the data dir", got)
	}
	deep := filepath.Join(a, strings.Repeat("d", 120))
	if got := SocketPath(deep); len(got) > maxSocketPath || got == SocketPath(a) {
		t.Errorf("a data dir too deep for a socket path gives %s (%d bytes)", got, len(got))
	}
}

func TestParseConnect(t *testing.T) {
	for in, want := range map[string]string{"unix:/tmp/n.sock": "/tmp/n.sock", "/tmp/n.sock": "/tmp/n.sock"} {
		if got, err := ParseConnect(in); err != nil || got != want {
			t.Errorf("ParseConnect(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "unix:", "tcp://10.0.0.2:7000", "http://box:8080", "tcp:box:1"} {
		if _, err := ParseConnect(in); err == nil {
			t.Errorf("ParseConnect(%q) accepted", in)
		}
	}
}
