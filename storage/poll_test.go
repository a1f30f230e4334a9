package storage

import (
	"errors"
	"math"
	"reflect"
	"testing"
	"time"

	"notifio/internal/model"
)

// answer stands for the poller's last answers (opaque JSON to storage).
type answer struct {
	Outcome string    `json:"outcome"`
	Price   float64   `json:"price,omitempty"` // NaN does not encode: a failing field
	At      time.Time `json:"at"`
}

// pollState is what SavePoll writes, read back.
type pollState struct {
	listings, outbox int
	search           model.Search
	backoff          string
	site, last       answer
}

func readPollState(t *testing.T, db *DB, s model.Search) pollState {
	t.Helper()
	var st pollState
	all, err := db.ListListings(s.ID)
	must(t, err)
	out, err := db.ListOutbox()
	must(t, err)
	st.listings, st.outbox = len(all), len(out)
	st.search, err = db.GetSearch(s.ID)
	must(t, err)
	raw, err := db.LoadBackoff()
	must(t, err)
	st.backoff = string(raw)
	_, err = db.LoadSiteInfo(s.Site, &st.site)
	must(t, err)
	_, err = db.GetSetting("last:"+s.ID, &st.last)
	must(t, err)
	return st
}

func backoffOf(s string) func() ([]byte, error) {
	return func() ([]byte, error) { return []byte(s), nil }
}

// A poll whose write fails at any of its parts leaves nothing of itself: not
// its listings, its digest, the search's count, the backoff state, nor either
// last answer. The same poll written again lands whole.
func TestSavePollFailureLeavesNothing(t *testing.T) {
	t1 := t0.Add(time.Hour)
	cases := []struct {
		name string
		fail func(w *PollWrite)
	}{
		{"backoff snapshot fails", func(w *PollWrite) {
			w.Backoff = func() ([]byte, error) { return nil, errors.New("injected") }
		}},
		{"site answer does not encode", func(w *PollWrite) {
			w.SiteInfo = answer{Outcome: "ok", Price: math.NaN(), At: t1}
		}},
		{"search answer does not encode", func(w *PollWrite) {
			w.Setting = answer{Outcome: "ok", Price: math.Inf(1), At: t1}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			db := openT(t, t.TempDir(), Options{})
			s := addSearch(t, db, "s")
			_, err := db.SavePoll(PollWrite{SearchID: s.ID, Page: &PollPage{Found: listings("base", 5), Decide: decideWith(PollRules{}, t0)},
				Backoff: backoffOf(`["before"]`), Site: s.Site, SiteInfo: answer{Outcome: "denied", At: t0},
				SettingKey: "last:" + s.ID, Setting: answer{Outcome: "denied", At: t0}})
			must(t, err)
			before := readPollState(t, db, s)
			commits := db.Commits()

			w := PollWrite{SearchID: s.ID, Page: &PollPage{Found: listings("new", 4), Decide: decideWith(PollRules{}, t1)},
				Backoff: backoffOf(`[]`), Site: s.Site, SiteInfo: answer{Outcome: "ok", At: t1},
				SettingKey: "last:" + s.ID, Setting: answer{Outcome: "ok", At: t1}}
			good := w
			c.fail(&w)
			if _, err := db.SavePoll(w); err == nil {
				t.Fatal("SavePoll succeeded despite the failing part")
			}
			if after := readPollState(t, db, s); !reflect.DeepEqual(after, before) {
				t.Fatalf("a failed poll write changed the database:\n got %+v\nwant %+v", after, before)
			}
			if db.Commits() != commits {
				t.Errorf("a failed poll write counted %d commits", db.Commits()-commits)
			}

			res, err := db.SavePoll(good)
			must(t, err)
			got := readPollState(t, db, s)
			if len(res.New) != 4 || got.listings != 9 || got.outbox != 1 || got.backoff != `[]` ||
				got.site.Outcome != "ok" || got.last.Outcome != "ok" || !got.search.LastPolled.Equal(t1) {
				t.Fatalf("the poll written again: new %d, state %+v", len(res.New), got)
			}
			if db.Commits() != commits+1 {
				t.Errorf("one poll took %d commits, want 1", db.Commits()-commits)
			}
		})
	}
}

// A poll that changes nothing writes nothing; a refusal (no page) still writes
// its backoff and answers; a poll of a search deleted meanwhile writes the
// site's parts, says the search is gone, and records no listings.
func TestSavePollWritesOnlyWhatChanged(t *testing.T) {
	db := openT(t, t.TempDir(), Options{})
	s := addSearch(t, db, "s")
	_, err := db.SavePoll(PollWrite{SearchID: s.ID, Page: &PollPage{Found: listings("base", 3), Decide: decideWith(PollRules{}, t0)}})
	must(t, err)
	c0 := db.Commits()
	if _, err := db.SavePoll(PollWrite{SearchID: s.ID, Page: &PollPage{Found: listings("base", 3), Decide: decideWith(PollRules{}, t0.Add(time.Minute))}}); err != nil {
		t.Fatal(err)
	}
	if db.Commits() != c0 {
		t.Fatalf("an unchanged page took %d commits, want 0", db.Commits()-c0)
	}

	_, err = db.SavePoll(PollWrite{SearchID: s.ID, Backoff: backoffOf(`["wait"]`),
		Site: s.Site, SiteInfo: answer{Outcome: "rate_limited"}})
	must(t, err)
	if st := readPollState(t, db, s); st.backoff != `["wait"]` || st.site.Outcome != "rate_limited" ||
		st.listings != 3 || !st.search.LastPolled.Equal(t0) || db.Commits() != c0+1 {
		t.Fatalf("after a refusal: %+v, %d commits", st, db.Commits()-c0)
	}

	must(t, db.DeleteSearch(s.ID))
	res, err := db.SavePoll(PollWrite{SearchID: s.ID, Page: &PollPage{Found: listings("new", 2), Decide: decideWith(PollRules{}, t0.Add(3*time.Minute))},
		Backoff: backoffOf(`[]`)})
	if err != nil || !res.SearchGone || len(res.New) != 0 {
		t.Fatalf("poll of a deleted search: %+v, %v", res, err)
	}
	if raw, _ := db.LoadBackoff(); string(raw) != `[]` {
		t.Fatalf("the site's backoff after a poll of a deleted search: %s", raw)
	}
	if _, err := db.SavePoll(PollWrite{SearchID: s.ID, Page: &PollPage{Found: listings("new", 2), Decide: decideWith(PollRules{}, t0)}}); !errors.Is(err, model.ErrNotFound) {
		t.Fatalf("a page alone for a deleted search: %v, want ErrNotFound", err)
	}
}
