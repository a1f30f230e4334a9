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
