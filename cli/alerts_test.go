package cli

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"notifio/hostbackoff"
	"notifio/storage"

	"notifio/internal/model"
)

// The settings are said in the window's words for them ("1 hour", "every 12
// hours", words.DurationWords), not the short span form.
func TestAlertsShowAndSet(t *testing.T) {
	dir := t.TempDir()
	code, out, _ := run(t, dir, "alerts", "show")
	if code != 0 || !strings.Contains(out, "on") || !strings.Contains(out, "told after 1 hour of trying") {
		t.Fatalf("alerts show by default: exit %d\n%s", code, out)
	}
	code, out, errOut := run(t, dir, "alerts", "set", "--after", "1m", "--remind", "off", "--summary", "on")
	if code != 0 || !strings.Contains(out, "after 1 minute of") || !strings.Contains(out, "Reminders: off") ||
		!strings.Contains(out, "Daily summary: at 20:00") {
		t.Fatalf("alerts set: exit %d\n%s%s", code, out, errOut)
	}
	// Only what was given changes.
	if code, out, _ = run(t, dir, "alerts", "set", "--remind", "12h"); code != 0 || !strings.Contains(out, "after 1 minute of") ||
		!strings.Contains(out, "every 12 hours") {
		t.Fatalf("second alerts set: exit %d\n%s", code, out)
	}
	for _, bad := range [][]string{{"--after", "10s"}, {"--remind", "soon"}, {"--summary", "maybe"}, {"--summary-at", "8pm"}, {"--on", "--off"}} {
		code, _, errOut := run(t, dir, append([]string{"alerts", "set"}, bad...)...)
		if code == 0 || !strings.Contains(errOut, "notifio:") {
			t.Errorf("alerts set %v: exit %d %q, want a clear error", bad, code, errOut)
		}
	}
	if code, out, _ = run(t, dir, "alerts", "set", "--off"); code != 0 || !strings.Contains(out, "off") {
		t.Fatalf("alerts set --off: exit %d\n%s", code, out)
	}
}

func TestStatusExitsOneWhenASearchNeedsTheUser(t *testing.T) {
	dir := t.TempDir()
	if code, out, _ := run(t, dir, "status"); code != 0 || !strings.Contains(out, "No searches") {
		t.Fatalf("status with no searches: exit %d\n%s", code, out)
	}
	db, err := storage.Open(dir, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.AddSearch(model.Search{Name: "Kreuzberg", URL: "https://flats.example/s", Site: "flats.example"}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.AddSearch(model.Search{Name: "Mitte", URL: "https://other.example/s", Site: "other.example"}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if code, out, _ := run(t, dir, "status"); code != 0 || !strings.Contains(out, "All healthy") {
		t.Fatalf("status, all fine: exit %d\n%s", code, out)
	}
	// The site asked for a captcha (as the watcher records it).
	db, err = storage.Open(dir, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal([]hostbackoff.Entry{{Site: "flats.example", Kind: model.RefusalChallenge, Failures: 2,
		NextRetry: time.Now().Add(20 * time.Minute), LastRefusal: time.Now()}})
	if err := db.SaveBackoff(raw); err != nil {
		t.Fatal(err)
	}
	db.Close()
	code, out, _ := run(t, dir, "status")
	if code != 1 || !strings.Contains(out, "captcha") || !strings.Contains(out, "what you can do") {
		t.Fatalf("status with a blocked site: exit %d\n%s", code, out)
	}
	code, out, _ = run(t, dir, "status", "--json")
	var js struct {
		Healthy  bool
		Searches []struct {
			Name   string
			Health struct{ Kind string }
		}
	}
	if err := json.Unmarshal([]byte(out), &js); err != nil || code != 1 || js.Healthy || len(js.Searches) != 2 {
		t.Fatalf("status --json: exit %d, %v\n%s", code, err, out)
	}
	kinds := map[string]string{}
	for _, s := range js.Searches {
		kinds[s.Name] = s.Health.Kind
	}
	if kinds["Kreuzberg"] != "blocked" || kinds["Mitte"] != "ok" {
		t.Errorf("health by search %v", kinds)
	}
}
