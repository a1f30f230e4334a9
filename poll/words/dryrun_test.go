package words

import (
	"strings"
	"testing"

	"notifio/internal/model"
)

func TestDryRunMessageSaysItOnce(t *testing.T) {
	for _, tc := range []struct {
		name string
		res  model.DryRun
		want string
	}{
		{"the watcher's message", model.DryRun{Outcome: model.OutcomeOK, Message: "Found 2 listings on the page."},
			"Found 2 listings on the page."},
		{"a message that repeats itself: the outcome's words",
			model.DryRun{Site: "a.de", Outcome: model.OutcomeDenied,
				Message: "a.de refused access. Notifio will wait. (a.de refused access. Notifio will wait.)"},
			"a.de refused access. Notifio will wait before asking again."},
		{"no message", model.DryRun{Outcome: model.OutcomeOK, Listings: make([]model.PageListing, 3)},
			"Found 3 listings on the page."},
		{"listings only the browser found",
			model.DryRun{Outcome: model.OutcomeUnexpectedPage, Message: "The page did not look like results.",
				BrowserTry: &model.DryRun{Outcome: model.OutcomeOK}},
			"This page shows its listings only with JavaScript."},
	} {
		if got := DryRunMessage(tc.res); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestDryRunSummary(t *testing.T) {
	ok := DryRunSummary(model.DryRun{Outcome: model.OutcomeOK, Method: model.MethodCards, Note: "the page was cut at 5 MB"})
	for _, want := range []string{"Nothing is saved yet.", " · Read by the page's result list, found automatically. · the page was cut at 5 MB"} {
		if !strings.Contains(ok, want) {
			t.Errorf("a good test's summary %q lacks %q", ok, want)
		}
	}
	refused := model.DryRun{Outcome: model.OutcomeChallenge, Status: 403, Signal: "title: Just a moment..."}
	if got := DryRunSummary(refused); got != "status 403 · decided by: title: Just a moment..." {
		t.Errorf("a refused test's summary is %q", got)
	}
	refused.Outcome, refused.BrowserTry = model.OutcomeUnexpectedPage, &model.DryRun{Outcome: model.OutcomeOK}
	if got := DryRunSummary(refused); got != "" {
		t.Errorf("a page only a browser reads has the plain reading's evidence in its summary: %q", got)
	}
}
