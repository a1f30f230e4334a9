package api

import (
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// A connection from another user is closed before any request is read (the
// socket's 0600 keeps them out already; this holds where the mode does not,
// e.g. a socket in a folder another user may enter).
func TestAnotherUserIsRefused(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the peer's uid is read on Linux only")
	}
	path := filepath.Join(t.TempDir(), "s.sock")
	raw, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	// The listener of a watcher whose user is not this test's.
	l := &peerListener{UnixListener: raw.(*net.UnixListener), uid: os.Getuid() + 1}
	accepted := make(chan net.Conn, 1)
	go func() {
		c, err := l.Accept()
		if err == nil {
			accepted <- c
		}
		close(accepted)
	}()
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if n, err := c.Read(make([]byte, 1)); err != io.EOF {
		t.Errorf("read from a refused connection: %d, %v; want EOF (closed by the watcher)", n, err)
	}
	l.Close()
	if c, ok := <-accepted; ok {
		c.Close()
		t.Error("the listener accepted a connection from another uid")
	}
}

// A socket that another user owns is never talked to.
func TestSocketOfAnotherUserIsNotDialled(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to give the socket to another user")
	}
	path := filepath.Join(t.TempDir(), "s.sock")
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if err := os.Chown(path, 65534, 65534); err != nil {
		t.Skip("chown:", err)
	}
	if err := checkOwner(path); err == nil {
		t.Error("checkOwner accepted a socket of uid 65534")
	}
}
