package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	"notifio/internal/api"
)

// quitWait bounds asking the watcher to stop and waiting until its socket is
// gone (it lets the relays finish the message they send).
const quitWait = time.Minute

// cmdQuit stops the running watcher of the data folder (or --connect's) as
// its tray icon's Quit, the window's Quit all and SIGTERM do — on every
// system, over its socket (POST /v1/quit) — and waits until it no longer
// answers.
func cmdQuit(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "quit", "notifio quit [--data DIR]\n\nStops the running watcher (as Quit in its tray icon does) and waits until it no longer answers.")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	dir := ""
	if env.Connect == "" {
		d, err := env.dataDir()
		if err != nil {
			return err
		}
		dir = d
	}
	c, _, err := env.runningWatcher(dir)
	if err != nil {
		return err
	}
	if c == nil {
		fmt.Fprintf(env.Stdout, "No Notifio watcher runs for %s: nothing to stop.\n", dir)
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, quitWait)
	defer cancel()
	q, err := c.Quit(ctx)
	if err != nil {
		return err
	}
	for {
		if _, err := c.Info(ctx); errors.Is(err, api.ErrNotRunning) {
			break
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("the watcher (pid %d) was asked to stop but still answers after %v; stop it from its tray icon, or end the process", q.PID, quitWait)
		case <-time.After(50 * time.Millisecond): // it finishes the request in flight
		}
	}
	fmt.Fprintf(env.Stdout, "The watcher (pid %d) stopped watching; it no longer answers.\n", q.PID)
	return nil
}
