package ui

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"notifio/internal/model"
)

// photoPNG is a 640×480 photo.
func photoPNG(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 640, 480))
	for x := range 640 {
		img.Set(x, x%480, color.RGBA{R: 200, A: 255})
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// photoHost serves photos, counting requests and the most at one time.
type photoHost struct {
	*httptest.Server
	hits, now, most atomic.Int32
}

func newPhotoHost(t *testing.T, body []byte) *photoHost {
	p := &photoHost{}
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.hits.Add(1)
		n := p.now.Add(1)
		defer p.now.Add(-1)
		for {
			m := p.most.Load()
			if n <= m || p.most.CompareAndSwap(m, n) {
				break
			}
		}
		time.Sleep(20 * time.Millisecond) // overlapping requests would show in most
		w.Header().Set("Content-Type", "image/png")
		_, _ = w.Write(body)
	}))
	t.Cleanup(p.Close)
	return p
}

// Issue 37, item 9: the Listings view shows each listing's photo small,
// fetched once off the UI goroutine, one request at a time per image host,
// kept on disk; a listing without a photo keeps its place tidy.
func TestListingsShowThePhotoFetchedOnceAndKept(t *testing.T) {
	host := newPhotoHost(t, photoPNG(t))
	h := newHarness(t, sample())
	h.u.dataDir = t.TempDir()
	h.b.listings["a"] = []model.Listing{
		{ID: "k:1", Title: "Altbau", Image: host.URL + "/p/1.png", FirstSeen: t0.Add(-time.Minute)},
		{ID: "k:2", Title: "Dachgeschoss", Image: host.URL + "/p/2.png", FirstSeen: t0.Add(-2 * time.Minute)},
		{ID: "k:3", Title: "Souterrain", Image: host.URL + "/p/3.png", FirstSeen: t0.Add(-3 * time.Minute)},
		{ID: "k:4", Title: "Ohne Foto", FirstSeen: t0.Add(-4 * time.Minute)},
	}
	h.u.searches.selectSearch("a")
	test.Tap(h.u.searches.listings)
	h.q.runUntil(t, "three photos", func() bool {
		n := 0
		for _, r := range listingRows(h) {
			if r.photo.Resource != nil {
				n++
			}
		}
		return n == 3
	})
	for _, r := range listingRows(h) {
		if r.title.Text == "Ohne Foto" && r.photo.Resource != nil {
			t.Error("the listing without a photo shows one")
		}
		if r.photo.Resource == nil {
			continue
		}
		img, _, err := image.Decode(bytes.NewReader(r.photo.Resource.Content()))
		if err != nil || img.Bounds().Dx() > thumbWidth || img.Bounds().Dy() > thumbHeight {
			t.Errorf("the thumbnail of %q is not small: %v, %v", r.title.Text, err, img.Bounds())
		}
	}
	if got := host.most.Load(); got != 1 {
		t.Errorf("the image host had %d requests at one time, want 1", got)
	}
	// Seen again, and in a new window on the same folder: no new request.
	h.u.listings.load()
	h.q.runAll()
	again := newHarness(t, sample())
	again.u.dataDir = h.u.dataDir
	again.b.listings["a"] = h.b.listings["a"]
	again.u.searches.selectSearch("a")
	test.Tap(again.u.searches.listings)
	again.q.runUntil(t, "the photos from disk", func() bool { return listingRows(again)[0].photo.Resource != nil })
	if got := host.hits.Load(); got != 3 {
		t.Errorf("the image host was asked %d times, want 3 (once per photo)", got)
	}
}

// listingRows are the Listings view's rows on screen, top first.
func listingRows(h *harness) []*listingRowWidget {
	var out []*listingRowWidget
	walkVisible(h.u.win.Content(), func(o fyne.CanvasObject) {
		if r, ok := o.(*listingRowWidget); ok {
			out = append(out, r)
		}
	})
	return out
}

// The thumbnail folder is held under its bound, least recently used first.
func TestThumbnailFolderIsPrunedToItsBound(t *testing.T) {
	dir := t.TempDir()
	th := newThumbs(dir, func(fn func()) { fn() })
	th.bound = 3000
	for i, name := range []string{"a", "b", "c", "d"} {
		p := filepath.Join(dir, name+".jpg")
		if err := os.WriteFile(p, make([]byte, 1000), 0o600); err != nil {
			t.Fatal(err)
		}
		at := time.Now().Add(time.Duration(i-10) * time.Minute)
		_ = os.Chtimes(p, at, at)
	}
	if err := th.store("https://img.example/x.jpg", make([]byte, 1000)); err != nil {
		t.Fatal(err)
	}
	left, _ := filepath.Glob(filepath.Join(dir, "*.jpg"))
	if len(left) != 3 {
		t.Fatalf("%d files left, want 3 (3,000 bytes)", len(left))
	}
	for _, gone := range []string{"a", "b"} {
		if _, err := os.Stat(filepath.Join(dir, gone+".jpg")); err == nil {
			t.Errorf("%s, among the least recently used, was kept", gone)
		}
	}
}
