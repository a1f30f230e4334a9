package notify

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"notifio/storage"

	"notifio/internal/model"
)

// The push relay's crash tests, as the email relay's (crash_test.go): a child
// process on a real database is killed with SIGKILL at the worst moment.

// Killed after the service received the push but before "sent" was committed:
// the push is not lost — after the restart it goes out again, once, and never
// a third time. (No push service takes an idempotency key, so this window is
// the one place a repeat can come from, as with email.)
func TestPushCrashAfterServiceAcceptedBeforeMarkedSent(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a child process")
	}
	dir := t.TempDir()
	db, err := storage.Open(dir, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.AddChannel(model.Channel{Name: "phone", Service: "ntfy"}); err != nil {
		t.Fatal(err)
	}
	id := queueDigest(t, db, time.Now())
	db.Close()

	childCh := make(chan *child, 1)
	var once sync.Once
	ps := startPushServer(t, func(int) (int, string) {
		// The server holds the whole push; the child waits for the reply.
		once.Do(func() { (<-childCh).kill(t) })
		return http.StatusOK, `{"id":"x","event":"message"}`
	})
	port := ps.Listener.Addr().String()[strings.LastIndexByte(ps.Listener.Addr().String(), ':')+1:]
	p, _ := strconv.Atoi(port)
	c := startChild(t, "push", dir, p)
	childCh <- c
	c.wait(t)
	if c.cmd.ProcessState.Success() || len(ps.Posts()) != 1 {
		t.Fatalf("want the child killed after one post: %d posts\n%s", len(ps.Posts()), c.out.String())
	}

	db, err = storage.Open(dir, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if it, _ := db.GetOutbox(id); it.State != model.OutboxPending {
		t.Fatalf("after the crash: %+v", it)
	}
	r := NewPushRelay(db, urlsOf(map[string]string{"phone": ps.ntfyURL()}), RelayOptions{Logger: quietLogger()})
	for range 2 {
		if _, err := r.SendDue(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if it, _ := db.GetOutbox(id); it.State != model.OutboxSent {
		t.Fatalf("not sent after the restart: %+v", it)
	}
	posts := ps.Posts()
	if len(posts) != 2 || posts[0].Body != posts[1].Body {
		t.Fatalf("%d posts, want the original and one identical resend", len(posts))
	}
}

// Killed right after the poll commit, before any push: after the restart the
// push is delivered, once.
func TestPushCrashAfterPollCommitBeforeSending(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a child process")
	}
	dir := t.TempDir()
	db, err := storage.Open(dir, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.AddChannel(model.Channel{Name: "phone", Service: "ntfy"}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	c := startChild(t, "commit", dir, 0)
	var line string
	for !strings.HasPrefix(line, "committed ") {
		select {
		case line = <-c.lines:
		case <-c.exited:
			t.Fatalf("the child ended early:\n%s", c.out.String())
		case <-time.After(60 * time.Second):
			t.Fatal("the child did not commit")
		}
	}
	c.kill(t)
	id, _ := strconv.ParseUint(strings.TrimPrefix(line, "committed "), 10, 64)

	ps := startPushServer(t, nil)
	db, err = storage.Open(dir, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	r := NewPushRelay(db, urlsOf(map[string]string{"phone": ps.ntfyURL()}), RelayOptions{Logger: quietLogger()})
	for range 2 {
		if _, err := r.SendDue(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if it, _ := db.GetOutbox(id); it.State != model.OutboxSent || it.Channel != "phone" {
		t.Fatalf("item after restart: %+v", it)
	}
	if n := len(ps.Posts()); n != 1 {
		t.Fatalf("%d posts, want 1", n)
	}
}
