package cli

import (
	"time"

	"notifio/notify"
	"notifio/poll"
	"notifio/storage"
)

// Watcher is the watcher and its delivery, wired in one place for the window
// (main.go), `notifio run` and `notifio once`: the relays wake when the watcher
// queues something and tell it when the outbox changed (the window's summary,
// once's exit code and the delivery health read it).
type Watcher struct {
	Service *poll.Service
	// Ops are the delivery operations of the window (email settings, test
	// email, retry, push channels).
	Ops   *notify.Ops
	Relay *notify.Relay
	Push  *notify.PushRelay
}

// NewWatcher builds the watcher over db with its email and push relays;
// opts.DataDir is where the secrets' fallback file lives, opts.Delivery is
// set here. Nothing runs until the caller starts the relays and the service.
func NewWatcher(db *storage.DB, opts poll.Options) (*Watcher, error) {
	secrets := newSecrets(opts.DataDir)
	push := notify.NewPushRelay(db, secrets.ServiceURL, notify.RelayOptions{Logger: opts.Logger})
	email := notify.NewEmailSettings(db, secrets)
	relay := notify.NewRelay(db, email.Source, notify.RelayOptions{Logger: opts.Logger, AlsoWake: push.Wake})
	opts.Delivery = relay
	svc, err := poll.New(db, opts)
	if err != nil {
		return nil, err
	}
	// The relays tell the watcher when the outbox changed: given now that it
	// exists, before anything runs.
	relay.NotifyChanges(svc.OutboxChanged)
	push.NotifyChanges(svc.OutboxChanged)
	var now func() time.Time // nil: notify's real clock
	if opts.Clock != nil {
		now = opts.Clock.Now
	}
	ops := notify.NewOps(db, notify.OpsOptions{Secrets: secrets, Now: now, Wake: relay.Wake,
		Requeued: svc.OutboxRequeued, Changed: svc.OutboxChanged})
	return &Watcher{Service: svc, Ops: ops, Relay: relay, Push: push}, nil
}
