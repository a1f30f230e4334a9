package storage

import (
	"reflect"
	"slices"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"notifio/internal/model"
	"notifio/poll/words"
)

// commit is SavePoll of a page that fails the test on an error.
func commit(t *testing.T, db *DB, s model.Search, found []model.Listing, now time.Time, rules ...PollRules) model.CommitResult {
	t.Helper()
	var r PollRules
	if len(rules) > 0 {
		r = rules[0]
	}
	res, err := db.SavePoll(PollWrite{SearchID: s.ID, Page: &PollPage{Found: found, Decide: decideWith(r, now)}})
	if err != nil {
		t.Fatalf("commit: %v", err)
	}
	return res
}

func outboxLen(t *testing.T, db *DB) int {
	t.Helper()
	items, err := db.ListOutbox()
	if err != nil {
		t.Fatal(err)
	}
	return len(items)
}

func priced(l model.Listing, shown string, v float64) model.Listing {
	l.Price, l.PriceValue = shown, v
	return l
}

// A listing the filters hold back is recorded as seen and not announced; the
// same page again writes nothing.
func TestHeldListingRecordedNotAnnounced(t *testing.T) {
	c := newClock()
	db := openT(t, t.TempDir(), Options{Now: c.Now})
	s := addSearch(t, db, "a")
	commit(t, db, s, nil, t0) // baseline: empty page
	page := listings("h", 2)
	page[0].Held = "it costs 850 €, more than your 800"
	res := commit(t, db, s, page, t0.Add(time.Minute))
	if len(res.New) != 1 || res.New[0].ID != page[1].ID || res.Held != 1 {
		t.Fatalf("New = %v, Held = %d; want only the passing listing new and one held", ids(res.New), res.Held)
	}
	held, err := db.HeldListings(s.ID)
	if err != nil || len(held) != 1 || held[0].ID != page[0].ID || held[0].Held == "" {
		t.Fatalf("HeldListings = %+v, %v", held, err)
	}
	if ls, _ := db.ListListings(s.ID); len(ls) != 1 {
		t.Errorf("the held listing shows among the listings: %v", ids(ls))
	}
	before := db.Commits()
	if res := commit(t, db, s, page, t0.Add(2*time.Minute)); len(res.New) != 0 || res.Held != 0 {
		t.Errorf("the same page again announced %v / held %d", ids(res.New), res.Held)
	}
	if db.Commits() != before {
		t.Errorf("an unchanged page was written (%d commits)", db.Commits()-before)
	}
	if n := outboxLen(t, db); n != 1 {
		t.Errorf("outbox holds %d items, want 1", n)
	}
	// Loosening the filter: the window shows it, no alert.
	if n, err := db.ReleaseHeld(s.ID, []string{page[0].ID}); n != 1 || err != nil {
		t.Fatalf("ReleaseHeld = %d, %v", n, err)
	}
	if ls, _ := db.ListListings(s.ID); len(ls) != 2 || ls[0].ID != page[0].ID || ls[0].Held != "" {
		t.Errorf("after release the listings are %v", ids(ls))
	}
	if n := outboxLen(t, db); n != 1 {
		t.Errorf("releasing queued an alert: %d items", n)
	}
}

// A price drop of a listing already seen: one alert saying from what to what,
// the history kept, and nothing again on the next poll at the same price.
func TestPriceDropOneAlertNoRepeat(t *testing.T) {
	c := newClock()
	db := openT(t, t.TempDir(), Options{Now: c.Now})
	s := addSearch(t, db, "a")
	x := priced(listings("p", 1)[0], "1.200 €", 1200)
	commit(t, db, s, []model.Listing{x}, t0)

	res := commit(t, db, s, []model.Listing{priced(x, "1.100 €", 1100)}, t0.Add(time.Hour))
	if len(res.New) != 0 || len(res.Changed) != 1 {
		t.Fatalf("New %v, Changed %v; want one change", ids(res.New), ids(res.Changed))
	}
	it, err := db.GetOutbox(res.OutboxID)
	if err != nil {
		t.Fatal(err)
	}
	got := it.Listings[0]
	if it.Event != model.EventPriceDrop || got.Change != model.ChangePriceDrop || got.OldPrice != "1.200 €" || got.Price != "1.100 €" {
		t.Fatalf("item event %q, listing change %q from %q to %q", it.Event, got.Change, got.OldPrice, got.Price)
	}
	again := commit(t, db, s, []model.Listing{priced(x, "1.100 €", 1100)}, t0.Add(2*time.Hour))
	if len(again.Changed)+len(again.New) != 0 || outboxLen(t, db) != 1 {
		t.Errorf("the next poll at the same price announced again (%d items)", outboxLen(t, db))
	}
	hist, err := db.PriceHistory(s.ID, x.ID)
	want := []model.PricePoint{{At: t0, Price: "1.200 €", Value: 1200}, {At: t0.Add(time.Hour), Price: "1.100 €", Value: 1100}}
	if err != nil || !reflect.DeepEqual(hist, want) {
		t.Errorf("PriceHistory = %+v, %v; want %+v", hist, err, want)
	}
	// A rise is not announced unless asked for; it is kept in the history.
	if res := commit(t, db, s, []model.Listing{priced(x, "1.300 €", 1300)}, t0.Add(3*time.Hour)); len(res.Changed) != 0 {
		t.Errorf("a price rise was announced by default")
	}
	s.Filters.PriceRises = true
	if err := db.UpdateSearch(s); err != nil {
		t.Fatal(err)
	}
	if res := commit(t, db, s, []model.Listing{priced(x, "1.400 €", 1400)}, t0.Add(4*time.Hour)); len(res.Changed) != 1 || res.Changed[0].Change != model.ChangePriceRise {
		t.Errorf("an opted-in rise: Changed %+v", res.Changed)
	}
	if hist, _ := db.PriceHistory(s.ID, x.ID); len(hist) != 4 {
		t.Errorf("history has %d entries, want 4", len(hist))
	}
	ls, _ := db.ListListings(s.ID)
	if got := words.PriceWords(ls[0]); got != "1.400 € · price went up from 1.300 € (before: 1.200 €, 1.100 €)" {
		t.Errorf("PriceWords = %q", got)
	}
}

