package ui

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	fstorage "fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/test"

	"notifio/internal/model"
)

func TestWebsiteMatchesFyneAppToml(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "FyneApp.toml"))
	if err != nil {
		t.Fatalf("read FyneApp.toml: %v", err)
	}
	m := regexp.MustCompile(`(?m)^Website *= *"(.*)"`).FindSubmatch(data)
	if m == nil {
		t.Fatal("FyneApp.toml has no Website line")
	}
	if got := string(m[1]); got != website {
		t.Errorf("FyneApp.toml says Website = %q, the About dialog shows %q", got, website)
	}
}

func TestVersionWords(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"0.1.0", "Version 0.1.0"},
		{"1.2.3", "Version 1.2.3"},
		{"dev", "Development build (no version number)"},
		{"", "Development build (no version number)"},
	} {
		if got := versionWords(c.in); got != c.want {
			t.Errorf("versionWords(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestAboutFromTheMenuShowsVersionDataFolderAndWebsite(t *testing.T) {
	h := newHarness(t, model.Snapshot{})
	dir := filepath.Join(t.TempDir(), "my data")
	h.u.version, h.u.dataDir = "0.1.0", dir

	menu := h.u.win.MainMenu()
	if menu == nil || len(menu.Items) == 0 {
		t.Fatal("the window has no menu")
	}
	var about *fyne.MenuItem
	for _, it := range menu.Items[0].Items {
		if it.Label == "About Notifio" {
			about = it
		}
	}
	if about == nil {
		t.Fatal(`the window's first menu has no "About Notifio"`)
	}
	about.Action()

	got := strings.Join(h.overlayTexts(), "\n")
	for _, want := range []string{"Notifio", "Version 0.1.0", dir, "About Notifio"} {
		if !strings.Contains(got, want) {
			t.Errorf("About dialog lacks %q; it says:\n%s", want, got)
		}
	}
}

func TestAboutLinksOpenTheFolderAndTheWebsite(t *testing.T) {
	h := newHarness(t, model.Snapshot{})
	dir := t.TempDir()
	h.u.dataDir = dir
	v := newAboutView(h.u)
	if v.prefsDir.Text == "" {
		t.Error("the About dialog does not say where the window settings are kept")
	}
	test.Tap(v.openDir)
	test.Tap(v.website)
	want := []string{fstorage.NewFileURI(dir).String(), website}
	if !slices.Equal(h.opened, want) {
		t.Errorf("opened %v, want %v", h.opened, want)
	}
}
