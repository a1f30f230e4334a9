package notify

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"notifio/storage"

	"notifio/internal/model"
)

// The crash tests re-run this test binary as a child process that works on a
// real database (storage) and is killed with SIGKILL at the worst moment; the
// parent then restarts the relay on the same database.

const (
	envCrashChild = "NOTIFIO_TEST_CRASH_CHILD" // "send", "commit" or "push"
	envCrashDir   = "NOTIFIO_TEST_CRASH_DIR"
	envCrashPort  = "NOTIFIO_TEST_CRASH_PORT"
)

// TestCrashChild is the child's side; it does nothing in a normal run.
func TestCrashChild(t *testing.T) {
	mode := os.Getenv(envCrashChild)
	if mode == "" {
		t.Skip("runs only as the child process of the crash tests")
	}
	db, err := storage.Open(os.Getenv(envCrashDir), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	switch mode {
	case "commit":
		// Queue a digest, say so, and wait to be killed before any sending.
		id := queueDigest(t, db, time.Now())
		fmt.Printf("committed %d\n", id)
		time.Sleep(time.Minute)
		t.Fatal("not killed")
	case "send":
		port, _ := strconv.Atoi(os.Getenv(envCrashPort))
		cfg := model.Config{Host: "127.0.0.1", Port: port, Security: model.SecurityNone,
			From: "alerts@example.com", To: []string{"me@example.com"}, Timeout: 30 * time.Second}
		r := NewRelay(db, staticCfg(cfg, ""), RelayOptions{Logger: quietLogger()})
		sent, err := r.SendDue(context.Background())
		t.Fatalf("not killed: sent %d, err %v", sent, err)
	case "push":
		url := "ntfy://127.0.0.1:" + os.Getenv(envCrashPort) + "/flats?scheme=http"
		r := NewPushRelay(db, urlsOf(map[string]string{"phone": url}), RelayOptions{Logger: quietLogger()})
		sent, err := r.SendDue(context.Background())
		t.Fatalf("not killed: sent %d, err %v", sent, err)
	}
}

type child struct {
	cmd    *exec.Cmd
	out    *strings.Builder
	lines  chan string
	exited chan struct{}
	err    error
}

func startChild(t *testing.T, mode, dir string, port int) *child {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), envCrashChild+"="+mode, envCrashDir+"="+dir, envCrashPort+"="+strconv.Itoa(port))
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	c := &child{cmd: cmd, out: &strings.Builder{}, lines: make(chan string, 100), exited: make(chan struct{})}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		// c.out is read only after exited is closed.
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			c.out.WriteString(sc.Text() + "\n")
			select {
			case c.lines <- sc.Text():
			default:
			}
		}
		c.err = cmd.Wait()
		close(c.exited)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-c.exited
	})
	return c
}

// kill sends SIGKILL and waits until the process is gone. It may run on a
// server goroutine, so it reports with Errorf only.
func (c *child) kill(t *testing.T) {
	if err := c.cmd.Process.Kill(); err != nil {
		t.Errorf("kill: %v", err)
	}
	select {
	case <-c.exited:
	case <-time.After(30 * time.Second):
		t.Errorf("the child did not die")
	}
}

func (c *child) wait(t *testing.T) {
	select {
	case <-c.exited:
	case <-time.After(60 * time.Second):
		t.Fatal("the child did not finish")
	}
}

// Killed after the server accepted the message but before "sent" was
// committed: after the restart the digest is sent again, and both copies carry
// the same Message-ID, so the duplicate is recognisable.
func TestCrashAfterServerAcceptedBeforeMarkedSent(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a child process")
	}
	dir := t.TempDir()
	db, err := storage.Open(dir, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	outboxID := queueDigest(t, db, time.Now())
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	childCh := make(chan *child, 1)
	var once sync.Once
	ts := startServer(t, serverOpts{mode: modePlain, afterData: func(received) {
		// The server holds the whole message; the child waits for "250 OK".
		once.Do(func() {
			c := <-childCh
			c.kill(t)
		})
	}})
	c := startChild(t, "send", dir, ts.port)
	childCh <- c
	c.wait(t)
	if c.err == nil || c.cmd.ProcessState.Success() {
		t.Fatalf("the child was not killed: %v\n%s", c.err, c.out.String())
	}
	if n := len(ts.Messages()); n != 1 {
		t.Fatalf("the server has %d messages before the restart, want 1", n)
	}

	// Restart: the item is still pending, so it goes out again.
	db, err = storage.Open(dir, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	it, err := db.GetOutbox(outboxID)
	if err != nil || it.State != model.OutboxPending {
		t.Fatalf("after the crash: %+v, %v", it, err)
	}
	r := NewRelay(db, staticCfg(ts.config(model.SecurityNone), ""), RelayOptions{Logger: quietLogger()})
	if sent, err := r.SendDue(context.Background()); sent != 1 || err != nil {
		t.Fatalf("after restart: sent %d, err %v", sent, err)
	}
	if it, _ := db.GetOutbox(outboxID); it.State != model.OutboxSent {
		t.Fatalf("not sent after restart: %+v", it)
	}
	msgs := ts.Messages()
	if len(msgs) != 2 {
		t.Fatalf("%d messages, want the original and one resend", len(msgs))
	}
	first := parseMIME(t, msgs[0].Data)
	second := parseMIME(t, msgs[1].Data)
	id1, id2 := first.Header.Get("Message-Id"), second.Header.Get("Message-Id")
	if id1 == "" || id1 != id2 || id1 != "<"+messageID(it)+">" {
		t.Errorf("Message-IDs %q and %q, item %q: the resend must carry the same one", id1, id2, it.MessageID)
	}
	if first.Subject != second.Subject || first.Text != second.Text {
		t.Error("the resend differs from the original")
	}
	if _, err := r.SendDue(context.Background()); err != nil || len(ts.Messages()) != 2 {
		t.Errorf("a third copy went out: %v", err)
	}
}

// Killed right after the poll commit, before any sending: after the restart the
// digest is delivered, once.
func TestCrashAfterPollCommitBeforeSending(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a child process")
	}
	dir := t.TempDir()
	ts := startServer(t, serverOpts{mode: modePlain})
	c := startChild(t, "commit", dir, ts.port)
	var outboxID uint64
	select {
	case line := <-c.lines:
		for !strings.HasPrefix(line, "committed ") {
			select {
			case line = <-c.lines:
			case <-c.exited:
				t.Fatalf("the child ended early:\n%s", c.out.String())
			}
		}
		n, err := strconv.ParseUint(strings.TrimPrefix(line, "committed "), 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		outboxID = n
	case <-c.exited:
		t.Fatalf("the child ended early:\n%s", c.out.String())
	case <-time.After(60 * time.Second):
		t.Fatal("the child did not commit")
	}
	c.kill(t)

	db, err := storage.Open(dir, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	r := NewRelay(db, staticCfg(ts.config(model.SecurityNone), ""), RelayOptions{Logger: quietLogger()})
	if sent, err := r.SendDue(context.Background()); sent != 1 || err != nil {
		t.Fatalf("after restart: sent %d, err %v", sent, err)
	}
	if it, _ := db.GetOutbox(outboxID); it.State != model.OutboxSent || len(it.Listings) != 2 {
		t.Fatalf("item after restart: %+v", it)
	}
	if n := len(ts.Messages()); n != 1 {
		t.Fatalf("%d messages, want 1", n)
	}
}
