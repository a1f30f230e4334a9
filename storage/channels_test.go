package storage

import (
	"errors"
	"slices"
	"testing"
	"time"

	"notifio/internal/model"
)

// One poll queues one item per channel that wants the search's new listings,
// and email only when it is set up or no channel took the digest.
func TestCommitPollQueuesOneItemPerChannel(t *testing.T) {
	db := openT(t, t.TempDir(), Options{})
	s := addSearch(t, db, "kreuzberg")
	other := addSearch(t, db, "mitte")
	for _, c := range []model.Channel{
		{Name: "phone", Service: "ntfy"},
		{Name: "mitte-only", Service: "telegram", Searches: []string{other.ID}},
		{Name: "health-only", Service: "gotify", Events: []model.Event{model.EventHealth}},
	} {
		if err := db.AddChannel(c); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.AddChannel(model.Channel{Name: "phone"}); !errors.Is(err, model.ErrExists) {
		t.Fatalf("a second channel named phone: %v", err)
	}
	if _, err := db.CommitPoll(s.ID, nil, t0); err != nil { // baseline
		t.Fatal(err)
	}
	// Push alone: email is not set up, so only the phone gets the digest.
	res, err := db.CommitPoll(s.ID, listings("a", 2), t0.Add(time.Minute))
	if err != nil || len(res.OutboxIDs) != 1 {
		t.Fatalf("push alone: %+v, %v", res, err)
	}
	if it, _ := db.GetOutbox(res.OutboxID); it.Channel != "phone" || len(it.Listings) != 2 {
		t.Fatalf("push alone queued %+v", it)
	}
	if due, _ := db.DueOutbox(t0.Add(time.Hour), 0); len(due) != 0 {
		t.Fatalf("the email relay sees %d push items", len(due))
	}
	if due, _ := db.DueChannelOutbox(t0.Add(time.Hour), 0); len(due) != 1 {
		t.Fatalf("the push relay sees %d items, want 1", len(due))
	}

	// With email set up, email and the phone both get the next one.
	if err := db.PutSetting("email", map[string]any{"host": "smtp.example.com"}); err != nil {
		t.Fatal(err)
	}
	res, err = db.CommitPoll(s.ID, listings("b", 1), t0.Add(2*time.Minute))
	if err != nil || len(res.OutboxIDs) != 2 {
		t.Fatalf("email and push: %+v, %v", res, err)
	}
	var chans []string
	for _, id := range res.OutboxIDs {
		it, _ := db.GetOutbox(id)
		chans = append(chans, it.Channel)
	}
	if !slices.Equal(chans, []string{"", "phone"}) {
		t.Fatalf("channels %q, want email then phone", chans)
	}

	// Removing the channel takes its unsent items with it, and nothing else.
	if err := db.RemoveChannel("phone"); err != nil {
		t.Fatal(err)
	}
	if due, _ := db.DueChannelOutbox(t0.Add(time.Hour), 0); len(due) != 0 {
		t.Fatalf("%d items of a removed channel remain", len(due))
	}
	if due, _ := db.DueOutbox(t0.Add(time.Hour), 0); len(due) != 1 {
		t.Fatalf("the email item went too: %d left", len(due))
	}
	if err := db.RemoveChannel("phone"); !errors.Is(err, model.ErrNotFound) {
		t.Fatalf("removing it twice: %v", err)
	}
}

// Quiet hours hold an item without counting an attempt.
func TestHoldOutboxCountsNoAttempt(t *testing.T) {
	db := openT(t, t.TempDir(), Options{})
	if err := db.AddChannel(model.Channel{Name: "phone", Service: "ntfy"}); err != nil {
		t.Fatal(err)
	}
	_, ids := queue(t, db, 1)
	until := t0.Add(8 * time.Hour)
	if err := db.HoldOutbox(ids[0], until); err != nil {
		t.Fatal(err)
	}
	it, _ := db.GetOutbox(ids[0])
	if it.Attempts != 0 || !it.NextAttempt.Equal(until) || it.State != model.OutboxPending {
		t.Fatalf("held item %+v", it)
	}
	if next, ok := db.NextChannelDue(); !ok || !next.Equal(until) {
		t.Fatalf("next push due %v %v, want %v", next, ok, until)
	}
}

func TestChannelWants(t *testing.T) {
	all := model.Channel{Name: "a"}
	for _, e := range model.Events {
		if !all.Wants(e, "x") {
			t.Errorf("a channel without a choice does not get %s", e)
		}
	}
	some := model.Channel{Searches: []string{"x"}, Events: []model.Event{model.EventPriceDrop, model.EventNewListings}}
	if !some.Wants(model.EventPriceDrop, "x") || some.Wants(model.EventNewListings, "y") {
		t.Error("searches and events both filter")
	}
}
