package ui

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"notifio/internal/model"
)

func TestAddWithAnInvalidURLShowsTheProblemAndSavesNothing(t *testing.T) {
	for _, tc := range []struct{ typed, want string }{
		{"", "Paste the address of a search results page"},
		{"kleinanzeigen.de/s-wohnung-mieten/berlin", "must start with https://"},
		{"ftp://example.com/list", "only watch web pages"},
		{"https:///s-wohnung-mieten", "no website name"},
	} {
		t.Run(tc.typed, func(t *testing.T) {
			h := newHarness(t, model.Snapshot{})
			e := h.u.searches.editor
			test.Tap(h.u.searches.add)
			test.Type(e.url, tc.typed)
			test.Tap(e.saveBtn)
			if !e.problem.Visible() || !strings.Contains(e.problem.Text, tc.want) {
				t.Errorf("problem shown = %v %q, want it to contain %q", e.problem.Visible(), e.problem.Text, tc.want)
			}
			if len(h.b.added) != 0 {
				t.Errorf("an invalid address was saved: %+v", h.b.added)
			}
			if h.u.win.Canvas().Overlays().Top() == nil {
				t.Error("the dialog closed on an invalid address")
			}
			test.Tap(e.testBtn)
			if len(h.b.dryRuns) != 0 {
				t.Errorf("an invalid address was tested: %+v", h.b.dryRuns)
			}
		})
	}
}

func TestAddWithTooShortAnIntervalIsRefused(t *testing.T) {
	h := newHarness(t, model.Snapshot{})
	e := h.u.searches.editor
	test.Tap(h.u.searches.add)
	test.Type(e.url, "https://www.kleinanzeigen.de/s-wohnung-mieten/berlin/c203l3331")
	e.interval.SetText("10 seconds")
	test.Tap(e.saveBtn)
	if !strings.Contains(e.problem.Text, "at most every 30 seconds") {
		t.Errorf("problem = %q", e.problem.Text)
	}
	if len(h.b.added) != 0 {
		t.Errorf("saved with a 10 s interval: %+v", h.b.added)
	}
}

func TestAddAValidSearchAppearsInTheList(t *testing.T) {
	h := newHarness(t, model.Snapshot{})
	e := h.u.searches.editor
	test.Tap(h.u.searches.add)
	if e.interval.Text != "2 minutes" {
		t.Errorf("interval starts at %q, want the default 2 minutes", e.interval.Text)
	}
	test.Type(e.url, "  https://www.kleinanzeigen.de/s-wohnung-mieten/berlin/c203l3331 ")
	test.Type(e.name, "Berlin < 1000 €")
	if !strings.Contains(e.rate.Text, "once every 2 minutes") {
		t.Errorf("rate line = %q, want the site's total rate", e.rate.Text)
	}
	e.interval.SetText("5 minutes")
	test.Tap(e.saveBtn)
	h.q.runNext(t) // the save runs off the UI goroutine
	h.q.runAll()

	if len(h.b.added) != 1 {
		t.Fatalf("AddSearch calls = %d, want 1", len(h.b.added))
	}
	in := h.b.added[0]
	if in.URL != "https://www.kleinanzeigen.de/s-wohnung-mieten/berlin/c203l3331" || in.Name != "Berlin < 1000 €" || in.Interval != 5*time.Minute {
		t.Errorf("saved %+v", in)
	}
	if h.u.win.Canvas().Overlays().Top() != nil {
		t.Error("the dialog stayed open after saving")
	}
	h.requireText("Berlin < 1000 €")
	h.requireText("next check in 5 min")
	h.requireText("the first check records what is already there as a baseline")
	if h.u.searches.selected != "s1" {
		t.Errorf("the new search is not selected (selected %q)", h.u.searches.selected)
	}
}

