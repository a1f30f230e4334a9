package cli

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/zalando/go-keyring"
)

func TestPushCommandsInProcess(t *testing.T) {
	keyring.MockInit() // never the desktop's real keyring
	var mu sync.Mutex
	var bodies []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, r.Header.Get("Title")+"|"+string(b))
		mu.Unlock()
		w.Write([]byte(`{"id":"x"}`))
	}))
	defer srv.Close()
	dir := t.TempDir()
	url := "ntfy://" + strings.TrimPrefix(srv.URL, "http://") + "/flats?scheme=http"

	code, out, errOut := run(t, dir, "push", "add", url, "--quiet", "23:00-07:00")
	if code != 0 || !strings.Contains(out, `Added push channel "ntfy"`) {
		t.Fatalf("add: %d %q %q", code, out, errOut)
	}
	if code, _, _ := run(t, dir, "push", "add", url); code != 0 {
		t.Fatal("a second channel for the same service needs no name")
	}
	code, out, _ = run(t, dir, "push", "list", "--json")
	var list []struct{ Name, Service, Display, Quiet string }
	if code != 0 || json.Unmarshal([]byte(out), &list) != nil || len(list) != 2 ||
		list[0].Name != "ntfy" || list[1].Name != "ntfy-2" || list[0].Quiet != "23:00-07:00" {
		t.Fatalf("list: %d %q", code, out)
	}
	if strings.Contains(out, "flats") {
		t.Errorf("the topic (a secret) is in the list: %s", out)
	}
	if pw, err := keyring.Get("notifio", "push:ntfy"); err != nil || pw != url {
		t.Errorf("keyring holds %q, %v", pw, err)
	}
	code, out, errOut = run(t, dir, "push", "test", "ntfy")
	if code != 0 || !strings.Contains(out, "Test push sent to ntfy") || len(bodies) != 1 || !strings.HasPrefix(bodies[0], "Notifio test|") {
		t.Fatalf("test: %d %q %q %q", code, out, errOut, bodies)
	}
	if code, out, _ := run(t, dir, "push", "remove", "ntfy-2"); code != 0 || !strings.Contains(out, "Removed") {
		t.Fatalf("remove: %d %q", code, out)
	}
	if _, err := keyring.Get("notifio", "push:ntfy-2"); err == nil {
		t.Error("the removed channel's URL is still in the keyring")
	}
}

func TestPushBadInputSaysWhatToDo(t *testing.T) {
	keyring.MockInit()
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"push"}, 2, "say what to do"},
		{[]string{"push", "add"}, 2, "give exactly one service URL"},
		{[]string{"push", "add", "ftp://example.com/x"}, 1, `unknown push service "ftp": use one of ntfy, telegram`},
		{[]string{"push", "add", "ntfy://ntfy.sh/t", "--quiet", "23-7"}, 1, `quiet hours "23-7": "23" is not a time of day like 07:00`},
		{[]string{"push", "add", "ntfy://ntfy.sh/t", "--quiet", "late"}, 1, "write them as start-end, e.g. 23:00-07:00"},
		{[]string{"push", "add", "ntfy://ntfy.sh/t", "--searches", "nope"}, 1, `no search with ID "nope"`},
		{[]string{"push", "add", "ntfy://ntfy.sh/t", "--events", "rain"}, 2, `unknown event "rain"`},
		{[]string{"push", "remove", "nope"}, 1, `no push channel named "nope"`},
		{[]string{"push", "test"}, 1, "no push channels yet"},
	} {
		code, _, errOut := run(t, dir, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, code, errOut, tc.code, tc.want)
		}
	}
	if code, _, _ := run(t, dir, "push", "add", "ntfy://ntfy.sh/t", "--name", "p"); code != 0 {
		t.Fatal("add")
	}
	if code, _, errOut := run(t, dir, "push", "add", "ntfy://ntfy.sh/u", "--name", "p"); code != 1 || !strings.Contains(errOut, `a channel named "p" exists already`) {
		t.Errorf("duplicate name: %d %q", code, errOut)
	}
}
