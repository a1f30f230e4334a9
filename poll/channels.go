package poll

import (
	"context"
	"errors"

	"notifio/notify"
	"notifio/storage"
)

// The push channel operations of the window: the command line's (notify's
// AddChannel, TestChannel, RemoveChannel) over the watcher's database and
// secrets.

var errNoSecrets = errors.New("poll: push channels cannot be saved: no keyring or data folder was given to the watcher")

// Channels returns the push channels with how their pushes are doing.
func (s *Service) Channels() ([]notify.ChannelState, error) {
	chans, err := s.db.ListChannels()
	if err != nil {
		return nil, err
	}
	items, err := s.db.ListOutbox()
	if err != nil {
		return nil, err
	}
	return notify.ChannelStates(chans, items, s.clock.Now()), nil
}

// AddChannel saves a push channel and keeps its URL in the keyring; the
// warning says when there is no keyring. Slow (the keyring): not on a UI
// goroutine.
func (s *Service) AddChannel(in notify.NewChannel) (storage.Channel, string, error) {
	if s.opts.Secrets == nil {
		return storage.Channel{}, "", errNoSecrets
	}
	return notify.AddChannel(s.db, s.opts.Secrets, in, s.clock.Now())
}

// TestChannel sends one test push to the channel.
func (s *Service) TestChannel(ctx context.Context, name string) error {
	if s.opts.Secrets == nil {
		return errNoSecrets
	}
	return notify.TestChannel(ctx, s.opts.Secrets, name)
}

// RemoveChannel removes the channel, its unsent pushes and its URL.
func (s *Service) RemoveChannel(name string) (string, error) {
	if s.opts.Secrets == nil {
		return "", errNoSecrets
	}
	warning, err := notify.RemoveChannel(s.db, s.opts.Secrets, name)
	if err == nil {
		s.OutboxChanged() // its unsent pushes went with it
	}
	return warning, err
}
