package storage

import (
	"fmt"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"notifio/internal/model"
)

// pageAt is poll i's page of 25 listings, of which fresh are new: listings i*fresh
// onwards of an endless feed, newest first.
func pageAt(i, fresh int) []model.Listing {
	page := make([]model.Listing, 25)
	top := (i + 1) * fresh // the feed's newest listing at poll i
	for j := range page {
		n := top - j
		page[j] = model.Listing{
			ID:         fmt.Sprintf("kleinanzeigen.de:%010d", 2876543210+n),
			URL:        fmt.Sprintf("https://www.kleinanzeigen.de/s-anzeige/schoene-2-zimmer-wohnung-mit-balkon/%d-203-3331", 2876543210+n),
			Title:      fmt.Sprintf("Schöne 2-Zimmer-Wohnung mit Balkon, Nr. %d", n),
			Price:      "1.150 € VB",
			PriceValue: 1150,
			Currency:   "EUR",
			Location:   "12047 Berlin - Neukölln",
			Size:       "58 m²",
			SizeValue:  58,
			Rooms:      "2 Zi.",
			RoomsValue: 2,
			Image:      fmt.Sprintf("https://img.kleinanzeigen.de/api/v1/prod-ads/images/%d.jpg?rule=$_2.JPG", n),
		}
	}
	return page
}

// Database size after 1,000 poll commits of a 25-listing page, for a search that
// gets 2 new listings a poll (typical) and one where every listing is new every
// time (the worst case: 25,000 listings and 1,000 digests).
func TestDBSizeAfter1000Commits(t *testing.T) {
	if testing.Short() {
		t.Skip("1,000 commits")
	}
	for _, fresh := range []int{2, 25} {
		dir := t.TempDir()
		db := openT(t, dir, Options{})
		db.bdb.NoSync = true // the size does not depend on fsync; the time does (see the benchmarks)
		s := addSearch(t, db, "size")
		start := time.Now()
		for i := 0; i < 1000; i++ {
			if _, err := db.CommitPoll(s.ID, pageAt(i, fresh), t0.Add(time.Duration(i)*5*time.Minute)); err != nil {
				t.Fatal(err)
			}
		}
		took := time.Since(start)
		size, _ := db.Size()
		all, _ := db.ListListings(s.ID)
		out, _ := db.ListOutbox()
		if len(out) != 999 || len(all) != 25+999*fresh {
			t.Fatalf("%d new a poll: %d listings, %d outbox items", fresh, len(all), len(out))
		}
		var used int64
		_ = db.bdb.View(func(tx *bolt.Tx) error { used = tx.Size(); return nil })
		t.Logf("%2d new a poll: 1,000 commits in %v without fsync; %d listings seen, %d outbox items; file %.1f MiB (%.1f MiB in use)",
			fresh, took.Round(time.Millisecond), len(all), len(out), float64(size)/(1<<20), float64(used)/(1<<20))
	}
}

func benchCommit(b *testing.B, fresh int, noSync bool) {
	db := openT(b, b.TempDir(), Options{})
	db.bdb.NoSync = noSync
	s := addSearch(b, db, "bench")
	pages := make([][]model.Listing, b.N+1)
	for i := range pages {
		pages[i] = pageAt(i, fresh)
	}
	if _, err := db.CommitPoll(s.ID, pages[0], t0); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 1; i <= b.N; i++ {
		if _, err := db.CommitPoll(s.ID, pages[i], t0.Add(time.Duration(i)*time.Minute)); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	size, _ := db.Size()
	b.ReportMetric(float64(size)/float64(b.N), "file-B/commit")
}

// BenchmarkCommitPoll: a 25-listing page with 2 new listings (one digest each).
func BenchmarkCommitPoll(b *testing.B) { benchCommit(b, 2, false) }

// BenchmarkCommitPollNothingNew: a 25-listing page already seen (the common poll).
func BenchmarkCommitPollNothingNew(b *testing.B) { benchCommit(b, 0, false) }

// BenchmarkCommitPollAllNew: every one of the 25 listings is new.
func BenchmarkCommitPollAllNew(b *testing.B) { benchCommit(b, 25, false) }

// BenchmarkCommitPollNoSync is BenchmarkCommitPoll without fsync: the CPU cost.
func BenchmarkCommitPollNoSync(b *testing.B) { benchCommit(b, 2, true) }