func TestRateWarningForABusySite(t *testing.T) {
	h := newHarness(t, sample())
	e := h.u.searches.editor
	test.Tap(h.u.searches.add)
	test.Type(e.url, "https://www.kleinanzeigen.de/s-wohnung-mieten/neukoelln/c203l3376")
	e.interval.SetText("30 seconds")
	if !e.rateWarn.Visible() || !strings.Contains(e.rateWarn.Text, "sites may block you") {
		t.Errorf("no warning for 2.5 requests a minute: %v %q", e.rateWarn.Visible(), e.rateWarn.Text)
	}
	e.interval.SetText("10 minutes")
	if e.rateWarn.Visible() {
		t.Errorf("warning still shown at a calm rate: %q", e.rateWarn.Text)
	}
}

func TestTestThisSearchRunsInTheBackground(t *testing.T) {
	h := newHarness(t, model.Snapshot{})
	gate := make(chan struct{})
	h.b.dryRunGate = gate
	h.b.dryRun = model.DryRun{
		Outcome: "ok", Status: 200, Signal: "results container found", Method: "profile:kleinanzeigen.de",
		Message: "The page works: 2 listings found.",
		Title:   "Wohnung mieten in Berlin - Kreuzberg | kleinanzeigen.de",
		Listings: []model.PageListing{
			{ID: "1", Title: "Altbau, 2 Zimmer", Price: "1.150 €", Size: "65 m²", Rooms: "2", Location: "Kreuzberg"},
			{ID: "2", Title: "Dachgeschoss mit Balkon", Price: "1.190 €"},
		},
	}
	e := h.u.searches.editor
	test.Tap(h.u.searches.add)
	test.Type(e.url, "https://www.kleinanzeigen.de/s-wohnung-mieten/kreuzberg/c203l3375")
	test.Tap(e.testBtn)
	if !e.activity.Visible() || !e.testBtn.Disabled() {
		t.Error("no activity shown while the test runs")
	}
	h.requireText("Testing…")
	close(gate)
	h.q.runNext(t)

	if e.activity.Visible() || e.testBtn.Disabled() {
		t.Error("the activity indicator is still on after the test finished")
	}
	h.requireText("The page works: 2 listings found.")
	h.requireText("Nothing is saved yet. After you save, the first check quietly records these as the baseline")
	if h.hasText("decided by") {
		t.Error("a working page is explained with the classifier's evidence")
	}
	h.requireText("Altbau, 2 Zimmer · 1.150 € · 65 m² · 2 rooms · Kreuzberg")
	h.requireText("Dachgeschoss mit Balkon · 1.190 €")
	if e.name.Text != "Wohnung mieten in Berlin" {
		t.Errorf("suggested name %q, want it from the page title", e.name.Text)
	}
	if len(h.b.added) != 0 {
		t.Error("testing saved the search")
	}
}

// Test this search says how the listings were found, and when a site's
// profile found nothing and automatic extraction stood in.
func TestTestThisSearchSaysHowItRead(t *testing.T) {
	h := newHarness(t, model.Snapshot{})
	h.b.dryRun = model.DryRun{
		Outcome: "ok", Status: 200, Method: model.MethodCards, Message: "The page works: 1 listing found.",
		Note:     "The kleinanzeigen.de profile found nothing on this page (the site may have changed its layout); automatic extraction was used.",
		Listings: []model.PageListing{{ID: "1", Title: "Altbau, 2 Zimmer", Price: "1.150 €"}},
	}
	e := h.u.searches.editor
	test.Tap(h.u.searches.add)
	test.Type(e.url, "https://www.kleinanzeigen.de/s-wohnung-mieten/kreuzberg/c203l3375")
	test.Tap(e.testBtn)
	h.q.runNext(t)
	h.requireText("Read by the page's result list, found automatically.")
	h.requireText("profile found nothing on this page")
}