// A listing held back for its price is delivered once, as a drop, when its
// price falls under the user's limit.
func TestHeldListingDeliveredWhenPriceDrops(t *testing.T) {
	c := newClock()
	db := openT(t, t.TempDir(), Options{Now: c.Now})
	s := addSearch(t, db, "a")
	commit(t, db, s, nil, t0)
	x := priced(listings("d", 1)[0], "1.200 €", 1200)
	x.Held = "it costs 1.200 €, more than your 1.000"
	if res := commit(t, db, s, []model.Listing{x}, t0.Add(time.Minute)); len(res.New)+len(res.Changed) != 0 {
		t.Fatalf("a held listing was announced")
	}
	y := priced(x, "950 €", 950)
	y.Held = ""
	res := commit(t, db, s, []model.Listing{y}, t0.Add(time.Hour))
	if len(res.Changed) != 1 || res.Changed[0].OldPrice != "1.200 €" || res.Changed[0].Price != "950 €" {
		t.Fatalf("Changed = %+v", res.Changed)
	}
	if held, _ := db.HeldListings(s.ID); len(held) != 0 {
		t.Errorf("still held after delivery: %v", ids(held))
	}
	if ls, _ := db.ListListings(s.ID); len(ls) != 1 || ls[0].ID != x.ID {
		t.Errorf("listings after delivery: %v", ids(ls))
	}
	if res := commit(t, db, s, []model.Listing{y}, t0.Add(2*time.Hour)); len(res.Changed)+len(res.New) != 0 || outboxLen(t, db) != 1 {
		t.Errorf("delivered twice")
	}
}

// Gone for 8 days and back: "back on the market", once. Gone for 3 days: silent.
func TestRelistAfterEightDays(t *testing.T) {
	c := newClock()
	db := openT(t, t.TempDir(), Options{Now: c.Now})
	s := addSearch(t, db, "a")
	page := listings("r", 2)
	commit(t, db, s, page, t0)
	commit(t, db, s, page[1:], t0.Add(time.Hour)) // r-0 gone, r-1 stays
	day := 24 * time.Hour
	res := commit(t, db, s, page, t0.Add(time.Hour+8*day))
	if len(res.New) != 1 || res.New[0].ID != page[0].ID || res.New[0].Change != model.ChangeRelisted {
		t.Fatalf("New = %+v; want r-0 back on the market", res.New)
	}
	if res := commit(t, db, s, page, t0.Add(time.Hour+8*day+time.Minute)); len(res.New) != 0 {
		t.Errorf("announced back on the market twice")
	}
	commit(t, db, s, page[1:], t0.Add(9*day))
	if res := commit(t, db, s, page, t0.Add(12*day)); len(res.New) != 0 {
		t.Errorf("back after 3 days was announced: %+v", res.New)
	}
}

// Two searches find the same listing: one alert, naming both.
func TestSameListingTwoSearchesOneAlert(t *testing.T) {
	c := newClock()
	db := openT(t, t.TempDir(), Options{Now: c.Now})
	a, b := addSearch(t, db, "Kreuzberg"), addSearch(t, db, "Altbau")
	commit(t, db, a, nil, t0)
	commit(t, db, b, nil, t0)
	x := listings("x", 1)
	ra := commit(t, db, a, x, t0.Add(time.Minute))
	rb := commit(t, db, b, x, t0.Add(2*time.Minute))
	if len(ra.New) != 1 || len(rb.New) != 0 || rb.Merged != 1 {
		t.Fatalf("a announced %d, b announced %d (merged %d); want 1, 0, 1", len(ra.New), len(rb.New), rb.Merged)
	}
	items, _ := db.ListOutbox()
	if len(items) != 1 || !slices.Equal(items[0].Listings[0].AlsoIn, []string{"Altbau"}) {
		t.Fatalf("outbox %d items, first names %v", len(items), items[0].Listings[0].AlsoIn)
	}
	if ls, _ := db.ListListings(b.ID); len(ls) != 1 || !slices.Equal(ls[0].AlsoIn, []string{"Kreuzberg"}) {
		t.Errorf("b's listing does not name a: %+v", ls)
	}
}

