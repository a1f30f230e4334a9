package api

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// SocketName is the socket's file name in the data directory.
const SocketName = "notifio.sock"

// maxSocketPath is the longest path a Unix socket may have on every system
// Notifio runs on (sun_path is 104 bytes on macOS, 108 on Linux).
const maxSocketPath = 100

// SocketPath is where the watcher of data directory dataDir serves its API:
// in the user's runtime directory (XDG_RUNTIME_DIR, private to the user) as
// notifio-HASH.sock, keyed to the data directory so that watchers of two data
// directories never collide; else in the data directory itself. A data
// directory too deep for a socket path falls back to the temporary directory
// (the socket is still 0600 and its owner is checked by Dial).
func SocketPath(dataDir string) string {
	abs, err := filepath.Abs(dataDir)
	if err != nil {
		abs = dataDir
	}
	sum := sha256.Sum256([]byte(abs))
	key := hex.EncodeToString(sum[:6])
	if rt := os.Getenv("XDG_RUNTIME_DIR"); rt != "" && filepath.IsAbs(rt) {
		if p := filepath.Join(rt, "notifio-"+key+".sock"); len(p) <= maxSocketPath {
			return p
		}
	}
	if p := filepath.Join(abs, SocketName); len(p) <= maxSocketPath {
		return p
	}
	return filepath.Join(os.TempDir(), fmt.Sprintf("notifio-%d-%s.sock", os.Getuid(), key))
}

// ParseConnect reads a --connect address: "unix:PATH" (the only kind; there is
// no TCP listener). A bare path is taken as a socket path too.
func ParseConnect(addr string) (string, error) {
	addr = strings.TrimSpace(addr)
	switch {
	case addr == "":
		return "", errors.New("api: --connect needs an address, e.g. unix:/home/me/notifio.sock")
	case strings.HasPrefix(addr, "unix:"):
		p := strings.TrimPrefix(addr, "unix:")
		if p == "" {
			return "", errors.New("api: --connect unix: needs the path of the socket after the colon")
		}
		return p, nil
	case strings.Contains(addr, "://") || strings.HasPrefix(addr, "tcp:"):
		return "", fmt.Errorf("api: Notifio connects only to a socket (unix:PATH), not to %q; forward the watcher's socket with ssh -L and name the local end", addr)
	}
	return addr, nil
}

// ErrNotRunning means no watcher answers on the socket (none runs, or it
// crashed and left its socket behind).
var ErrNotRunning = errors.New("api: no watcher is running")

// dial connects to the socket at path, after checking that it belongs to
// this user (a socket another user planted is never talked to).
func dial(ctx context.Context, path string) (net.Conn, error) {
	if err := checkOwner(path); err != nil {
		return nil, err
	}
	var d net.Dialer
	c, err := d.DialContext(ctx, "unix", path)
	if err != nil {
		return nil, fmt.Errorf("%w (%s): %w", ErrNotRunning, path, err)
	}
	return c, nil
}

// Listen takes the socket at path for a watcher. The caller already holds the
// data directory's database, so no other watcher of it runs; a socket file
// left there is checked all the same: one that answers belongs to a watcher
// of another data directory with the same path (refused, naming its pid), one
// that does not is a crashed watcher's and is replaced. The socket is made
// 0600, and on Linux every connection's peer must be this user.
func Listen(path string) (net.Listener, error) {
	if _, err := os.Lstat(path); err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		info, err := NewClient(path).Info(ctx)
		cancel()
		switch {
		case err == nil:
			return nil, &RunningError{PID: info.PID, DataDir: info.DataDir, Socket: path}
		case !errors.Is(err, ErrNotRunning):
			// Something answers (another version's watcher), or the
			// socket is another user's: neither is ours to remove.
			return nil, fmt.Errorf("api: the socket %s is in use: %w", path, err)
		}
		if rmErr := os.Remove(path); rmErr != nil {
			return nil, fmt.Errorf("api: remove the stale socket %s: %w", path, rmErr)
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("api: make the socket's folder: %w", err)
	}
	l, err := listenPrivate(path)
	if err != nil {
		return nil, fmt.Errorf("api: listen on %s: %w", path, err)
	}
	return &peerListener{UnixListener: l.(*net.UnixListener), uid: os.Getuid()}, nil
}

// RunningError is a watcher answering on the socket already.
type RunningError struct {
	PID     int
	DataDir string
	Socket  string
}

func (e *RunningError) Error() string {
	return fmt.Sprintf("api: another Notifio (pid %d, data: %s) answers on %s", e.PID, e.DataDir, e.Socket)
}

// peerListener accepts only connections from the user uid (where the system
// says who the peer is; elsewhere the socket's mode keeps others out).
type peerListener struct {
	*net.UnixListener
	uid int
}

// Accept returns the next connection of this user; others are closed.
func (l *peerListener) Accept() (net.Conn, error) {
	for {
		c, err := l.UnixListener.AcceptUnix()
		if err != nil {
			return nil, err
		}
		if uid, ok := peerUID(c); ok && uid != l.uid {
			_ = c.Close()
			continue
		}
		return c, nil
	}
}
