package notify

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"notifio/storage"

	"notifio/internal/model"

	"notifio/internal/pushurl"
)

// pushServer stands in for a push service on loopback: an ntfy-compatible
// server (POST /topic, Title header, the message as the body) or a generic
// webhook. reply gives the status for the n-th request (1-based).
type pushServer struct {
	*httptest.Server
	mu    sync.Mutex
	posts []pushPost
	reply func(n int) (int, string)
}

type pushPost struct {
	Path, Title, Body, Click string
}

func startPushServer(t *testing.T, reply func(n int) (int, string)) *pushServer {
	t.Helper()
	ps := &pushServer{reply: reply}
	ps.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		ps.mu.Lock()
		ps.posts = append(ps.posts, pushPost{r.URL.Path, r.Header.Get("Title"), string(b), r.Header.Get("Click")})
		n := len(ps.posts)
		ps.mu.Unlock()
		code, body := http.StatusOK, `{"id":"x","event":"message"}`
		if ps.reply != nil {
			code, body = ps.reply(n)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		fmt.Fprint(w, body)
	}))
	t.Cleanup(ps.Close)
	return ps
}

func (ps *pushServer) Posts() []pushPost {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	return append([]pushPost(nil), ps.posts...)
}

func (ps *pushServer) ntfyURL() string {
	return "ntfy://" + strings.TrimPrefix(ps.URL, "http://") + "/flats?scheme=http"
}

