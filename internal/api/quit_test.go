package api_test

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"notifio/internal/model"
)

// POST /v1/quit answers with the watcher's pid, then calls the watcher's own
// stop; a server given no stop says so in words and stays up.
func TestQuitOverTheSocket(t *testing.T) {
	s := serve(t)
	ctx := context.Background()
	_, err := s.client.Quit(ctx)
	var ue *model.UserError
	if !errors.As(err, &ue) || ue.Hint == "" {
		t.Fatalf("quit of a server without a stop: %v, want a user error with a hint", err)
	}
	if _, err := s.client.Info(ctx); err != nil {
		t.Fatalf("the server went away: %v", err)
	}

	quit := make(chan struct{})
	s.srv.OnQuit(func() { close(quit) })
	q, err := s.client.Quit(ctx)
	if err != nil || q.PID != os.Getpid() {
		t.Fatalf("quit: %+v %v, want pid %d", q, err, os.Getpid())
	}
	select {
	case <-quit:
	case <-time.After(10 * time.Second):
		t.Fatal("the watcher's stop was not called")
	}
}
