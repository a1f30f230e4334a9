package words

import (
	"strings"
	"testing"
	"time"

	"notifio/internal/model"
)

// TestRowsSayWhenTheyWereCheckedAndAgreeWithTheirBadge is issue 19, rough edge
// 7: a "1 new" badge stood beside "no new listings at the last check", and no
// row said when it was last checked.
func TestRowsSayWhenTheyWereCheckedAndAgreeWithTheirBadge(t *testing.T) {
	base := model.SearchSnapshot{Baselined: true, BaselineCount: 25, LastCount: 26, LastOutcome: "ok",
		LastChecked: t0.Add(-2 * time.Minute)}
	for _, tc := range []struct {
		name string
		edit func(*model.SearchSnapshot)
		now  time.Time
		want string
	}{
		{"nothing new, nothing unseen", func(*model.SearchSnapshot) {}, t0, "checked 13:58 · no new listings"},
		{"nothing new, one unseen from before", func(s *model.SearchSnapshot) { s.Unseen = 1 }, t0,
			"checked 13:58 · nothing newer"},
		{"unseen from before, page back at the baseline's count", func(s *model.SearchSnapshot) {
			s.Unseen, s.LastCount = 2, 25
		}, t0, "checked 13:58 · nothing newer"},
		{"two new", func(s *model.SearchSnapshot) { s.LastNew, s.Unseen = 2, 3 }, t0, "checked 13:58 · 2 new listings"},
		{"baseline", func(s *model.SearchSnapshot) { s.LastCount = 25 }, t0,
			"checked 13:58 · recorded 25 listings as a baseline"},
		{"yesterday", func(*model.SearchSnapshot) {}, t0.Add(24 * time.Hour), "checked Tue 14 Jul 13:58 · no new listings"},
		{"never checked", func(s *model.SearchSnapshot) { s.LastChecked, s.Baselined = time.Time{}, false }, t0,
			"the first check records what is already there as a baseline"},
	} {
		s := base
		tc.edit(&s)
		if got := SearchDetail(s, tc.now); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// Issue 37 (seen in the real window with 26 searches): a rate-limited row
// said "immowelt.test is rate-limiting us — next try in 0:16 · blocked since
// 19:11": two states for one. The detail names the refusal the status names.
func TestRateLimitedRowSaysRateLimitedTwice(t *testing.T) {
	s := model.SearchSnapshot{Site: "immowelt.test", State: model.StateWaiting, LastOutcome: "rate_limited",
		Health: model.Health{Kind: model.HealthBlocked, Refusal: model.RefusalRateLimited, Since: t0.Add(-2 * time.Minute)}}
	if got := SearchDetail(s, t0); !strings.Contains(got, "rate-limited since") || strings.Contains(got, "blocked") {
		t.Errorf("detail %q, want rate-limited since …", got)
	}
}
