package storage

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"notifio/internal/model"
)

// queue makes n outbox items, one per poll, created a minute apart from t0.
func queue(t *testing.T, db *DB, n int) (model.Search, []uint64) {
	t.Helper()
	s := addSearch(t, db, "q")
	if _, err := db.CommitPoll(s.ID, nil, t0); err != nil { // baseline
		t.Fatal(err)
	}
	var ids []uint64
	for i := 0; i < n; i++ {
		res, err := db.CommitPoll(s.ID, listings(fmt.Sprintf("q%d", i), 2), t0.Add(time.Duration(i)*time.Minute))
		if err != nil || res.OutboxID == 0 {
			t.Fatalf("poll %d: %+v, %v", i, res, err)
		}
		ids = append(ids, res.OutboxID)
	}
	return s, ids
}

func dueIDs(t *testing.T, db *DB, now time.Time, limit int) []uint64 {
	t.Helper()
	items, err := db.DueOutbox(now, limit)
	if err != nil {
		t.Fatal(err)
	}
	out := []uint64{}
	for _, it := range items {
		out = append(out, it.ID)
	}
	return out
}

func TestOutboxLifecycle(t *testing.T) {
	c := newClock()
	db := openT(t, t.TempDir(), Options{Now: c.Now})
	_, ids := queue(t, db, 4)
	a, b, cc, d := ids[0], ids[1], ids[2], ids[3]

	if got := dueIDs(t, db, t0.Add(90*time.Second), 0); !reflect.DeepEqual(got, []uint64{a, b}) {
		t.Fatalf("due at +90s: %v", got)
	}
	if got := dueIDs(t, db, t0.Add(time.Hour), 3); !reflect.DeepEqual(got, []uint64{a, b, cc}) {
		t.Fatalf("due with limit 3: %v", got)
	}
	if next, ok := db.NextOutboxDue(); !ok || !next.Equal(t0) {
		t.Fatalf("NextOutboxDue: %v %v", next, ok)
	}

	// a: temporary failure, retried later.
	retryAt := t0.Add(2 * time.Hour)
	if err := db.MarkRetry(a, 1, retryAt, "451 try again"); err != nil {
		t.Fatal(err)
	}
	// b: sent.
	sentAt := t0.Add(5 * time.Minute)
	if err := db.MarkSent(b, sentAt); err != nil {
		t.Fatal(err)
	}
	// c: permanent failure.
	if err := db.MarkNeedsAttention(cc, "535 5.7.8 bad credentials", "use an app password"); err != nil {
		t.Fatal(err)
	}
	if got := dueIDs(t, db, t0.Add(time.Hour), 0); !reflect.DeepEqual(got, []uint64{d}) {
		t.Fatalf("due after marks: %v", got)
	}
	if next, _ := db.NextOutboxDue(); !next.Equal(t0.Add(3 * time.Minute)) {
		t.Fatalf("NextOutboxDue: %v", next)
	}
	ia, _ := db.GetOutbox(a)
	if ia.State != model.OutboxPending || ia.Attempts != 1 || !ia.NextAttempt.Equal(retryAt) || ia.LastError != "451 try again" {
		t.Fatalf("after MarkRetry: %+v", ia)
	}
	ib, _ := db.GetOutbox(b)
	if ib.State != model.OutboxSent || !ib.SentAt.Equal(sentAt) {
		t.Fatalf("after MarkSent: %+v", ib)
	}
	ic, _ := db.GetOutbox(cc)
	if ic.State != model.OutboxNeedsAttention || ic.Hint != "use an app password" || ic.LastError == "" {
		t.Fatalf("after MarkNeedsAttention: %+v", ic)
	}

	// A late retry or failure does not resurrect a sent item; a repeat MarkSent is harmless.
	if err := db.MarkRetry(b, 2, t0, "late"); err != nil {
		t.Fatal(err)
	}
	if err := db.MarkNeedsAttention(b, "late", ""); err != nil {
		t.Fatal(err)
	}
	if err := db.MarkSent(b, sentAt.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if got, _ := db.GetOutbox(b); !reflect.DeepEqual(got, ib) {
		t.Fatalf("sent item changed: %+v", got)
	}
	if err := db.RetryOutbox(b, t0); err == nil {
		t.Fatal("RetryOutbox on a sent item succeeded")
	}

	// The user fixed the password: everything needing attention is due now.
	now := t0.Add(30 * time.Minute)
	if err := db.RetryOutbox(0, now); err != nil {
		t.Fatal(err)
	}
	ic, _ = db.GetOutbox(cc)
	if ic.State != model.OutboxPending || !ic.NextAttempt.Equal(now) || ic.Attempts != 0 || ic.Hint != "" {
		t.Fatalf("after RetryOutbox(0): %+v", ic)
	}
	// Retrying one pending item makes it due now.
	if err := db.RetryOutbox(a, now); err != nil {
		t.Fatal(err)
	}
	if got := dueIDs(t, db, now, 0); !reflect.DeepEqual(got, []uint64{a, cc, d}) {
		t.Fatalf("due after retries: %v", got)
	}

	for _, err := range []error{
		db.MarkSent(999, now), db.MarkRetry(999, 1, now, ""), db.MarkNeedsAttention(999, "", ""), db.RetryOutbox(999, now),
		func() error { _, err := db.GetOutbox(999); return err }(),
	} {
		if !errors.Is(err, model.ErrNotFound) {
			t.Fatalf("unknown item: %v, want ErrNotFound", err)
		}
	}

	// Pruning: sent items go after 30 days; unsent ones never.
	for _, id := range []uint64{a, cc} {
		if err := db.MarkSent(id, now); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := db.PruneOutbox(sentAt.Add(SentRetention - time.Minute)); err != nil || n != 0 {
		t.Fatalf("early prune: %d, %v", n, err)
	}
	if n, err := db.PruneOutbox(now.Add(SentRetention + time.Minute)); err != nil || n != 3 {
		t.Fatalf("prune: %d, %v", n, err)
	}
	if n, err := db.PruneOutbox(t0.AddDate(5, 0, 0)); err != nil || n != 0 {
		t.Fatalf("prune of unsent: %d, %v", n, err)
	}
	all, _ := db.ListOutbox()
	if len(all) != 1 || all[0].ID != d || all[0].State != model.OutboxPending {
		t.Fatalf("after pruning: %+v", all)
	}
	if _, ok := db.NextOutboxDue(); !ok {
		t.Fatal("pending item not due")
	}
	if err := db.MarkSent(d, now); err != nil {
		t.Fatal(err)
	}
	if _, ok := db.NextOutboxDue(); ok {
		t.Fatal("NextOutboxDue with nothing pending")
	}
}

// Outbox items outlive their search: nothing leaves the outbox unsent.
func TestOutboxSurvivesDeletedSearch(t *testing.T) {
	db := openT(t, t.TempDir(), Options{})
	s, ids := queue(t, db, 2)
	if err := db.DeleteSearch(s.ID); err != nil {
		t.Fatal(err)
	}
	if got := dueIDs(t, db, t0.Add(time.Hour), 0); !reflect.DeepEqual(got, ids) {
		t.Fatalf("due after deleting the search: %v", got)
	}
	// Message-IDs stay unique: search IDs are never reused.
	s2 := addSearch(t, db, "new")
	if s2.ID == s.ID {
		t.Fatal("search ID reused")
	}
}

func TestSettingsAndSiteState(t *testing.T) {
	dir := t.TempDir()
	db := openT(t, dir, Options{})
	type smtp struct {
		Host string   `json:"host"`
		Port int      `json:"port"`
		To   []string `json:"to"`
	}
	var got smtp
	if ok, err := db.GetSetting("smtp", &got); ok || err != nil {
		t.Fatalf("unset setting: %v %v", ok, err)
	}
	want := smtp{Host: "smtp.example.org", Port: 587, To: []string{"a@example.org", "b@example.org"}}
	if err := db.PutSetting("smtp", want); err != nil {
		t.Fatal(err)
	}
	if data, err := db.LoadBackoff(); data != nil || err != nil {
		t.Fatalf("LoadBackoff before any save: %q %v", data, err)
	}
	snap := []byte(`{"sites":{"example.org":{"kind":"rate_limited","until":"2026-03-02T10:00:00Z"}}}`)
	if err := db.SaveBackoff(snap); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SavePoll(PollWrite{Site: "example.org", SiteInfo: map[string]string{"last_ok": "2026-03-02"}}); err != nil {
		t.Fatal(err)
	}
	if err := db.PutSetting("", 1); err == nil {
		t.Fatal("empty key accepted")
	}
	if err := db.PutSetting("bad", func() {}); err == nil {
		t.Fatal("unencodable value accepted")
	}
	must(t, db.Close())

	db = openT(t, dir, Options{})
	if ok, err := db.GetSetting("smtp", &got); !ok || err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("setting after reopen: %+v %v %v", got, ok, err)
	}
	if data, _ := db.LoadBackoff(); string(data) != string(snap) {
		t.Fatalf("backoff after reopen: %q", data)
	}
	var info map[string]string
	if ok, _ := db.LoadSiteInfo("example.org", &info); !ok || info["last_ok"] != "2026-03-02" {
		t.Fatalf("site info: %v", info)
	}
	if all, _ := db.LoadSiteInfos(); len(all) != 1 || string(all["example.org"]) != `{"last_ok":"2026-03-02"}` {
		t.Fatalf("LoadSiteInfos: %v", all)
	}
	if err := db.DeleteSetting("smtp"); err != nil {
		t.Fatal(err)
	}
	if ok, _ := db.GetSetting("smtp", &got); ok {
		t.Fatal("deleted setting still there")
	}
}

// Pollers, the relay and the UI at once (run with -race).
func TestConcurrentUse(t *testing.T) {
	db := openT(t, t.TempDir(), Options{})
	const searches, polls = 6, 40
	var wg sync.WaitGroup
	ss := make([]model.Search, searches)
	for i := range ss {
		ss[i] = addSearch(t, db, fmt.Sprintf("c%d", i))
	}
	errs := make(chan error, 100)
	for i := range ss {
		wg.Add(1)
		go func(s model.Search) {
			defer wg.Done()
			for p := 0; p < polls; p++ {
				page := append(listings(fmt.Sprintf("%s-%d", s.ID, p), 2), listings(fmt.Sprintf("%s-%d", s.ID, p-1), 2)...)
				if _, err := db.CommitPoll(s.ID, page, t0.Add(time.Duration(p)*time.Minute)); err != nil {
					errs <- err
					return
				}
			}
		}(ss[i])
	}
	stop := make(chan struct{})
	var readers sync.WaitGroup
	readers.Add(2)
	go func() { // the relay
		defer readers.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			items, err := db.DueOutbox(t0.Add(time.Hour), 10)
			if err != nil {
				errs <- err
				return
			}
			for _, it := range items {
				if err := db.MarkSent(it.ID, t0); err != nil {
					errs <- err
					return
				}
			}
		}
	}()
	go func() { // the UI
		defer readers.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			for _, s := range ss {
				if _, err := db.RecentListings(s.ID, 20); err != nil {
					errs <- err
					return
				}
				if _, err := db.Unseen(s.ID); err != nil {
					errs <- err
					return
				}
			}
		}
	}()
	wg.Wait()
	close(stop)
	readers.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	out, _ := db.ListOutbox()
	if len(out) != searches*(polls-1) {
		t.Fatalf("%d outbox items, want %d", len(out), searches*(polls-1))
	}
	for _, s := range ss {
		if all, _ := db.ListListings(s.ID); len(all) != 2*polls+2 {
			t.Fatalf("search %s: %d listings, want %d", s.ID, len(all), 2*polls+2)
		}
	}
}

