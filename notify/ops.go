package notify

import (
	"context"
	"errors"
	"reflect"
	"time"

	"notifio/storage"

	"notifio/internal/model"

	"notifio/internal/secrets"
)

// The delivery operations of the window: its email settings, test email,
// retry button and push channels, over the watcher's database and secrets.
// The command line calls the functions below them (EmailSettings,
// RequeueEmails, AddChannel, …) directly.

var errNoSecrets = errors.New("notify: push channels cannot be saved: no keyring or data folder was given to the watcher")

// OpsOptions wire Ops to the relays and the watcher; every nil hook is skipped.
type OpsOptions struct {
	// Secrets keeps the SMTP password and the push URLs; nil means neither
	// can be saved.
	Secrets *secrets.Secrets
	// Now is the clock (nil: time.Now).
	Now func() time.Time
	// Wake wakes the relays after emails went back in the queue.
	Wake func()
	// Requeued tells the observers that emails went back in the queue, so the
	// window's outbox banner reads the outbox again. It must not block.
	Requeued func()
	// Changed tells them that items left the outbox (a removed channel's
	// unsent pushes), as the relays' OnChange does. It must not block.
	Changed func()
}

// Ops are the delivery operations the window calls. Safe for concurrent use;
// the slow ones (the keyring, a test email or push) belong off the UI
// goroutine.
type Ops struct {
	db    *storage.DB
	email *EmailSettings
	opts  OpsOptions
}

// NewOps returns the operations over db.
func NewOps(db *storage.DB, opts OpsOptions) *Ops {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Ops{db: db, email: NewEmailSettings(db, opts.Secrets), opts: opts}
}

// EmailConfig returns the saved SMTP settings (zero Config when none).
func (o *Ops) EmailConfig() (model.Config, error) { return o.email.Load() }

// SetEmailConfig validates and saves the SMTP settings; the password goes to the
// OS keyring (or its fallback, with the warning returned). Emails that needed
// attention go back in the queue: the new settings may be the fix.
func (o *Ops) SetEmailConfig(cfg model.Config, password string) (string, error) {
	warn, err := o.email.Save(cfg, password)
	if err != nil {
		return "", err
	}
	return warn, o.RetryOutbox()
}

// SendTestEmail sends a test email with the given settings and password ("" means
// the saved password) and returns an error the user can act on. When it gets
// through with the saved settings, the emails that needed attention go back in
// the queue.
func (o *Ops) SendTestEmail(ctx context.Context, cfg model.Config, password string) error {
	if password == "" {
		if p, err := o.email.Password(cfg); err == nil {
			password = p
		}
	}
	if err := SendTestEmail(ctx, cfg, password); err != nil {
		return err
	}
	if saved, err := o.email.Load(); err == nil && reflect.DeepEqual(saved, cfg) {
		return o.RetryOutbox()
	}
	return nil
}

// RetryOutbox puts every email that needs attention back in the queue and
// wakes the relays.
func (o *Ops) RetryOutbox() error {
	if _, err := RequeueEmails(o.db, o.opts.Now()); err != nil {
		return err
	}
	call(o.opts.Wake)
	call(o.opts.Requeued)
	return nil
}

// Channels returns the push channels with how their pushes are doing.
func (o *Ops) Channels() ([]model.ChannelState, error) {
	chans, err := o.db.ListChannels()
	if err != nil {
		return nil, err
	}
	items, err := o.db.ListOutbox()
	if err != nil {
		return nil, err
	}
	return ChannelStates(chans, items, o.opts.Now()), nil
}

// AddChannel saves a push channel and keeps its URL in the keyring; the
// warning says when there is no keyring.
func (o *Ops) AddChannel(in model.NewChannel) (model.Channel, string, error) {
	if o.opts.Secrets == nil {
		return model.Channel{}, "", errNoSecrets
	}
	return AddChannel(o.db, o.opts.Secrets, in, o.opts.Now())
}

// TestChannel sends one test push to the channel.
func (o *Ops) TestChannel(ctx context.Context, name string) error {
	if o.opts.Secrets == nil {
		return errNoSecrets
	}
	return TestChannel(ctx, o.opts.Secrets, name)
}

// RemoveChannel removes the channel, its unsent pushes and its URL.
func (o *Ops) RemoveChannel(name string) (string, error) {
	if o.opts.Secrets == nil {
		return "", errNoSecrets
	}
	warning, err := RemoveChannel(o.db, o.opts.Secrets, name)
	if err == nil {
		call(o.opts.Changed) // its unsent pushes went with it
	}
	return warning, err
}

func call(fn func()) {
	if fn != nil {
		fn()
	}
}
