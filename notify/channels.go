package notify

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"notifio/internal/model"

	"notifio/internal/pushurl"

	"notifio/internal/secrets"
)

// The push channel operations the command line and the window share: one
// validation, one place that keeps the service URL in the keyring.

// ChannelStore is the part of the storage the channel operations need;
// storage.DB implements it.
type ChannelStore interface {
	GetSearch(id string) (model.Search, error)
	ListChannels() ([]model.Channel, error)
	AddChannel(c model.Channel) error
	RemoveChannel(name string) error
}

// NoSearchError means a new channel names a search that does not exist.
type NoSearchError struct{ ID string }

func (e *NoSearchError) Error() string { return fmt.Sprintf("there is no search with ID %q", e.ID) }

// ErrChannelExists means a channel of the name exists already (it wraps
// model.ErrExists).
var ErrChannelExists = model.ErrExists

// AddChannel checks in (the URL, the quiet hours, the searches), saves the
// channel and keeps its URL in the keyring (or, with a warning, the 0600
// fallback file). It contacts no service. A keyring may take up to 20 s to
// answer: never call it on a UI goroutine.
func AddChannel(db ChannelStore, secrets *secrets.Secrets, in model.NewChannel, now time.Time) (ch model.Channel, warning string, err error) {
	raw := strings.TrimSpace(in.URL)
	service, err := pushurl.CheckServiceURL(raw)
	if err != nil {
		return ch, "", err
	}
	q, err := model.ParseQuiet(in.Quiet)
	if err != nil {
		return ch, "", err
	}
	for _, e := range in.Events {
		if !slices.Contains(model.Events, e) {
			return ch, "", fmt.Errorf("unknown event %q: use new_listings, price_drop or health", e)
		}
	}
	ch = model.Channel{Name: strings.TrimSpace(in.Name), Service: service, Display: pushurl.DisplayURL(raw),
		Searches: in.Searches, Events: in.Events, Quiet: q.String(), Created: now}
	for _, id := range ch.Searches {
		if _, err := db.GetSearch(id); err != nil {
			return ch, "", &NoSearchError{ID: id}
		}
	}
	if ch.Name == "" {
		ch.Name = freeChannelName(db, service)
	}
	if err := db.AddChannel(ch); errors.Is(err, model.ErrExists) {
		return ch, "", fmt.Errorf("a channel named %q exists already: choose another name, or remove that one first: %w", ch.Name, err)
	} else if err != nil {
		return ch, "", err
	}
	warning, err = secrets.SetServiceURL(ch.Name, raw)
	if err != nil {
		_ = db.RemoveChannel(ch.Name) // no channel without its URL
		return ch, "", err
	}
	return ch, warning, nil
}

// freeChannelName is service, or service-2, -3, … when that is taken.
func freeChannelName(db ChannelStore, service string) string {
	chans, _ := db.ListChannels()
	taken := func(n string) bool {
		return slices.ContainsFunc(chans, func(c model.Channel) bool { return c.Name == n })
	}
	name := service
	for i := 2; taken(name); i++ {
		name = fmt.Sprintf("%s-%d", service, i)
	}
	return name
}

// TestChannel sends one test push to the channel: nil when the service
// accepted it, else a *DeliveryError with the service's words and a hint.
func TestChannel(ctx context.Context, secrets *secrets.Secrets, name string) error {
	url, err := secrets.ServiceURL(name)
	if err != nil {
		return fmt.Errorf("%w; add the channel again", err)
	}
	err = SendPush(ctx, url, PushMessage{Title: "Notifio test",
		Body: "This is a test push from Notifio. New listings will reach you here."})
	var de *DeliveryError
	if errors.As(err, &de) && de.Hint == hintPushNetwork {
		de.Hint = hintPushTestNetwork // a test is one try: nothing keeps retrying it
	}
	return err
}

// RemoveChannel removes the channel, its unsent pushes and its URL from the
// keyring. The warning says when the URL could not be deleted (the channel is
// gone all the same). model.ErrNotFound (wrapped) when there is no such
// channel.
func RemoveChannel(db ChannelStore, secrets *secrets.Secrets, name string) (warning string, err error) {
	if err := db.RemoveChannel(name); errors.Is(err, model.ErrNotFound) {
		return "", fmt.Errorf("there is no push channel named %q: %w", name, err)
	} else if err != nil {
		return "", err
	}
	if err := secrets.DeleteServiceURL(name); err != nil {
		return fmt.Sprintf("The channel is removed, but its URL could not be deleted: %v", err), nil
	}
	return "", nil
}

// ChannelStates pairs each channel with its outbox items' state at now.
func ChannelStates(chans []model.Channel, items []model.OutboxItem, now time.Time) []model.ChannelState {
	out := make([]model.ChannelState, len(chans))
	at := map[string]int{}
	for i, c := range chans {
		out[i].Channel = c
		at[c.Name] = i
	}
	var newest = make([]time.Time, len(chans))
	for _, it := range items {
		i, ok := at[it.Channel]
		if !ok || it.Channel == "" {
			continue
		}
		st := &out[i]
		switch it.State {
		case model.OutboxSent:
			if it.SentAt.After(st.LastSent) {
				st.LastSent = it.SentAt
			}
		case model.OutboxNeedsAttention:
			if st.NeedsAttention == 0 || !it.Created.Before(newest[i]) {
				newest[i] = it.Created
				st.LastError, st.Hint = it.LastError, it.Hint
			}
			st.NeedsAttention++
		case model.OutboxPending:
			if model.HeldForQuiet(it, st.Channel, now) {
				st.HeldUntil = it.NextAttempt
				continue
			}
			st.Pending++
			if st.NeedsAttention == 0 && it.LastError != "" {
				st.LastError, st.Hint = it.LastError, it.Hint
			}
		}
	}
	return out
}
