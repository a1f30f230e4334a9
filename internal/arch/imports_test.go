package arch

import (
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// rule is one import rule of docs/ARCHITECTURE.md: nothing pkg pulls in
// (go list -deps, without its tests: a test may build a real watcher) may be
// forbidden, or, with direct, nothing pkg imports itself.
type rule struct {
	pkg    string
	direct bool   // only pkg's own imports, not what they pull in
	why    string // what the rule keeps apart, for the failure message
	// forbidden reports whether pkg may not depend on dep.
	forbidden func(dep string) bool
}

// ours reports whether dep is one of Notifio's packages other than self.
func ours(self string) func(string) bool {
	return func(dep string) bool {
		return (dep == "notifio" || strings.HasPrefix(dep, "notifio/")) && dep != self &&
			!strings.HasPrefix(dep, self+"/")
	}
}

// is matches exactly the packages named (and their subpackages when a name
// ends in "/").
func is(names ...string) func(string) bool {
	return func(dep string) bool {
		for _, n := range names {
			if dep == n || strings.HasSuffix(n, "/") && strings.HasPrefix(dep, n) {
				return true
			}
		}
		return false
	}
}

func either(fs ...func(string) bool) func(string) bool {
	return func(dep string) bool {
		return slices.ContainsFunc(fs, func(f func(string) bool) bool { return f(dep) })
	}
}

// nounsOnly forbids every package of ours but the nouns.
func nounsOnly(self string) func(string) bool {
	o := ours(self)
	return func(dep string) bool { return o(dep) && dep != "notifio/internal/model" }
}

// fyne is Fyne, its GL driver and systray; fyneApp is Fyne's app and its
// GL driver alone (the tray's systray is fine).
var (
	fyne    = is("fyne.io/", "github.com/go-gl/")
	fyneApp = is("fyne.io/fyne/", "github.com/go-gl/")
)

// rules are the import rules; the first four are the target shape of issue
// 33 (the window off the core, the watcher off delivery, a store that only
// stores, nouns that import nothing).
var rules = []rule{
	{pkg: "notifio/ui/...", why: "the window is a view: it reads the nouns and their words, never the store, delivery, the backoff policy or the watcher",
		forbidden: is("notifio/storage", "notifio/notify", "notifio/notify/", "notifio/hostbackoff", "notifio/poll",
			"notifio/internal/secrets", "notifio/internal/tray", "notifio/internal/autostart", "notifio/cli")},
	{pkg: "notifio/poll/...", why: "the watcher wakes delivery through poll.Delivery and never imports it",
		forbidden: either(is("notifio/notify", "notifio/notify/", "notifio/ui", "notifio/ui/"), fyne)},
	{pkg: "notifio/storage", why: "the store persists the nouns and imports nothing else of ours", forbidden: either(nounsOnly("notifio/storage"), fyne)},
	{pkg: "notifio/internal/model", why: "the nouns import nothing of ours", forbidden: either(ours("notifio/internal/model"), fyne)},

	{pkg: "notifio/hostbackoff", why: "the backoff policy knows only the nouns", forbidden: either(nounsOnly("notifio/hostbackoff"), fyne)},
	{pkg: "notifio/poll/words", why: "the one wording place reads only the nouns, so every view can use it", forbidden: nounsOnly("notifio/poll/words")},
	{pkg: "notifio/poll/decide", why: "a poll's decisions read and write through decide.Store, never the store itself", forbidden: either(nounsOnly("notifio/poll/decide"), fyne)},
	{pkg: "notifio/poll/filter", why: "the filters read only the nouns, so the window can check them", forbidden: nounsOnly("notifio/poll/filter")},
	{pkg: "notifio/internal/pushurl", why: "the push forms read only the nouns", forbidden: nounsOnly("notifio/internal/pushurl")},
	{pkg: "notifio/internal/datadir", why: "finding the data folder needs nothing of ours", forbidden: ours("notifio/internal/datadir")},
	{pkg: "notifio/notify", why: "delivery never imports the watcher or the window", forbidden: either(is("notifio/poll", "notifio/poll/", "notifio/ui", "notifio/ui/"), fyne)},
	{pkg: "notifio/cli", why: "the command line is a sibling of the window", forbidden: either(is("notifio/ui", "notifio/ui/"), fyne)},
	// The control API carries the nouns: of ours it imports only them, so
	// its client (the window's backend) pulls in nothing of the watcher.
	{pkg: "notifio/internal/api", direct: true, why: "the API's types are its only nouns", forbidden: nounsOnly("notifio/internal/api")},
	{pkg: "notifio/internal/api", why: "the API is not the window or the command line", forbidden: either(is("notifio/ui", "notifio/ui/", "notifio/cli"), fyne)},
	// The tray lives in the watcher: systray (D-Bus, no GL), never Fyne's
	// app, its GL driver or the window.
	{pkg: "notifio/internal/tray", why: "the tray is not the window", forbidden: either(is("notifio/ui", "notifio/ui/", "notifio/cli"), fyneApp)},
	{pkg: "notifio/internal/autostart", why: "start at login needs nothing of ours", forbidden: either(ours("notifio/internal/autostart"), fyne)},
}

// violations checks every rule in the module at dir ("" is this one) and
// says what breaks them.
func violations(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	for _, r := range rules {
		args := []string{"list", "-tags", "ci", "-deps", r.pkg}
		if r.direct {
			args = []string{"list", "-tags", "ci", "-f", `{{join .Imports "\n"}}`, r.pkg}
		}
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		b, err := cmd.Output()
		if err != nil {
			t.Fatalf("go %s (in %q): %v", strings.Join(args, " "), dir, err)
		}
		for _, d := range strings.Fields(string(b)) {
			if r.forbidden(d) {
				out = append(out, r.pkg+" imports "+d+": "+r.why)
			}
		}
	}
	return out
}

// TestImportRules: the parts depend downwards only (docs/ARCHITECTURE.md).
func TestImportRules(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("needs the go command")
	}
	for _, v := range violations(t, "") {
		t.Error(v)
	}
}

// TestImportRulesCatchAViolation: the rules fail on a tree that breaks them.
// testdata/violating is a module of stubs named as Notifio's packages where
// the window reaches storage through poll, poll imports notify, storage
// imports hostbackoff, the nouns import the data folder, the API
// imports poll and a poll's decisions reach the store itself.
func TestImportRulesCatchAViolation(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("needs the go command")
	}
	got := strings.Join(violations(t, filepath.Join("testdata", "violating")), "\n")
	for _, want := range []string{
		"notifio/ui/... imports notifio/storage:",
		"notifio/ui/... imports notifio/poll:",
		"notifio/poll/... imports notifio/notify:",
		"notifio/storage imports notifio/hostbackoff:",
		"notifio/internal/model imports notifio/internal/datadir:",
		"notifio/internal/api imports notifio/poll:",
		"notifio/poll/decide imports notifio/storage:",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no violation %q found; the rules reported:\n%s", want, got)
		}
	}
}