// sameTitle is a plain rule for these tests (poll/filter has the real one).
func sameTitle(a, b model.Listing) (string, bool) {
	return "same title", a.Title == b.Title && a.Size == b.Size
}

// The same flat on two sites: one entry, the other site named; a near miss and
// two listings of one site stay apart.
func TestSameFlatOnTwoSites(t *testing.T) {
	c := newClock()
	db := openT(t, t.TempDir(), Options{Now: c.Now})
	a := addSearch(t, db, "a")
	b, err := db.AddSearch(model.Search{Name: "b", URL: "https://immowelt.de/s", Site: "immowelt.de"})
	if err != nil {
		t.Fatal(err)
	}
	rules := PollRules{SameFlat: sameTitle}
	commit(t, db, a, nil, t0, rules)
	commit(t, db, b, nil, t0, rules)
	x := listings("f", 1)[0]
	commit(t, db, a, []model.Listing{x}, t0.Add(time.Minute), rules)

	same := x
	same.ID, same.URL = "immowelt.de:77", "https://immowelt.de/expose/77"
	near := same
	near.ID, near.Size = "immowelt.de:78", "60 m²"
	res := commit(t, db, b, []model.Listing{same, near}, t0.Add(2*time.Minute), rules)
	if len(res.New) != 1 || res.New[0].ID != near.ID || res.Merged != 1 {
		t.Fatalf("New %v, merged %d; want only the near miss new", ids(res.New), res.Merged)
	}
	first, _ := db.GetOutbox(1)
	if len(first.Listings[0].AlsoOn) != 1 || first.Listings[0].AlsoOn[0].Site != "immowelt.de" {
		t.Errorf("the first alert does not say also on immowelt.de: %+v", first.Listings[0].AlsoOn)
	}
	ls, _ := db.ListListings(b.ID)
	if i := slices.IndexFunc(ls, func(l model.Listing) bool { return l.ID == same.ID }); i < 0 || ls[i].SameAs == nil || ls[i].SameAs.Why != "same title" {
		t.Errorf("b's entry does not say why it was matched: %+v", ls)
	}
	// One site's second listing of the same flat is its own listing.
	twin := x
	twin.ID = "example.org:twin"
	if res := commit(t, db, a, []model.Listing{x, twin}, t0.Add(3*time.Minute), rules); len(res.New) != 1 {
		t.Errorf("two listings of one site were merged: %+v", res)
	}
	// A removed search's flats merge nothing: the user would never hear of it.
	if err := db.DeleteSearch(a.ID); err != nil {
		t.Fatal(err)
	}
	again := same
	again.ID = "immowelt.de:79"
	if res := commit(t, db, b, []model.Listing{same, near, again}, t0.Add(4*time.Minute), rules); len(res.New) != 1 {
		t.Errorf("merged into a removed search's listing: %+v", res)
	}
}

// The migration keeps everything a database of today's schema holds, and
// indexes its listings so a search added later does not announce them again.
func TestMigrationToDuplicatesKeepsEverything(t *testing.T) {
	c := newClock()
	dir := t.TempDir()
	saved := schemaBefore(t, "duplicates and prices")

	db := openT(t, dir, Options{Now: c.Now})
	a := addSearch(t, db, "a")
	commit(t, db, a, listings("m", 1), t0)
	res := commit(t, db, a, listings("m", 3), t0.Add(time.Minute))
	if len(res.New) != 2 {
		t.Fatalf("old schema: %d new", len(res.New))
	}
	oldListings, _ := db.ListListings(a.ID)
	oldOutbox, _ := db.ListOutbox()
	db.Close()

	migrations = saved
	c.Add(time.Hour)
	db = openT(t, dir, Options{Now: c.Now})
	if got, _ := db.ListListings(a.ID); !reflect.DeepEqual(got, oldListings) {
		t.Errorf("listings changed in the upgrade:\n%+v\n%+v", got, oldListings)
	}
	if got, _ := db.ListOutbox(); !reflect.DeepEqual(got, oldOutbox) {
		t.Errorf("outbox changed in the upgrade")
	}
	if err := db.bdb.View(func(tx *bolt.Tx) error {
		if v, _ := readSchema(tx); v != schemaVersion() {
			t.Errorf("schema %d after upgrade, want %d", v, schemaVersion())
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	// The old page again: nothing new, nothing back, no price change.
	if res := commit(t, db, a, listings("m", 3), c.Now()); len(res.New)+len(res.Changed) != 0 {
		t.Errorf("after upgrade the same page announced %v %v", ids(res.New), ids(res.Changed))
	}
	b := addSearch(t, db, "b")
	commit(t, db, b, nil, c.Now())
	if res := commit(t, db, b, listings("m", 3), c.Now().Add(time.Minute)); len(res.New) != 0 || res.Merged != 3 {
		t.Errorf("a new search announced listings seen before the upgrade: %v", ids(res.New))
	}
}
