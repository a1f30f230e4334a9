package api

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"notifio/internal/model"
)

// callTimeout bounds the operations whose signature has no context (pause,
// remove, …): they wait at most for a poll in progress to let go of the
// watcher's lock.
const callTimeout = time.Minute

// Client talks to a watcher over its socket. It is safe for concurrent use.
type Client struct {
	path string
	hc   *http.Client
	// Version is this program's version, for the words of a version
	// mismatch ("" reads as "another").
	Version string

	mu   sync.Mutex
	last model.Snapshot // the newest snapshot seen, for Snapshot when the watcher stops answering
}

// NewClient is a client of the watcher serving on the socket at path.
func NewClient(path string) *Client {
	tr := &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) { return dial(ctx, path) },
		// One watcher, one socket: a few idle connections are plenty.
		MaxIdleConns: 4, IdleConnTimeout: 30 * time.Second,
	}
	return &Client{path: path, hc: &http.Client{Transport: tr}}
}

// Socket is the path the client connects to.
func (c *Client) Socket() string { return c.path }

// Info asks who answers on the socket: a watcher's pid, version and data.
func (c *Client) Info(ctx context.Context) (Info, error) {
	var info Info
	err := c.do(ctx, http.MethodGet, "/info", nil, &info)
	return info, err
}

// do sends one request and reads the answer into out (nil: none wanted).
func (c *Client) do(ctx context.Context, method, path string, in, out any) error {
	var body io.Reader
	if in != nil {
		raw, err := json.Marshal(in)
		if err != nil {
			return fmt.Errorf("api: encode the request: %w", err)
		}
		body = bytes.NewReader(raw)
	}
	resp, err := c.open(ctx, method, path, body)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if out == nil {
		_, _ = io.Copy(io.Discard, resp.Body)
		return nil
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		return fmt.Errorf("api: read the watcher's answer to %s %s: %w", method, path, err)
	}
	return nil
}

// open sends one request and returns the answer of a watcher of this API
// version that said OK; any other answer is the error it stands for.
func (c *Client) open(ctx context.Context, method, path string, body io.Reader) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, "http://notifio"+prefix+path, body)
	if err != nil {
		return nil, fmt.Errorf("api: make the request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, c.notAnswering(ctx, err)
	}
	if err := c.checkVersion(resp); err != nil {
		resp.Body.Close()
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		defer resp.Body.Close()
		return nil, c.readError(resp)
	}
	return resp, nil
}

// notAnswering is a failed connection in words; errors.Is(err,
// ErrNotRunning) holds when no watcher listens.
func (c *Client) notAnswering(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if !errors.Is(err, ErrNotRunning) {
		err = fmt.Errorf("%w: %w", ErrNotRunning, err)
	}
	return &model.UserError{Msg: "The Notifio watcher is not answering (" + c.path + ").",
		Hint: "Start it again: open Notifio, or run \"notifio run\".", Err: err}
}

// checkVersion refuses an answer of another API version, or of something
// that is not a Notifio watcher, in words.
func (c *Client) checkVersion(resp *http.Response) error {
	api := resp.Header.Get(HeaderAPI)
	if api == "" {
		return &model.UserError{Msg: "Something that is not a Notifio watcher answers on " + c.path + ".",
			Hint: "Check the socket's path (--connect).", Err: ErrVersion}
	}
	if n, _ := strconv.Atoi(api); n == Version {
		return nil
	}
	mine := c.Version
	if mine == "" {
		mine = "another"
	}
	return &model.UserError{
		Msg: fmt.Sprintf("This Notifio is version %s (API %d), the running watcher is version %s (API %s): they cannot work together.",
			mine, Version, resp.Header.Get(HeaderVersion), api),
		Hint: "Quit the running Notifio (its tray icon, or Ctrl-C where \"notifio run\" runs) and start this version, or use the same version for both.",
		Err:  ErrVersion}
}

// readError is the watcher's typed error of a failed request.
func (c *Client) readError(resp *http.Response) error {
	var body struct {
		Error *Error `json:"error"`
	}
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err := json.Unmarshal(raw, &body); err != nil || body.Error == nil {
		return fmt.Errorf("api: the watcher answered %s: %s", resp.Status, strings.TrimSpace(string(raw)))
	}
	return body.Error.Err()
}

// call is do for the operations without a context.
func (c *Client) call(method, path string, in, out any) error {
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	return c.do(ctx, method, path, in, out)
}

// Watch streams the watcher's snapshots to fn (the current one first, then
// one after each change) until ctx ends or the watcher goes away; it returns
// why it ended.
func (c *Client) Watch(ctx context.Context, fn func(model.Snapshot)) error {
	resp, err := c.open(ctx, http.MethodGet, "/events", nil)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 256<<20) // a snapshot of thousands of searches is one line
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var snap model.Snapshot
		if err := json.Unmarshal([]byte(data), &snap); err != nil {
			return fmt.Errorf("api: read a snapshot: %w", err)
		}
		c.remember(snap)
		fn(snap)
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return c.notAnswering(ctx, errors.Join(io.ErrUnexpectedEOF, sc.Err()))
}

// reconnectEvery is how often Subscribe tries again when the watcher went away.
const reconnectEvery = time.Second

// Subscribe calls fn with each snapshot, from a goroutine, until cancel is
// called; when the watcher goes away it connects again every second (a
// watcher started again is followed without the caller's doing).
func (c *Client) Subscribe(fn func(model.Snapshot)) (cancel func()) {
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			err := c.Watch(ctx, fn)
			if ctx.Err() != nil {
				return
			}
			slog.Debug("api: snapshot stream ended", "err", err)
			t := time.NewTimer(reconnectEvery)
			select {
			case <-ctx.Done():
				t.Stop()
				return
			case <-t.C:
			}
		}
	}()
	return func() { stop(); <-done }
}

func (c *Client) remember(snap model.Snapshot) {
	c.mu.Lock()
	c.last = snap
	c.mu.Unlock()
}

// Snapshot returns the watcher's current state, or the newest one seen when
// it does not answer (SnapshotErr says why).
func (c *Client) Snapshot() model.Snapshot {
	snap, err := c.SnapshotErr(context.Background())
	if err != nil {
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.last
	}
	return snap
}

// SnapshotErr returns the watcher's current state.
func (c *Client) SnapshotErr(ctx context.Context) (model.Snapshot, error) {
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	var snap model.Snapshot
	if err := c.do(ctx, http.MethodGet, "/snapshot", nil, &snap); err != nil {
		return model.Snapshot{}, err
	}
	c.remember(snap)
	return snap, nil
}

// esc is one path segment (a search ID, a site, a channel's name).
func esc(s string) string { return url.PathEscape(s) }

// Quit asks the watcher to stop as SIGTERM would (polling cancelled, the
// relays finish the item they send, the socket removed, the database
// closed); it returns once the watcher said it is stopping, not when it has
// stopped. The answer names its pid.
func (c *Client) Quit(ctx context.Context) (Quitting, error) {
	var q Quitting
	err := c.do(ctx, http.MethodPost, "/quit", nil, &q)
	return q, err
}