// pushSetup is a real database with one push channel and one digest queued
// for it (email not set up: push alone).
func pushSetup(t *testing.T, ch model.Channel, now time.Time) (*storage.DB, uint64) {
	t.Helper()
	db, err := storage.Open(t.TempDir(), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.AddChannel(ch); err != nil {
		t.Fatal(err)
	}
	id := queueDigest(t, db, now)
	if it, _ := db.GetOutbox(id); it.Channel != ch.Name {
		t.Fatalf("the digest went to %q, want the channel %q", it.Channel, ch.Name)
	}
	return db, id
}

func urlsOf(m map[string]string) func(string) (string, error) {
	return func(name string) (string, error) {
		if u, ok := m[name]; ok {
			return u, nil
		}
		return "", model.ErrNoServiceURL
	}
}

func TestPushDeliveredOnceToNtfy(t *testing.T) {
	ps := startPushServer(t, nil)
	now := time.Now()
	db, id := pushSetup(t, model.Channel{Name: "phone", Service: "ntfy"}, now)
	r := NewPushRelay(db, urlsOf(map[string]string{"phone": ps.ntfyURL()}), RelayOptions{Logger: quietLogger()})
	if sent, err := r.SendDue(context.Background()); sent != 1 || err != nil {
		t.Fatalf("sent %d, %v", sent, err)
	}
	if sent, err := r.SendDue(context.Background()); sent != 0 || err != nil {
		t.Fatalf("a second pass sent %d, %v", sent, err)
	}
	posts := ps.Posts()
	if len(posts) != 1 {
		t.Fatalf("%d posts, want 1", len(posts))
	}
	p := posts[0]
	if p.Path != "/flats" || p.Title != "2 new on Kreuzberg flats" {
		t.Errorf("post %+v", p)
	}
	for _, want := range []string{"New one", "900 €", "https://www.example-immo.de/expose/2", "Newer one", "3 rooms"} {
		if !strings.Contains(p.Body, want) {
			t.Errorf("body lacks %q:\n%s", want, p.Body)
		}
	}
	if it, _ := db.GetOutbox(id); it.State != model.OutboxSent {
		t.Errorf("item %+v, want sent", it)
	}
}

func TestPushGenericWebhookRetriesA500ThenDeliversOnce(t *testing.T) {
	ps := startPushServer(t, func(n int) (int, string) {
		if n == 1 {
			return http.StatusInternalServerError, "boom"
		}
		return http.StatusOK, "ok"
	})
	clock := &fakeClock{t: time.Now()}
	db, id := pushSetup(t, model.Channel{Name: "hook", Service: "generic"}, clock.Now())
	hook := "generic://" + strings.TrimPrefix(ps.URL, "http://") + "/hook?disabletls=yes"
	r := NewPushRelay(db, urlsOf(map[string]string{"hook": hook}), RelayOptions{Logger: quietLogger(),
		Now: clock.Now, Random: func() float64 { return 0 }})
	if sent, err := r.SendDue(context.Background()); sent != 0 || err != nil {
		t.Fatalf("first pass: sent %d, %v", sent, err)
	}
	it, _ := db.GetOutbox(id)
	if it.State != model.OutboxPending || it.Attempts != 1 || !it.NextAttempt.Equal(clock.Now().Add(30*time.Second)) ||
		!strings.Contains(it.LastError, "500") {
		t.Fatalf("after the 500: %+v", it)
	}
	if sent, _ := r.SendDue(context.Background()); sent != 0 {
		t.Fatal("retried before the backoff ended")
	}
	clock.Advance(30 * time.Second)
	if sent, err := r.SendDue(context.Background()); sent != 1 || err != nil {
		t.Fatalf("after the backoff: sent %d, %v", sent, err)
	}
	if n := len(ps.Posts()); n != 2 {
		t.Fatalf("%d posts, want the failed one and one delivery", n)
	}
	if !strings.Contains(ps.Posts()[1].Body, "New one") {
		t.Errorf("webhook body %q", ps.Posts()[1].Body)
	}
	if it, _ := db.GetOutbox(id); it.State != model.OutboxSent {
		t.Errorf("item %+v, want sent", it)
	}
}

func TestPush401NeedsAttentionWithAHint(t *testing.T) {
	ps := startPushServer(t, func(int) (int, string) {
		return http.StatusUnauthorized, `{"code":40101,"http":401,"error":"unauthorized","link":"https://ntfy.sh/docs/publish/#authentication"}`
	})
	db, id := pushSetup(t, model.Channel{Name: "phone", Service: "ntfy"}, time.Now())
	secretURL := "ntfy://alice:s3cret-passw0rd@" + strings.TrimPrefix(ps.URL, "http://") + "/flats?scheme=http"
	r := NewPushRelay(db, urlsOf(map[string]string{"phone": secretURL}), RelayOptions{Logger: quietLogger()})
	if _, err := r.SendDue(context.Background()); err != nil {
		t.Fatal(err)
	}
	it, _ := db.GetOutbox(id)
	if it.State != model.OutboxNeedsAttention || !strings.Contains(it.LastError, "unauthorized") || it.Hint != hintPushAuth {
		t.Fatalf("after the 401: %+v", it)
	}
	if strings.Contains(it.LastError, "s3cret-passw0rd") {
		t.Errorf("the password reached the outbox: %q", it.LastError)
	}
	if _, err := r.SendDue(context.Background()); err != nil || len(ps.Posts()) != 1 {
		t.Errorf("a permanent failure was retried: %d posts, %v", len(ps.Posts()), err)
	}
}

// In quiet hours pushes wait; when the hours end the waiting digests arrive as
// one summary.
func TestPushQuietHoursHoldThenOneSummary(t *testing.T) {
	ps := startPushServer(t, nil)
	night := time.Date(2026, 3, 10, 23, 30, 0, 0, time.Local)
	clock := &fakeClock{t: night}
	db, first := pushSetup(t, model.Channel{Name: "phone", Service: "ntfy", Quiet: "23:00-07:00"}, night)
	second := queueDigest(t, db, night.Add(time.Hour)) // another search, later that night
	r := NewPushRelay(db, urlsOf(map[string]string{"phone": ps.ntfyURL()}), RelayOptions{Logger: quietLogger(), Now: clock.Now})
	for range 2 { // at 23:30 and at 00:30, when the second one is due
		if sent, err := r.SendDue(context.Background()); sent != 0 || err != nil {
			t.Fatalf("in quiet hours: sent %d, %v", sent, err)
		}
		clock.Advance(time.Hour)
	}
	morning := time.Date(2026, 3, 11, 7, 0, 0, 0, time.Local)
	for _, id := range []uint64{first, second} {
		if it, _ := db.GetOutbox(id); it.State != model.OutboxPending || it.Attempts != 0 || !it.NextAttempt.Equal(morning) {
			t.Fatalf("held item %+v, want pending until %s", it, morning)
		}
	}
	clock.Advance(5*time.Hour + 29*time.Minute) // 06:59
	if sent, _ := r.SendDue(context.Background()); sent != 0 || len(ps.Posts()) != 0 {
		t.Fatal("sent a minute before the quiet hours end")
	}
	clock.Advance(time.Minute)
	if sent, err := r.SendDue(context.Background()); sent != 2 || err != nil {
		t.Fatalf("at 07:00: sent %d, %v", sent, err)
	}
	posts := ps.Posts()
	if len(posts) != 1 || posts[0].Title != "4 new on 2 searches" || !strings.Contains(posts[0].Body, "… and 1 more") {
		t.Fatalf("want one summary of both digests, got %+v", posts)
	}
}

func TestCheckServiceURL(t *testing.T) {
	if s, err := pushurl.CheckServiceURL("ntfy://127.0.0.1:8080/flats?scheme=http"); err != nil || s != "ntfy" {
		t.Fatalf("ntfy: %q %v", s, err)
	}
	for raw, want := range map[string]string{
		"ftp://example.com/x":   `unknown push service "ftp"`,
		"not a url":             "not a service URL",
		"telegram://telegram":   "not complete or not valid",
		"https://ntfy.sh/flats": `unknown push service "https"`,
	} {
		if _, err := pushurl.CheckServiceURL(raw); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", raw, err, want)
		}
	}
	if d := pushurl.DisplayURL("telegram://123456:ABCDEF@telegram?chats=@flats"); strings.Contains(d, "ABCDEF") || strings.Contains(d, "@flats") {
		t.Errorf("display shows a secret: %q", d)
	}
}

// Services quote their API URLs in errors, tokens and all: none reaches the
// outbox or a log.
func TestPushErrorsCarryNoSecrets(t *testing.T) {
	raw := "telegram://123456:AAHsecretTOKEN@telegram?chats=-100998877"
	err := fmt.Errorf("posting to https://api.telegram.org/bot123456:AAHsecretTOKEN/sendMessage for chat -100998877: 400 Bad Request")
	d := pushFail(err, raw)
	if w := errWords(d); strings.Contains(w, "AAHsecretTOKEN") || strings.Contains(w, "-100998877") {
		t.Errorf("secrets in %q", w)
	}
	if d.Temporary || d.Code != 400 || d.Hint != hintPushRefused {
		t.Errorf("a 400 is permanent: %+v", d)
	}
}
