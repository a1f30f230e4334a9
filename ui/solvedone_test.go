package ui

import (
	"context"
	"io"
	"log/slog"
	"os"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"notifio/internal/api"
	"notifio/notify"
	"notifio/poll"
	"notifio/poll/fetch"
	"notifio/storage"

	"notifio/internal/model"
	"notifio/internal/secrets"
)

// solvingWatcher is the real watcher behind a real socket, but its browser
// window is a stand-in that stays open until SolveDone (no browser here), and
// its snapshot shows one challenged site.
type solvingWatcher struct {
	*poll.Service
	snap model.Snapshot
	done chan string
}

func (w *solvingWatcher) Snapshot() model.Snapshot { return w.snap }

func (w *solvingWatcher) Subscribe(fn func(model.Snapshot)) func() {
	fn(w.snap)
	return func() {}
}

func (w *solvingWatcher) SolveInBrowser(ctx context.Context, site string, _ func(model.SolveWindow)) (model.SolveResult, error) {
	select {
	case <-w.done:
		return model.SolveResult{Cookies: 2}, nil
	case <-ctx.Done():
		return model.SolveResult{}, ctx.Err()
	}
}

func (w *solvingWatcher) SolveDone(site string) error {
	select {
	case w.done <- site:
	default:
	}
	return nil
}

// Over the socket, the Solve dialog's Done button ends the browser window
// (before it did nothing there: the window only kept a session handed over
// in-process, and the API client hands none).
func TestSolveDoneOverTheSocket(t *testing.T) {
	dir := t.TempDir()
	db, err := storage.Open(dir, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	fet := fetch.New(fetch.Options{NoProxy: true})
	svc, err := poll.New(db, poll.Options{DataDir: dir, Fetcher: fet, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ops := notify.NewOps(db, notify.OpsOptions{Secrets: secrets.NewSecrets(dir)})
	snap := sample()
	snap.Sites[0] = model.SiteSnapshot{Site: "fotocasa.es", Waiting: true, Kind: model.RefusalChallenge, Rung: 2,
		NextProbe: t0.Add(3 * time.Minute), LastStatus: 403, Searches: 2}
	w := &solvingWatcher{Service: svc, snap: snap, done: make(chan string, 1)}
	sock := api.SocketPath(dir)
	l, err := api.Listen(sock)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() {
		served <- api.NewServer(w, ops, api.Info{Version: "test", PID: os.Getpid(), DataDir: dir}, nil).Serve(ctx, l)
	}()
	q := newQueue()
	u := New(test.NewTempApp(t), api.NewClient(sock), Options{Dispatch: q.dispatch, TickEvery: time.Hour})
	t.Cleanup(func() {
		u.Close()
		cancel()
		<-served
		svc.Close()
		fet.Close()
		_ = db.Close()
	})
	u.win.Resize(fyne.NewSize(900, 1400))
	u.win.Show()
	h := &harness{t: t, u: u, q: q}
	q.runUntil(t, "the challenged site", func() bool { _, ok := u.sites.cards["fotocasa.es"]; return ok })
	u.selectView(viewSites)
	test.Tap(u.sites.cards["fotocasa.es"].solve)
	h.requireText("Solve the check there as usual")
	test.Tap(h.button("Done"))
	q.runUntil(t, "the window to end after Done", func() bool {
		return h.hasText("Notifio kept the cookies of fotocasa.es")
	})
}
