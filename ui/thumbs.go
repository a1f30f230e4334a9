package ui

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	_ "image/gif" // listing photos come as JPEG, PNG, GIF or WebP
	"image/jpeg"
	_ "image/png"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"golang.org/x/image/draw"
	_ "golang.org/x/image/webp"
)

// The Listings view shows each listing's photo small. A photo is fetched once,
// off the UI goroutine, with at most one request at a time to each image host
// (a page of 25 listings must not look like a burst to the portal's CDN), made
// small and kept on disk, where the folder is held under a size bound.
const (
	thumbWidth, thumbHeight = 128, 96          // pixels of a stored thumbnail (the row shows it at 64×48)
	thumbMaxDownload        = 8 << 20          // a photo larger than this is not read
	thumbDiskBound          = 32 << 20         // the thumbnail folder is pruned to this
	thumbMemEntries         = 300              // thumbnails kept in memory
	thumbTimeout            = 20 * time.Second // one photo's fetch
	thumbFailedAgain        = 30 * time.Minute // a photo that failed is tried again after this
)

// thumbs fetches, shrinks and caches listing photos. Safe for concurrent use;
// the callbacks of get run through dispatch (on the UI goroutine).
type thumbs struct {
	dir      string
	bound    int64
	client   *http.Client
	dispatch func(func())

	mu      sync.Mutex
	mem     map[string]fyne.Resource // photo URL → thumbnail
	failed  map[string]time.Time     // photo URL → when it failed
	waiting map[string][]func()      // photo URL → who waits for it
	hosts   map[string]chan struct{} // image host → its one request slot
}

func newThumbs(dir string, dispatch func(func())) *thumbs {
	return &thumbs{
		dir: dir, bound: thumbDiskBound, dispatch: dispatch,
		client:  &http.Client{Timeout: thumbTimeout},
		mem:     map[string]fyne.Resource{},
		failed:  map[string]time.Time{},
		waiting: map[string][]func(){},
		hosts:   map[string]chan struct{}{},
	}
}

// get returns the photo's thumbnail when it is ready; otherwise nil, and
// ready is called (on the UI goroutine) once it is, or once it failed.
func (t *thumbs) get(photo string, ready func()) fyne.Resource {
	if photo == "" {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if r, ok := t.mem[photo]; ok {
		return r
	}
	if at, ok := t.failed[photo]; ok && time.Since(at) < thumbFailedAgain {
		return nil
	}
	first := len(t.waiting[photo]) == 0
	t.waiting[photo] = append(t.waiting[photo], ready)
	if first {
		go t.load(photo)
	}
	return nil
}

// load reads the thumbnail from disk, or fetches and stores it, then tells
// those waiting for it.
func (t *thumbs) load(photo string) {
	res, err := t.fromDisk(photo)
	if err != nil {
		res, err = t.fetch(photo)
	}
	t.mu.Lock()
	if err != nil {
		slog.Info("listing photo", "url", photo, "err", err)
		t.failed[photo] = time.Now()
	} else {
		if len(t.mem) >= thumbMemEntries {
			clear(t.mem) // simple and bounded; the disk copies remain
		}
		t.mem[photo] = res
	}
	waiting := t.waiting[photo]
	delete(t.waiting, photo)
	t.mu.Unlock()
	t.dispatch(func() {
		for _, fn := range waiting {
			fn()
		}
	})
}

// file is where the photo's thumbnail is kept.
func (t *thumbs) file(photo string) string {
	sum := sha256.Sum256([]byte(photo))
	return filepath.Join(t.dir, hex.EncodeToString(sum[:16])+".jpg")
}

func (t *thumbs) fromDisk(photo string) (fyne.Resource, error) {
	p := t.file(photo)
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	_ = os.Chtimes(p, now, now) // recently used: pruned last
	return fyne.NewStaticResource(filepath.Base(p), b), nil
}

// fetch downloads the photo (one request at a time per host), shrinks it and
// stores the thumbnail.
func (t *thumbs) fetch(photo string) (fyne.Resource, error) {
	u, err := url.Parse(photo)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, errors.New("not a web address")
	}
	slot := t.slot(u.Host)
	slot <- struct{}{}
	body, err := t.download(photo)
	<-slot
	if err != nil {
		return nil, err
	}
	img, _, err := image.Decode(bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("read the photo: %w", err)
	}
	var out bytes.Buffer
	if err := jpeg.Encode(&out, shrink(img, thumbWidth, thumbHeight), &jpeg.Options{Quality: 80}); err != nil {
		return nil, fmt.Errorf("encode the thumbnail: %w", err)
	}
	if err := t.store(photo, out.Bytes()); err != nil {
		slog.Warn("keep listing photo", "err", err) // shown anyway; fetched again next run
	}
	return fyne.NewStaticResource(filepath.Base(t.file(photo)), out.Bytes()), nil
}

