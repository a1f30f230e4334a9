package loadsite

import (
	"io"
	"net/http"
	"net/url"
	"sync"
	"testing"
	"time"

	"notifio/poll/classify"
	"notifio/poll/extract"

	"notifio/internal/model"
)

func get(t *testing.T, u string) (*http.Response, []byte) {
	t.Helper()
	c := http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, b
}

// A results page is extracted to its listings; each refusal mode is classified
// as what it imitates; a new listing is reported once, when first served.
func TestFarm(t *testing.T) {
	var mu sync.Mutex
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	var events []Event
	f, err := Start(Config{Sites: 4, BaseIP: "127.0.9.201", Listings: 25, PageKB: 300, NewEvery: time.Minute,
		Refuse: map[int]string{2: "429", 3: "challenge", 4: "soft"},
		Now:    func() time.Time { mu.Lock(); defer mu.Unlock(); return now },
		OnNew:  func(e Event) { mu.Lock(); events = append(events, e); mu.Unlock() }})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	urls := f.URLs()
	want := map[int]model.Outcome{0: model.OutcomeOK, 1: model.OutcomeRateLimited, 2: model.OutcomeChallenge, 3: model.OutcomeUnexpectedPage}
	for i, u := range urls {
		resp, body := get(t, u+"search/1")
		pu, _ := url.Parse(u + "search/1")
		ext, err := extract.Extract(body, pu, model.PageSelectors{})
		if err != nil {
			t.Fatal(err)
		}
		in := classify.Input{Status: resp.StatusCode, Header: resp.Header, Body: body, RequestURL: pu, FinalURL: pu,
			Listings: len(ext.Listings), NoResultsMarker: ext.NoResults, ResultsContainer: ext.Container}
		if got := classify.Classify(in).Kind; got != want[i] {
			t.Errorf("site %d: classified %s, want %s", i+1, got, want[i])
		}
		if i == 0 {
			if len(ext.Listings) != 25 {
				t.Errorf("site 1: %d listings, want 25", len(ext.Listings))
			}
			if len(body) < 250<<10 || len(body) > 350<<10 {
				t.Errorf("site 1: page is %d bytes, want about 300 KiB", len(body))
			}
		}
	}
	mu.Lock()
	if len(events) != 0 {
		t.Fatalf("events before any new listing: %v", events)
	}
	now = now.Add(61 * time.Second)
	mu.Unlock()
	get(t, urls[0]+"search/1")
	get(t, urls[0]+"search/1")
	// OnNew runs after the response is written: give the handler a moment.
	n := 0
	for i := 0; i < 200; i++ {
		mu.Lock()
		n = len(events)
		mu.Unlock()
		if n >= 1 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(events) != 1 {
		t.Fatalf("got %d events after one new listing, want 1: %v", len(events), events)
	}
}

func TestParseRefuse(t *testing.T) {
	m, err := ParseRefuse("3:429, 4:challenge,5:403")
	if err != nil || m[3] != "429" || m[4] != "challenge" || m[5] != "403" {
		t.Fatalf("got %v, %v", m, err)
	}
	for _, bad := range []string{"x:429", "0:429", "3", "3:teapot"} {
		if _, err := ParseRefuse(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
