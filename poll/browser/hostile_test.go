package browser

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"notifio/poll/browser/browsertest"
)

// A watched page must never save a file on the user's computer: neither a
// link with the download attribute that it clicks itself, nor a frame whose
// answer is an attachment.
func TestRenderSavesNoDownloads(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home) // Chromium saves into $HOME/Downloads (creating it)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("XDG_DOWNLOAD_DIR", "")
	site := browsertest.NewSite(t)
	b := newTestBrowser(t, Options{Timeout: 20 * time.Second})
	p, err := b.Render(context.Background(), Request{URL: site.URL + "/download"})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(string(p.HTML), `class="result"`); got != 10 {
		t.Errorf("the page read %d results, want its 10", got)
	}
	b.Close() // a download in progress would end here
	var saved []string
	_ = filepath.WalkDir(home, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasPrefix(d.Name(), "notifio-") {
			saved = append(saved, path)
		}
		return nil
	})
	if len(saved) > 0 {
		t.Errorf("the render saved files: %v", saved)
	}
	if _, err := os.Stat(filepath.Join(home, "Downloads")); err == nil {
		t.Errorf("the render created %s", filepath.Join(home, "Downloads"))
	}
	asked := 0
	for _, r := range site.Requests() {
		if r == "GET /attachment" || r == "GET /file.txt" {
			asked++
		}
	}
	t.Logf("requests for the files: %d of 2 (a refused download may still be asked for)", asked)
}

// A render is one request to the site: pop-ups the page opens are not loaded.
func TestRenderOpensNoPopups(t *testing.T) {
	site := browsertest.NewSite(t)
	b := newTestBrowser(t, Options{Timeout: 20 * time.Second})
	p, err := b.Render(context.Background(), Request{URL: site.URL + "/popups"})
	if err != nil {
		t.Fatalf("%v; the site was asked for %v", err, site.Requests())
	}
	if got := strings.Count(string(p.HTML), `class="result"`); got != 10 {
		t.Errorf("the page read %d results, want its 10", got)
	}
	var popups int
	for _, r := range site.Requests() {
		if r == "GET /popup" {
			popups++
		}
	}
	if popups > 0 {
		t.Errorf("the render loaded %d pop-ups; a render is one request to the site", popups)
	}
}

// A page that opens alert, confirm and prompt is read: the dialogs are
// dismissed, the scripts after them run.
func TestRenderDismissesDialogs(t *testing.T) {
	site := browsertest.NewSite(t)
	b := newTestBrowser(t, Options{Timeout: 20 * time.Second})
	p, err := b.Render(context.Background(), Request{URL: site.URL + "/dialogs"})
	if err != nil {
		t.Fatalf("a page with dialogs was not read: %v", err)
	}
	if got := strings.Count(string(p.HTML), `href="/expose/30`); got != 10 {
		t.Errorf("the page read %d results, want the 10 its script builds after the dialogs:\n%s", got, p.HTML)
	}
}
