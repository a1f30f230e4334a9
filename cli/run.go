package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"text/tabwriter"
	"time"

	"notifio/notify"
	"notifio/storage"

	"notifio/internal/model"
)

// newWatcher builds the watcher of a data directory with its relays, as run
// and once use it.
func (env *Env) newWatcher(db *storage.DB, dir string) (*Watcher, error) {
	w, err := NewWatcher(db, env.serviceOptions(dir))
	if err != nil {
		return nil, err
	}
	env.applyMemoryLimit(len(w.Service.Snapshot().Searches))
	return w, nil
}

func cmdRun(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "run", "notifio run [--data DIR]\n\nWatches every search until SIGINT or SIGTERM. Logs go to standard error.")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	db, dir, err := env.openDB()
	if err != nil {
		return err
	}
	defer db.Close()
	if addr := os.Getenv("NOTIFIO_DEBUG_ADDR"); addr != "" { // pprof + expvar for docs/PERFORMANCE.md
		if err := startDebug(addr, db); err != nil {
			return err
		}
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	w, err := env.newWatcher(db, dir)
	if err != nil {
		return err
	}
	svc, relay, pushRelay := w.Service, w.Relay, w.Push
	defer svc.Close()
	stopAPI, err := ServeAPI(ctx, dir, env.Version, w, stop, env.Logger)
	if err != nil {
		return err
	}
	defer stopAPI()
	if env.OnWatching != nil {
		env.OnWatching(w, stop)
	}
	snap := svc.Snapshot()
	env.Logger.Info("notifio is watching", "data", dir, "searches", len(snap.Searches), "version", env.Version)
	if n := snap.Outbox.NeedsAttention; n > 0 {
		env.Logger.Warn("emails need attention and are not sent", "count", n, "err", snap.Outbox.LastError,
			"hint", snap.Outbox.Hint, "what_to_do", emailAttentionHint)
	}
	relayDone := make(chan struct{}, 2)
	go func() {
		defer func() { relayDone <- struct{}{} }()
		relay.Run(ctx)
	}()
	go func() {
		defer func() { relayDone <- struct{}{} }()
		pushRelay.Run(ctx)
	}()
	err = svc.Run(ctx)
	<-relayDone
	<-relayDone
	env.Logger.Info("notifio stopped cleanly")
	return err
}

// emailAttentionHint says how to get emails that need attention sent.
const emailAttentionHint = "Fix the email settings (notifio email set), check them with \"notifio email test\" " +
	"(a successful test queues these emails again), or queue them again by hand: notifio email retry"

func cmdOnce(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "once", "notifio once [--data DIR] [--json]\n\nChecks every search once (sites that are backing off are skipped), sends the emails, and exits:\n0 when all went out, 1 when an email needs attention or could not be sent yet.")
	wait := durationFlag(fs, "wait", 2*time.Minute, "how long to keep retrying emails that failed temporarily")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	db, dir, err := env.openDB()
	if err != nil {
		return err
	}
	defer db.Close()
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	w, err := env.newWatcher(db, dir)
	if err != nil {
		return err
	}
	svc, relay, pushRelay := w.Service, w.Relay, w.Push
	defer svc.Close()
	results := svc.Once(ctx)
	drainCtx, cancel := context.WithTimeout(ctx, *wait)
	defer cancel()
	pushErr := drainPush(drainCtx, db, pushRelay)
	sendErr := drain(drainCtx, db, relay)
	if sendErr == nil || errors.Is(sendErr, model.ErrNotConfigured) {
		sendErr = errors.Join(sendErr, pushErr)
	}
	snap := svc.Snapshot()
	if env.JSON {
		_ = env.printJSON(map[string]any{"searches": onceJSON(results), "outbox": outboxJSON(snap.Outbox)})
	} else {
		tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "SEARCH\tSITE\tOUTCOME\tNEW\tNOTE")
		for _, r := range results {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\n", printable(r.Name), printable(r.Site), r.Outcome, r.New, printable(r.Reason))
		}
		tw.Flush()
	}
	for _, r := range results {
		if r.SaveErr != nil {
			return &ExitError{Code: 1, Msg: fmt.Sprintf("notifio: %s: %s (data: %s)", r.Name, r.Reason, dir)}
		}
	}
	if n := snap.Outbox.Held; n > 0 && !env.JSON {
		// Held on purpose, not a failure: exit 0 if nothing else is wrong.
		fmt.Fprintf(env.Stdout, "%d push(es) wait for quiet hours to end; the first run after they end sends them.\n", n)
	}
	switch {
	case snap.Outbox.NeedsAttention > 0:
		msg := fmt.Sprintf("notifio: %d alert(s) need attention: %s", snap.Outbox.NeedsAttention, snap.Outbox.LastError)
		if snap.Outbox.Hint != "" {
			msg += " — " + snap.Outbox.Hint
		}
		msg += "\n" + emailAttentionHint
		return &ExitError{Code: 1, Msg: msg}
	case snap.Outbox.Pending > 0:
		msg := fmt.Sprintf("notifio: %d alert(s) could not be sent yet; they stay queued for the next run", snap.Outbox.Pending)
		if sendErr != nil {
			msg += ": " + userMessage(sendErr)
		}
		return &ExitError{Code: 1, Msg: msg}
	}
	return nil
}

// drainPush sends the pushes due now and retries temporary failures until
// nothing is due within ctx's time; pushes held for quiet hours stay queued.
func drainPush(ctx context.Context, db *storage.DB, relay *notify.PushRelay) error {
	for {
		if _, err := relay.SendDue(ctx); err != nil {
			return err
		}
		next, ok := db.NextChannelDue()
		deadline, has := ctx.Deadline()
		if !ok || (has && next.After(deadline)) {
			return nil
		}
		t := time.NewTimer(max(time.Until(next), 0))
		select {
		case <-ctx.Done():
			t.Stop()
			return nil
		case <-t.C:
		}
	}
}

// drain sends the outbox until nothing is pending or ctx ends.
func drain(ctx context.Context, db *storage.DB, relay *notify.Relay) error {
	var last error
	for {
		_, err := relay.SendDue(ctx)
		if err != nil {
			if errors.Is(err, model.ErrNotConfigured) {
				return err
			}
			last = err
		}
		next, ok := db.NextOutboxDue()
		if !ok {
			return last
		}
		d := time.Until(next)
		if d < 0 {
			d = 0
		}
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			return last
		case <-t.C:
		}
	}
}