// TestTestThisSearchShowsFailure: a worded error shows its message and hint
// however often it was wrapped, with no package prefix; any other error is
// said plainly (and logged whole). The window cut "poll: " off the front
// before, so a prefix inside, after another wrapper's words, stayed.
func TestTestThisSearchShowsFailure(t *testing.T) {
	worded := &model.UserError{Msg: "Could not reach www.example.com.", Hint: "Check that this computer is online.",
		Err: errors.New("dial tcp: lookup www.example.com: no such host")}
	for _, tc := range []struct {
		err  error
		want string
	}{
		{fmt.Errorf("dry run: %w", fmt.Errorf("poll: test search: %w", worded)),
			"The test did not work: Could not reach www.example.com. Check that this computer is online."},
		{fmt.Errorf("poll: read the page: %w", errors.New("storage: bolt: tx closed")),
			"The test did not work: Something unexpected went wrong. Notifio's log has the details."},
	} {
		h := newHarness(t, model.Snapshot{})
		h.b.dryRunErr = tc.err
		e := h.u.searches.editor
		test.Tap(h.u.searches.add)
		test.Type(e.url, "https://www.example.com/search")
		test.Tap(e.testBtn)
		h.q.runNext(t)
		h.requireText(tc.want)
		if strings.Contains(e.outcome.Text, "poll:") || strings.Contains(e.outcome.Text, "lookup") {
			t.Errorf("the user sees the log's words: %q", e.outcome.Text)
		}
	}
}

func TestEditStartsFromTheStoredSearch(t *testing.T) {
	h := newHarness(t, sample())
	s := h.b.searches["a"]
	s.Selectors.Item = "article.aditem"
	s.Interval = 5 * time.Minute
	h.b.searches["a"] = s
	h.u.searches.selectSearch("a")
	e := h.u.searches.editor
	test.Tap(h.u.searches.edit)
	if e.url.Text != s.URL || e.name.Text != s.Name || e.interval.Text != "5 minutes" || e.item.Text != "article.aditem" {
		t.Fatalf("edit dialog starts with url=%q name=%q interval=%q item=%q", e.url.Text, e.name.Text, e.interval.Text, e.item.Text)
	}
	e.name.SetText("Kreuzberg < 1300 €")
	test.Tap(e.saveBtn)
	h.q.runNext(t)
	if len(h.b.updated) != 1 || h.b.updated[0].Name != "Kreuzberg < 1300 €" || h.b.updated[0].Selectors.Item != "article.aditem" {
		t.Fatalf("UpdateSearch got %+v", h.b.updated)
	}
	if len(h.b.added) != 0 {
		t.Error("editing added a new search")
	}
}

// Not these? The page's other lists are offered; picking one writes its
// selectors under Advanced and tests again with them; an example listing is
// sent with the next test, and the selectors found from it fill Advanced.
func TestTestThisSearchOffersOtherListsAndShowMeOne(t *testing.T) {
	h := newHarness(t, model.Snapshot{})
	h.b.dryRun = model.DryRun{
		Outcome: "ok", Status: 200, Method: model.MethodCards, Message: "The page works: 5 listings found.",
		Listings: []model.PageListing{{ID: "1", Title: "Wohnung in Sülz 0", Price: "900 €"}},
		Groups: []model.Group{
			{Count: 5, Example: "Wohnung in Sülz 0 · 900 €", Selectors: model.PageSelectors{Item: "div.tile"}, Chosen: true},
			{Count: 3, Example: "Altbau am Stadtwald · 1150 €", Selectors: model.PageSelectors{Item: "li.search-result"}},
		},
	}
	e := h.u.searches.editor
	test.Tap(h.u.searches.add)
	test.Type(e.url, "https://www.koeln-wohnen.de/suche/lindenthal")
	test.Tap(e.testBtn)
	h.q.runNext(t)
	if len(e.one.lists.Objects) != 1 {
		t.Fatalf("%d other lists offered, want 1 (the chosen one is not offered)", len(e.one.lists.Objects))
	}
	b := e.one.lists.Objects[0].(*widget.Button)
	if b.Text != "Use this list: 3 items like “Altbau am Stadtwald · 1150 €”" {
		t.Errorf("button %q", b.Text)
	}
	test.Tap(b)
	h.q.runNext(t)
	if e.item.Text != "li.search-result" || h.b.dryRuns[len(h.b.dryRuns)-1].Selectors.Item != "li.search-result" {
		t.Errorf("item %q, tested with %+v", e.item.Text, h.b.dryRuns[len(h.b.dryRuns)-1].Selectors)
	}

	h.b.dryRun.Derived = model.PageSelectors{Item: "li", Title: "h3 a"}
	test.Type(e.one.entry, "Altbau am Stadtwald")
	test.Tap(e.one.find)
	h.q.runNext(t)
	if got := h.b.dryRuns[len(h.b.dryRuns)-1].Example; got != "Altbau am Stadtwald" {
		t.Errorf("the test was sent example %q", got)
	}
	if e.item.Text != "li" || e.title.Text != "h3 a" {
		t.Errorf("Advanced: item %q title %q, want the derived selectors", e.item.Text, e.title.Text)
	}
	h.requireText("Found the list around your listing")
}

