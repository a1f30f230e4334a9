package cli_test

import (
	"bytes"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/mail"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"notifio/storage"

	"notifio/internal/model"
)

// pricedSite serves a results page whose listings and prices the test sets.
type pricedSite struct {
	mu     sync.Mutex
	ids    []string
	prices map[string]int
	hits   int
}

func (s *pricedSite) set(id string, price int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.prices[id]; !ok {
		s.ids = append([]string{id}, s.ids...)
	}
	s.prices[id] = price
}

func (s *pricedSite) hitCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits
}

func (s *pricedSite) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	s.mu.Lock()
	s.hits++
	var cards strings.Builder
	for _, id := range s.ids {
		fmt.Fprintf(&cards, `<article class="card"><a href="/expose/%s"><h2>Flat %s</h2></a><p class="price">%d €</p></article>`, id, id, s.prices[id])
	}
	s.mu.Unlock()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprintf(w, `<!doctype html><html><head><title>Wohnungen mieten</title></head><body><main id="results">%s</main></body></html>`, cards.String())
}

// mailText is a received message's decoded subject and text part.
func mailText(t *testing.T, raw string) (subject, text string) {
	t.Helper()
	m, err := mail.ReadMessage(strings.NewReader(raw))
	if err != nil {
		t.Fatalf("message does not parse: %v", err)
	}
	subject, _ = new(mime.WordDecoder).DecodeHeader(m.Header.Get("Subject"))
	_, params, err := mime.ParseMediaType(m.Header.Get("Content-Type"))
	if err != nil || params["boundary"] == "" {
		b, _ := io.ReadAll(m.Body)
		return subject, string(b)
	}
	mr := multipart.NewReader(m.Body, params["boundary"])
	for {
		p, err := mr.NextPart()
		if err != nil {
			return subject, text
		}
		b, _ := io.ReadAll(p) // quoted-printable is decoded by NextPart
		if strings.HasPrefix(p.Header.Get("Content-Type"), "text/plain") {
			text = string(b)
		}
	}
}

// The real binary: a new listing above --max-price sends no email; when its
// price drops under the limit, one email says the price dropped, and the next
// poll sends nothing more.
func TestEndToEndMaxPriceThenPriceDrop(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test builds the binary and runs for about two minutes")
	}
	if runtime.GOOS == "windows" {
		t.Skip("uses SIGTERM")
	}
	bin := buildBinary(t)
	dir := t.TempDir()

	site := &pricedSite{prices: map[string]int{}}
	site.set("a1", 800)
	site.set("a2", 850)
	srv := httptest.NewUnstartedServer(site)
	srv.Listener = listenOn(t, "127.0.0.1")
	srv.Start()
	defer srv.Close()

	sink, smtpPort := startMailSink(t)

	mustCLI := func(args ...string) string {
		t.Helper()
		out, errOut, err := runCLI(t, bin, dir, args...)
		if err != nil {
			t.Fatalf("notifio %s: %v\nstdout: %s\nstderr: %s", strings.Join(args, " "), err, out, errOut)
		}
		return out
	}
	mustCLI("search", "add", "--name", "Kreuzberg", "--every", "30s", "--max-price", "1000", srv.URL+"/wohnungen")
	mustCLI("email", "set", "--host", "127.0.0.1", "--port", smtpPort, "--security", "none",
		"--from", "notifio@example.test", "--to", "hunter@example.test")
	if out := mustCLI("search", "list"); !strings.Contains(out, "at most 1.000") {
		t.Fatalf("search list does not show the filter:\n%s", out)
	}

	run := exec.Command(bin, "--data", dir, "run")
	var runErr bytes.Buffer
	run.Stderr = &runErr
	if err := run.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- run.Wait() }()
	defer func() {
		if run.ProcessState == nil {
			_ = run.Process.Kill()
		}
	}()
	polled := func(after int) func() bool { return func() bool { return site.hitCount() > after } }

	eventually(t, 20*time.Second, "the baseline poll", polled(0))
	site.set("x", 1200) // above the limit
	h := site.hitCount()
	eventually(t, 50*time.Second, "a poll that sees the listing above the limit", polled(h))
	time.Sleep(2 * time.Second) // let the relay send, were anything queued
	if msgs := sink.all(); len(msgs) != 0 {
		t.Fatalf("a listing above --max-price was emailed:\n%s", msgs[0])
	}

	site.set("x", 950) // now under it
	eventually(t, 50*time.Second, "the price-drop email", func() bool { return len(sink.all()) > 0 })
	subject, text := mailText(t, sink.all()[0])
	if !strings.Contains(subject, "Flat x") || !strings.Contains(text, "Price dropped from 1200 € to 950 €") {
		t.Errorf("email subject %q, text:\n%s", subject, text)
	}
	h = site.hitCount()
	eventually(t, 50*time.Second, "one more poll at the same price", polled(h))
	time.Sleep(2 * time.Second)
	if n := len(sink.all()); n != 1 {
		t.Errorf("%d emails, want exactly one", n)
	}

	if err := run.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("run exited with %v; log:\n%s", err, runErr.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatalf("run did not stop; log:\n%s", runErr.String())
	}
	// Nothing else was queued either (the sleeps above only give the relay time).
	db, err := storage.Open(dir, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	items, _ := db.ListOutbox()
	if len(items) != 1 || items[0].Event != model.EventPriceDrop || items[0].State != model.OutboxSent {
		t.Errorf("outbox after the run: %+v; want the one price drop, sent", items)
	}
}