// slot is the host's one request slot.
func (t *thumbs) slot(host string) chan struct{} {
	t.mu.Lock()
	defer t.mu.Unlock()
	s, ok := t.hosts[host]
	if !ok {
		s = make(chan struct{}, 1)
		t.hosts[host] = s
	}
	return s
}

func (t *thumbs) download(photo string) ([]byte, error) {
	resp, err := t.client.Get(photo)
	if err != nil {
		return nil, fmt.Errorf("fetch the photo: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("fetch the photo: status %d", resp.StatusCode)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, thumbMaxDownload+1))
	if err != nil {
		return nil, fmt.Errorf("fetch the photo: %w", err)
	}
	if len(body) > thumbMaxDownload {
		return nil, errors.New("the photo is too large")
	}
	return body, nil
}

// shrink scales img to fit w×h, keeping its proportions (never enlarging).
func shrink(img image.Image, w, h int) image.Image {
	b := img.Bounds()
	scale := min(float64(w)/float64(b.Dx()), float64(h)/float64(b.Dy()), 1)
	dw, dh := max(1, int(float64(b.Dx())*scale)), max(1, int(float64(b.Dy())*scale))
	dst := image.NewRGBA(image.Rect(0, 0, dw, dh))
	draw.ApproxBiLinear.Scale(dst, dst.Bounds(), img, b, draw.Src, nil)
	return dst
}

// store writes the thumbnail and prunes the folder to its bound.
func (t *thumbs) store(photo string, b []byte) error {
	if err := os.MkdirAll(t.dir, 0o700); err != nil {
		return fmt.Errorf("ui: make the thumbnail folder: %w", err)
	}
	if err := os.WriteFile(t.file(photo), b, 0o600); err != nil {
		return fmt.Errorf("ui: write a thumbnail: %w", err)
	}
	return t.prune()
}

// prune removes the least recently used thumbnails until the folder holds at
// most bound bytes.
func (t *thumbs) prune() error {
	entries, err := os.ReadDir(t.dir)
	if err != nil {
		return fmt.Errorf("ui: read the thumbnail folder: %w", err)
	}
	type file struct {
		path string
		size int64
		used time.Time
	}
	var files []file
	var total int64
	for _, e := range entries {
		info, err := e.Info()
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		files = append(files, file{filepath.Join(t.dir, e.Name()), info.Size(), info.ModTime()})
		total += info.Size()
	}
	sort.Slice(files, func(i, j int) bool { return files[i].used.Before(files[j].used) })
	for _, f := range files {
		if total <= t.bound {
			break
		}
		if os.Remove(f.path) == nil {
			total -= f.size
		}
	}
	return nil
}

// photos is the window's photo cache, in the data folder's "thumbnails"
// (the app's own storage folder when no data folder was given).
func (u *UI) photos() *thumbs {
	if u.thumbs == nil {
		dir := u.dataDir
		if dir == "" {
			dir = u.app.Storage().RootURI().Path()
		}
		u.thumbs = newThumbs(filepath.Join(dir, "thumbnails"), u.dispatch)
	}
	return u.thumbs
}
