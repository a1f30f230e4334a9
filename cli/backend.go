package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"notifio/internal/api"
	"notifio/notify"
	"notifio/poll"
	"notifio/storage"

	"notifio/internal/model"
)

// backend is what the commands call: the watcher's operations and
// delivery's — of the running watcher over its socket, or, when none runs,
// of a watcher over the database this command opened (not polling).
type backend interface {
	api.Watcher
	api.Delivery
}

// local is the operations over a database this command opened.
type local struct {
	*poll.Service
	*notify.Ops
}

// session is one command's backend and where it comes from.
type session struct {
	backend
	// live is set when a running watcher answers: its snapshot is live
	// (countdowns count), its changes are polled by it at once.
	live bool
	// done closes what the command opened (nothing for a watcher's socket).
	done func()
}

// connectEnv names the socket to attach to, as --connect does.
const connectEnv = "NOTIFIO_CONNECT"

// SplitConnect takes --connect ADDR (or --connect=ADDR) out of args wherever
// it stands and returns the rest; "" when not given (NOTIFIO_CONNECT is read
// by the caller). An empty ADDR is refused, as --data "" is.
func SplitConnect(args []string) (rest []string, connect string, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return append(rest, args[i:]...), connect, nil
		case a == "--connect" || a == "-connect":
			if i+1 >= len(args) {
				return nil, "", usagef("--connect needs the watcher's socket, e.g. --connect unix:/home/me/notifio.sock")
			}
			connect = args[i+1]
			i++
		case strings.HasPrefix(a, "--connect=") || strings.HasPrefix(a, "-connect="):
			connect = a[strings.Index(a, "=")+1:]
		default:
			rest = append(rest, a)
			continue
		}
		if strings.TrimSpace(connect) == "" {
			return nil, "", usagef("--connect was given no socket: name it (--connect unix:/home/me/notifio.sock), or leave --connect out")
		}
	}
	return rest, connect, nil
}

// attachTimeout bounds asking a socket who answers on it.
const attachTimeout = 3 * time.Second

// runningWatcher is the client of the watcher that answers for this
// command's data (or on --connect's socket), or nil when none answers.
func (env *Env) runningWatcher(dir string) (*api.Client, api.Info, error) {
	c, info, err := RunningWatcher(dir, env.Connect, env.Version)
	var ue *model.UserError
	if errors.As(err, &ue) && errors.Is(err, errBadConnect) {
		return nil, api.Info{}, usagef("%s", ue.Msg)
	}
	return c, info, err
}

// errBadConnect marks a --connect address that is not unix:PATH.
var errBadConnect = errors.New("cli: bad --connect address")

// RunningWatcher is the client of the watcher serving data directory dir —
// or, when connect is given ("unix:PATH", from --connect or NOTIFIO_CONNECT),
// on that socket — with who it is; nil and no error when none answers on the
// data directory's socket. With connect, no answer is an error: the data is
// elsewhere, not to be opened here. version is this program's, for the words
// of a version mismatch (which is an error too).
func RunningWatcher(dir, connect, version string) (*api.Client, api.Info, error) {
	sock, explicit := api.SocketPath(dir), false
	if connect != "" {
		p, err := api.ParseConnect(connect)
		if err != nil {
			return nil, api.Info{}, &model.UserError{Msg: strings.TrimPrefix(err.Error(), "api: "), Err: errBadConnect}
		}
		sock, explicit = p, true
	}
	c := api.NewClient(sock)
	c.Version = version
	ctx, cancel := context.WithTimeout(context.Background(), attachTimeout)
	defer cancel()
	info, err := c.Info(ctx)
	switch {
	case err == nil:
		return c, info, nil
	case explicit || !errors.Is(err, api.ErrNotRunning):
		return nil, api.Info{}, err
	}
	return nil, api.Info{}, nil
}

// attach is the command's backend: the running watcher when one answers,
// else the database, opened by this command.
func (env *Env) attach() (*session, error) {
	dir := ""
	if env.Connect == "" {
		d, err := env.dataDir()
		if err != nil {
			return nil, err
		}
		dir = d
	}
	c, _, err := env.runningWatcher(dir)
	if err != nil {
		return nil, err
	}
	if c != nil {
		return &session{backend: c, live: true, done: func() {}}, nil
	}
	db, dir, err := env.openDB()
	if errors.Is(err, storage.ErrAlreadyRunning) {
		// A watcher that opened the database a moment ago answers once
		// its socket is up (openDB waited a second for the lock).
		if c, _, cerr := env.runningWatcher(dir); cerr == nil && c != nil {
			return &session{backend: c, live: true, done: func() {}}, nil
		}
	}
	if err != nil {
		return nil, err
	}
	w, err := NewWatcher(db, env.serviceOptions(dir))
	if err != nil {
		db.Close()
		return nil, err
	}
	return &session{backend: local{w.Service, w.Ops},
		done: func() { w.Service.Close(); db.Close() }}, nil
}

// alreadyRunning is the error of a command that needs the database a
// running watcher holds (run, once): it names the watcher's pid when its
// socket answers.
func (env *Env) alreadyRunning(dir string, cause error) error {
	who := "Notifio is already running (data: " + dir + ")."
	if env.Connect == "" {
		if _, info, err := env.runningWatcher(dir); err == nil && info.PID != 0 {
			who = fmt.Sprintf("Notifio is already running (pid %d, data: %s).", info.PID, dir)
		}
	}
	return &model.UserError{Msg: who, Hint: alreadyRunningHint, Err: cause}
}
