package arch

import (
	"os/exec"
	"strings"
	"testing"
)

// deps lists the packages pkg imports, directly or not (go list -deps), with
// the ci build tag the tests use.
func deps(t *testing.T, pkg string) []string {
	t.Helper()
	out, err := exec.Command("go", "list", "-tags", "ci", "-deps", pkg).Output()
	if err != nil {
		t.Fatalf("go list -deps %s: %v", pkg, err)
	}
	return strings.Fields(string(out))
}

// TestImportRules: the parts depend downwards only (docs/ARCHITECTURE.md).
func TestImportRules(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("needs the go command")
	}
	rules := []struct {
		pkg       string
		forbidden []string // import path prefixes
	}{
		{"notifio/hostbackoff", []string{"notifio/storage", "notifio/notify", "notifio/poll", "notifio/ui", "fyne.io/"}},
		{"notifio/storage", []string{"notifio/hostbackoff", "notifio/notify", "notifio/poll", "notifio/ui", "fyne.io/"}},
		{"notifio/notify", []string{"notifio/poll", "notifio/ui", "fyne.io/"}},
		{"notifio/poll/...", []string{"notifio/ui", "fyne.io/"}},
		{"notifio/cli", []string{"notifio/ui", "fyne.io/"}},
		// The tray lives in the watcher: systray (D-Bus, no GL), never Fyne's
		// app, its GL driver or the window.
		{"notifio/internal/tray", []string{"notifio/ui", "notifio/cli", "fyne.io/fyne/", "github.com/go-gl/"}},
		{"notifio/internal/autostart", []string{"notifio/ui", "notifio/cli", "notifio/poll", "notifio/storage", "notifio/notify", "fyne.io/"}},
		// The window reaches the tray and start at login only through main.
		{"notifio/ui", []string{"notifio/internal/tray", "notifio/internal/autostart"}},
	}
	for _, r := range rules {
		for _, d := range deps(t, r.pkg) {
			for _, f := range r.forbidden {
				if strings.HasPrefix(d, f) {
					t.Errorf("%s imports %s: it must not import %s…", r.pkg, d, f)
				}
			}
		}
	}
}

// TestAPIImportsOnlyNouns: the control API (internal/api) is HTTP over the
// operations' nouns. Of ours it imports directly only the packages whose types
// it carries — poll (Snapshot, SearchInput, DryRun, UserError, WaitError, …),
// poll/browser (the Session in SolveInBrowser's signature), storage (Search,
// Listing, Channel) and notify (Config, ChannelState, FieldError) — until a
// leaf package of nouns takes their place; and nothing it pulls in is the
// window, the command line or Fyne.
func TestAPIImportsOnlyNouns(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("needs the go command")
	}
	allowed := map[string]bool{"notifio/poll": true, "notifio/poll/browser": true, "notifio/storage": true, "notifio/notify": true}
	out, err := exec.Command("go", "list", "-tags", "ci", "-f", `{{join .Imports " "}}`, "notifio/internal/api").Output()
	if err != nil {
		t.Fatalf("go list notifio/internal/api: %v", err)
	}
	for _, imp := range strings.Fields(string(out)) {
		if strings.HasPrefix(imp, "notifio/") && !allowed[imp] {
			t.Errorf("notifio/internal/api imports %s: of ours it may import only the noun packages poll, poll/browser, storage, notify", imp)
		}
	}
	for _, d := range deps(t, "notifio/internal/api") {
		for _, f := range []string{"notifio/ui", "notifio/cli", "fyne.io/"} {
			if strings.HasPrefix(d, f) {
				t.Errorf("notifio/internal/api imports %s: it must not import %s…", d, f)
			}
		}
	}
}
