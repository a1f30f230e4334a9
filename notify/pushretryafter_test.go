package notify

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"notifio/internal/model"
)

// TestPushHonoursRetryAfter (issue 35 item 6): a push service answering 429
// with Retry-After: 120 was tried again after 26 s and 57 s. The next try is
// now at least 120 s later; a Retry-After of a day is capped at an hour.
func TestPushHonoursRetryAfter(t *testing.T) {
	for _, tc := range []struct {
		header string
		want   time.Duration
	}{{"120", 120 * time.Second}, {"86400", time.Hour}} {
		var hits atomic.Int32
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			hits.Add(1)
			w.Header().Set("Retry-After", tc.header)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusTooManyRequests)
			w.Write([]byte(`{"code":42901,"http":429,"error":"limit reached: too many requests"}`))
		}))
		now := time.Now()
		db, id := pushSetup(t, model.Channel{Name: "phone", Service: "ntfy"}, now)
		url := "ntfy://" + strings.TrimPrefix(srv.URL, "http://") + "/flats?scheme=http"
		r := NewPushRelay(db, urlsOf(map[string]string{"phone": url}), RelayOptions{
			Logger: quietLogger(), Now: func() time.Time { return now }, Random: func() float64 { return 0 },
		})
		if sent, err := r.SendDue(context.Background()); sent != 0 || err != nil {
			t.Fatalf("Retry-After %s: sent %d, %v", tc.header, sent, err)
		}
		it, err := db.GetOutbox(id)
		if err != nil {
			t.Fatal(err)
		}
		if got := it.NextAttempt.Sub(now); it.State != model.OutboxPending || got != tc.want || hits.Load() != 1 {
			t.Errorf("Retry-After %s: next try in %s (state %s, %d requests), want in %s", tc.header, got, it.State, hits.Load(), tc.want)
		}
		srv.Close()
	}
}

// TestGotifyAndWebhookHonourRetryAfter (issue 35 item 6): shoutrrr hands no
// response headers on for Gotify and the generic webhook, so their 429 with
// Retry-After: 120 was retried on the backoff alone. A transport of ours now
// records it (Gotify's client, and http.DefaultClient that the webhook
// sends with): the next try is not before 120 s.
func TestGotifyAndWebhookHonourRetryAfter(t *testing.T) {
	for _, tc := range []struct {
		service string
		url     func(host string) string
	}{
		{"gotify", func(host string) string { return "gotify://" + host + "/AbCdEfGhIjKlMnO?disabletls=yes" }},
		{"generic", func(host string) string { return "generic://" + host + "/hook?disabletls=yes" }},
	} {
		t.Run(tc.service, func(t *testing.T) {
			var hits atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				hits.Add(1)
				w.Header().Set("Retry-After", "120")
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusTooManyRequests)
				w.Write([]byte(`{"error":"Too Many Requests","errorCode":429,"errorDescription":"slow down"}`))
			}))
			defer srv.Close()
			now := time.Now()
			db, id := pushSetup(t, model.Channel{Name: "phone", Service: tc.service}, now)
			r := NewPushRelay(db, urlsOf(map[string]string{"phone": tc.url(strings.TrimPrefix(srv.URL, "http://"))}), RelayOptions{
				Logger: quietLogger(), Now: func() time.Time { return now }, Random: func() float64 { return 0 },
			})
			if sent, err := r.SendDue(context.Background()); sent != 0 || err != nil {
				t.Fatalf("sent %d, %v", sent, err)
			}
			it, err := db.GetOutbox(id)
			if err != nil {
				t.Fatal(err)
			}
			if got := it.NextAttempt.Sub(now); it.State != model.OutboxPending || got < 120*time.Second || hits.Load() != 1 {
				t.Errorf("next try in %s (state %s, %d requests, last error %q), want not before 120 s", got, it.State, hits.Load(), it.LastError)
			}
		})
	}
}