// An example that is not on the page says so beside the field, and the
// page's result stays.
func TestShowMeOneProblemKeepsTheResult(t *testing.T) {
	h := newHarness(t, model.Snapshot{})
	h.b.dryRun = model.DryRun{Outcome: "ok", Message: "Found 3 listings on the page.",
		Listings:       []model.PageListing{{ID: "1", Title: "Altbau am Stadtwald"}},
		ExampleProblem: "Nothing on this page reads \"Schloss\": paste the title, price or link of one listing exactly as the page shows it."}
	e := h.u.searches.editor
	test.Tap(h.u.searches.add)
	test.Type(e.url, "https://www.koeln-wohnen.de/suche")
	test.Type(e.one.entry, "Schloss")
	test.Tap(e.one.find)
	h.q.runNext(t)
	h.requireText("Found 3 listings on the page.")
	h.requireText("Altbau am Stadtwald")
	if !e.one.problem.Visible() || !strings.Contains(e.one.problem.Text, "Nothing on this page reads") {
		t.Errorf("problem %v %q", e.one.problem.Visible(), e.one.problem.Text)
	}
}

// A refusal page's title names nothing the user watches: no suggestion from
// it. A results page without a title of its own gets one from its URL.
func TestTestThisSearchSuggestsNamesFromResultsOnly(t *testing.T) {
	h := newHarness(t, model.Snapshot{})
	e := h.u.searches.editor
	test.Tap(h.u.searches.add)
	test.Type(e.url, "https://www.kleinanzeigen.de/s-wohnung-mieten/berlin/c203l3331")
	for _, title := range []string{"Just a moment...", "Access denied", "Ich bin kein Roboter - ImmobilienScout24"} {
		h.b.dryRun = model.DryRun{Outcome: "challenge", Status: 403, Title: title, Message: "The site showed a captcha."}
		test.Tap(e.testBtn)
		h.q.runNext(t)
		if e.name.Text != "" {
			t.Errorf("a refusal page titled %q suggested the name %q", title, e.name.Text)
		}
	}
	h.b.dryRun = model.DryRun{Outcome: "ok", Status: 200, Message: "The page works: 1 listing found.",
		URL: e.url.Text, Site: "kleinanzeigen.de", Listings: []model.PageListing{{ID: "1", Title: "Altbau"}}}
	test.Tap(e.testBtn)
	h.q.runNext(t)
	if e.name.Text != "kleinanzeigen.de: wohnung mieten, berlin" {
		t.Errorf("a results page without a title suggested %q", e.name.Text)
	}
}

// A test still running when the dialog closes belongs to that opening: its
// answer (cancelled as the dialog closed) is not shown in the next one.
func TestReopenedEditorShowsNoEarlierTest(t *testing.T) {
	h := newHarness(t, model.Snapshot{})
	h.b.dryRunGate = make(chan struct{})
	e := h.u.searches.editor
	test.Tap(h.u.searches.add)
	test.Type(e.url, "https://www.kleinanzeigen.de/s-wohnung-mieten/kreuzberg/c203l3375")
	test.Tap(e.testBtn)
	test.Tap(e.cancel)
	test.Tap(h.u.searches.add) // opened again before the cancelled test answered
	h.q.runNext(t)
	if e.outcome.Text != "" {
		t.Errorf("the new dialog shows the earlier test's answer: %q", e.outcome.Text)
	}
	if e.testBtn.Disabled() || e.activity.Visible() {
		t.Errorf("the new dialog is busy: Test disabled %v, activity %v", e.testBtn.Disabled(), e.activity.Visible())
	}
}
