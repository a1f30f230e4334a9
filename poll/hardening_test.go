package poll

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"notifio/internal/model"

	"notifio/poll/words"
)

// Items 4, 5, 10: the window saves through AddSearch and UpdateSearch, which
// check everything before saving: selectors (in the CSS parser's words), a
// second search on the same page, names on one line, the interval's bounds, a
// URL normalised as a browser sends it.
func TestSavingASearchChecksItsInput(t *testing.T) {
	h := newHarness(t, "")
	ctx := context.Background()
	a := h.add("a", "https://www.x.de/s?q=1", time.Minute)
	b := h.add("b", "https://www.x.de/s?q=2", time.Minute)
	for _, tc := range []struct {
		in   model.SearchInput
		want string
	}{
		{model.SearchInput{URL: "https://www.x.de/s?q=3", Selectors: model.PageSelectors{Item: "###bad["}}, "###bad["},
		{model.SearchInput{URL: "https://www.x.de/s?q=3", Selectors: model.PageSelectors{Item: "li", Title: "h2[x"}}, "h2[x"},
		{model.SearchInput{URL: "HTTPS://WWW.X.DE/s?q=1#top"}, `already watches this page`},
		{model.SearchInput{URL: "https://www.x.de/s?q=3", Name: "two\nlines"}, "one line"},
		{model.SearchInput{URL: "https://www.x.de/s?q=3", Interval: 8 * 24 * time.Hour}, "too long"},
		{model.SearchInput{URL: "https://www.x.de:0/s"}, "from 1 to 65535"},
	} {
		_, err := h.svc.AddSearch(ctx, tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("AddSearch(%+v) = %v, want an error with %q", tc.in, err, tc.want)
		}
		// Worded for the user, with no package prefix for the window or CLI to cut.
		if w, ok := words.UserWords(err); !ok || !strings.Contains(w, tc.want) || strings.Contains(w, "poll:") {
			t.Errorf("AddSearch(%+v): the user reads %q (worded %v)", tc.in, w, ok)
		}
		if _, err := h.svc.UpdateSearch(ctx, b.ID, tc.in); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("UpdateSearch(%+v) = %v, want an error with %q", tc.in, err, tc.want)
		}
	}
	if _, err := h.svc.AddSearch(ctx, model.SearchInput{URL: "https://www.x.de/s?q=1"}); !errors.Is(err, model.ErrDuplicate) || !strings.Contains(err.Error(), a.ID) {
		t.Errorf("duplicate: %v, want ErrDuplicate naming %s", err, a.ID)
	}
	if list, _ := h.db.ListSearches(); len(list) != 2 {
		t.Fatalf("%d searches saved, want the 2 good ones", len(list))
	}
	// Editing a search keeps its own URL; a raw query is saved encoded.
	s, err := h.svc.UpdateSearch(ctx, b.ID, model.SearchInput{URL: "https://www.x.de/s?q=2 neu&ort=Köln", Interval: time.Minute})
	if err != nil || s.URL != "https://www.x.de/s?q=2%20neu&ort=K%C3%B6ln" {
		t.Fatalf("UpdateSearch = %q, %v", s.URL, err)
	}
}
