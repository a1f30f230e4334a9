package cli

import (
	"context"
	"log/slog"
	"os"

	"notifio/internal/api"
)

// ServeAPI serves the watcher's control API on the socket of data directory
// dir (api.SocketPath) until ctx ends or stop is called; stop returns once
// the server stopped and its socket is gone. `notifio run` and the tray's
// watcher call it after opening the database, so no other watcher of dir
// runs: a socket left there is a crashed watcher's and is replaced. quit is
// what POST /v1/quit calls (the watcher's own stop, as SIGTERM; nil: the API
// cannot stop it); it must not block.
func ServeAPI(ctx context.Context, dir, version string, w *Watcher, quit func(), log *slog.Logger) (stop func(), err error) {
	sock := api.SocketPath(dir)
	l, err := api.Listen(sock)
	if err != nil {
		return nil, err
	}
	srv := api.NewServer(w.Service, w.Ops, api.Info{Version: version, PID: os.Getpid(), DataDir: dir}, log)
	srv.OnQuit(quit)
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := srv.Serve(ctx, l); err != nil && log != nil {
			log.Error("the control API stopped", "err", err)
		}
	}()
	if log != nil {
		log.Info("control API listening", "socket", sock)
	}
	return func() { cancel(); <-done }, nil
}