// A record whose bytes were damaged on disk is left out of lists (and logged); it
// does not hide the others or hold up the outbox.
func TestUnreadableRecordSkipped(t *testing.T) {
	var logged []string
	var mu sync.Mutex
	db := openT(t, t.TempDir(), Options{Logf: func(f string, a ...any) {
		mu.Lock()
		logged = append(logged, fmt.Sprintf(f, a...))
		mu.Unlock()
	}})
	s, ids := queue(t, db, 3)
	must(t, db.bdb.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketOutbox).Put(u64(ids[1]), []byte(`{"id":2,"listi\x00`))
	}))
	if got := dueIDs(t, db, t0.Add(time.Hour), 0); !reflect.DeepEqual(got, []uint64{ids[0], ids[2]}) {
		t.Fatalf("due with a damaged item: %v", got)
	}
	if all, err := db.ListOutbox(); err != nil || len(all) != 2 {
		t.Fatalf("ListOutbox: %d, %v", len(all), err)
	}
	if _, err := db.GetOutbox(ids[1]); err == nil {
		t.Fatal("GetOutbox of a damaged item succeeded")
	}
	if all, err := db.ListListings(s.ID); err != nil || len(all) != 6 {
		t.Fatalf("ListListings: %d, %v", len(all), err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(logged) == 0 || !strings.Contains(strings.Join(logged, "\n"), fmt.Sprintf("skipping unreadable outbox item %d", ids[1])) {
		t.Fatalf("not logged: %q", logged)
	}
}
