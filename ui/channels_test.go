package ui

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"github.com/zalando/go-keyring"

	"notifio/storage"

	"notifio/internal/model"

	"notifio/internal/secrets"
)

// withChannels gives the fake backend a real database and the real channel
// operations (the keyring mocked: never the desktop's own), with one saved
// search, "Kreuzberg", shown in the window; it returns the search's ID.
func withChannels(t *testing.T) (*harness, string) {
	t.Helper()
	keyring.MockInit()
	dir := t.TempDir()
	db, err := storage.Open(dir, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	s, err := db.AddSearch(model.Search{Name: "Kreuzberg", URL: "https://www.example-immo.de/s?q=kreuzberg"})
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, model.Snapshot{At: t0, Searches: []model.SearchSnapshot{{ID: s.ID, Name: "Kreuzberg", URL: s.URL, Site: "example-immo.de"}}})
	h.b.chDB, h.b.secrets = db, secrets.NewSecrets(dir)
	h.u.selectView(viewSettings)
	return h, s.ID
}

// addVia opens Add, lets fill fill the form, taps Add and waits for the save.
func addVia(t *testing.T, h *harness, service string, fill func(f *channelForm)) {
	t.Helper()
	test.Tap(h.u.settings.channels.addBtn)
	f := h.u.settings.channels.form
	if f == nil {
		t.Fatal("Add opened no form")
	}
	f.service.SetSelected(service)
	fill(f)
	test.Tap(f.addBtn)
	if f.problem.Visible() {
		t.Fatalf("the form refused: %s", f.problem.Text)
	}
	h.q.runNext(t)
}

func TestAddChannelBuildsTheServiceURL(t *testing.T) {
	const po, user = "azGDORePK8gMaC0QOYAMyEEuzJnyUi", "uQiRzpo4DXghDmr9QzzfQu27cmVRsG"
	for _, tc := range []struct {
		service, name, want string
		fill                func(f *channelForm)
	}{
		{formNtfy, "ntfy", "ntfy://ntfy.sh/flats-anna-7x2k", func(f *channelForm) { test.Type(f.topic, "flats-anna-7x2k") }},
		{formTelegram, "telegram", "telegram://123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw@telegram?chats=987654321", func(f *channelForm) {
			test.Type(f.botToken, "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw")
			test.Type(f.chat, "987654321")
		}},
		{formPushover, "pushover", "pushover://shoutrrr:" + po + "@" + user + "/", func(f *channelForm) {
			test.Type(f.appToken, po)
			test.Type(f.userKey, user)
		}},
		{formOther, "gotify", "gotify://push.example.org/AbCdEf123456789", func(f *channelForm) { test.Type(f.rawURL, "gotify://push.example.org/AbCdEf123456789") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, _ := withChannels(t)
			addVia(t, h, tc.service, tc.fill)
			if got, err := h.b.secrets.ServiceURL(tc.name); err != nil || got != tc.want {
				t.Errorf("the keyring holds %q (%v), want %q", got, err, tc.want)
			}
			h.requireText("Added " + tc.name + ".")
			if r := h.u.settings.channels.rows[tc.name]; r == nil || !strings.Contains(r.detail.Text, "every search") {
				t.Errorf("no row for %s, or it does not say it gets every search", tc.name)
			}
			if h.u.settings.channels.form != nil {
				t.Error("the form stays open after adding")
			}
		})
	}
}

func TestAddChannelWithSearchesAndQuietHoursKeepsTheSecretOffTheUIGoroutine(t *testing.T) {
	h, id := withChannels(t)
	gate := make(chan struct{})
	h.b.saveGate = gate // the keyring takes its time
	test.Tap(h.u.settings.channels.addBtn)
	f := h.u.settings.channels.form
	test.Type(f.topic, "flats-anna")
	test.Type(f.name, "Anna's phone")
	test.Type(f.quiet, "23:00-07:00")
	f.searches.SetSelected([]string{"Kreuzberg"})
	test.Tap(f.addBtn)
	if !f.activity.Visible() || !f.addBtn.Disabled() {
		t.Error("no progress shown while the keyring is written")
	}
	close(gate)
	h.q.runNext(t)
	chans, _ := h.b.chDB.ListChannels()
	if len(chans) != 1 || chans[0].Name != "Anna's phone" || chans[0].Quiet != "23:00-07:00" ||
		len(chans[0].Searches) != 1 || chans[0].Searches[0] != id {
		t.Fatalf("saved %+v", chans)
	}
	r := h.u.settings.channels.rows["Anna's phone"]
	for _, want := range []string{"“Kreuzberg”", "quiet hours 23:00–07:00"} {
		if !strings.Contains(r.detail.Text, want) {
			t.Errorf("row detail %q lacks %q", r.detail.Text, want)
		}
	}
	h.requireText("No push sent yet.")
}

func TestAddChannelRefusesBadInputInWords(t *testing.T) {
	h, _ := withChannels(t)
	test.Tap(h.u.settings.channels.addBtn)
	f := h.u.settings.channels.form
	test.Type(f.topic, "my flats")
	test.Tap(f.addBtn)
	if !strings.Contains(f.problem.Text, "letters, digits, - and _ only") {
		t.Errorf("problem %q", f.problem.Text)
	}
	f.topic.SetText("flats")
	test.Type(f.quiet, "late")
	test.Tap(f.addBtn)
	if !strings.Contains(f.problem.Text, "write them as start-end, e.g. 23:00-07:00") {
		t.Errorf("problem %q", f.problem.Text)
	}
	if chans, _ := h.b.chDB.ListChannels(); len(chans) != 0 {
		t.Errorf("bad input was saved: %+v", chans)
	}
}

// ntfyServer stands in for ntfy on loopback and records the pushes.
func ntfyServer(t *testing.T, status int) (*httptest.Server, func() []string) {
	var mu sync.Mutex
	var posts []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		posts = append(posts, r.URL.Path+"|"+r.Header.Get("Title")+"|"+string(b))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		if status == http.StatusOK {
			w.Write([]byte(`{"id":"m1","event":"message"}`))
		} else {
			w.Write([]byte(`{"code":40101,"http":401,"error":"unauthorized"}`))
		}
	}))
	t.Cleanup(srv.Close)
	return srv, func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), posts...) }
}

func TestSendATestPushReachesNtfy(t *testing.T) {
	h, _ := withChannels(t)
	srv, posts := ntfyServer(t, http.StatusOK)
	addVia(t, h, formNtfy, func(f *channelForm) {
		test.Type(f.server, srv.URL) // http://127.0.0.1:…, a server at home
		test.Type(f.topic, "flats")
	})
	r := h.u.settings.channels.rows["ntfy"]
	test.Tap(r.test)
	if !h.u.settings.channels.activity.Visible() || !r.test.Disabled() {
		t.Error("no progress shown while the test push is sent")
	}
	h.q.runNext(t)
	got := posts()
	if len(got) != 1 || !strings.HasPrefix(got[0], "/flats|Notifio test|This is a test push") {
		t.Fatalf("the service got %q, want one test push on /flats", got)
	}
	h.requireText("Test push sent to ntfy. Check your phone.")
	// Issue 37, item 8: the row says the test went through.
	h.requireText("Test push delivered today ")
	if h.hasText("No push sent yet") {
		t.Error("after a test push that went through the row still says no push was sent")
	}
}

// Issue 37, item 8: with 24 searches to tick, a quiet-hours mistake is said
// where the user sees it, above Add, not below the search boxes.
func TestAddChannelProblemIsInSightWith24Searches(t *testing.T) {
	h, _ := withChannels(t)
	snap := h.b.copySnap()
	for i := 1; i <= 24; i++ {
		snap.Searches = append(snap.Searches, model.SearchSnapshot{ID: fmt.Sprintf("x%02d", i), Name: fmt.Sprintf("Mitte %d", i), Site: "example-immo.de"})
	}
	h.publish(snap)
	h.u.win.Resize(fyne.NewSize(800, 600))
	test.Tap(h.u.settings.channels.addBtn)
	f := h.u.settings.channels.form
	test.Type(f.topic, "flats")
	test.Type(f.quiet, "late")
	test.Tap(f.addBtn)
	if !f.problem.Visible() || !strings.Contains(f.problem.Text, "23:00-07:00") {
		t.Fatalf("problem %q (visible %v)", f.problem.Text, f.problem.Visible())
	}
	pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(f.problem)
	if bottom := pos.Y + f.problem.Size().Height; pos.Y < 0 || bottom > 600 || f.problem.Size().Height == 0 {
		t.Errorf("the problem is drawn at y %.0f–%.0f, outside the 600 px window", pos.Y, bottom)
	}
}

func TestFailedTestPushSaysWhatToDoInTheWindowsWords(t *testing.T) {
	h, _ := withChannels(t)
	srv, _ := ntfyServer(t, http.StatusUnauthorized)
	addVia(t, h, formNtfy, func(f *channelForm) {
		test.Type(f.server, srv.URL)
		test.Type(f.topic, "flats")
	})
	test.Tap(h.u.settings.channels.rows["ntfy"].test)
	h.q.runNext(t)
	res := h.u.settings.channels.result.Text
	if !strings.Contains(res, "The test push to ntfy was not delivered") || !strings.Contains(res, "remove this channel and add it again") {
		t.Errorf("result %q", res)
	}
	if strings.Contains(res, "notifio push") {
		t.Errorf("the window quotes a command: %q", res)
	}
}

// Issue 33: a test push whose server cannot be reached says it in words as
// a push (the window rewrote the test email's sentence and missed this form
// of it: "The test email was not sent."), what to do, then the details.
func TestFailedTestPushToAClosedPortSaysPush(t *testing.T) {
	h, _ := withChannels(t)
	srv, _ := ntfyServer(t, http.StatusOK)
	closed := srv.URL
	srv.Close() // nothing listens there now: the connection is refused
	addVia(t, h, formNtfy, func(f *channelForm) {
		test.Type(f.server, closed)
		test.Type(f.topic, "flats")
	})
	test.Tap(h.u.settings.channels.rows["ntfy"].test)
	h.q.runNext(t)
	res := h.u.settings.channels.result.Text
	if !strings.HasPrefix(res, "The test push to ntfy was not delivered. The server did not accept a connection on that port.\nWhat to do: ") {
		t.Errorf("result %q", res)
	}
	if i, j := strings.Index(res, "What to do: "), strings.Index(res, "\n(Details: "); j < i {
		t.Errorf("the details are not after what to do: %q", res)
	}
}

func TestRemoveChannelRemovesItAndItsURL(t *testing.T) {
	h, _ := withChannels(t)
	addVia(t, h, formNtfy, func(f *channelForm) { test.Type(f.topic, "flats") })
	test.Tap(h.u.settings.channels.rows["ntfy"].remove)
	test.Tap(h.button("Remove")) // the confirmation's
	h.q.runNext(t)
	if chans, _ := h.b.chDB.ListChannels(); len(chans) != 0 {
		t.Errorf("channels after Remove: %+v", chans)
	}
	if _, err := h.b.secrets.ServiceURL("ntfy"); err == nil {
		t.Error("the URL stays in the keyring")
	}
	if len(h.u.settings.channels.rows) != 0 || !h.u.settings.channels.empty.Visible() {
		t.Error("the row stays in the list")
	}
	h.requireText("Removed ntfy.")
}

func TestChannelStateWords(t *testing.T) {
	c := model.ChannelState{Channel: model.Channel{Name: "phone"}, NeedsAttention: 2,
		LastError: "unauthorized (40101)",
		Hint:      "The service refused the token or password in the channel's URL: check it in the service's app or website, then run \"notifio push remove NAME\" and \"notifio push add\" with the right URL"}
	_, words := channelStateWords(c, time.Time{}, t0)
	want := "Needs attention: 2 pushes were not delivered: unauthorized (40101) — The service refused the token or password in the channel's URL: " +
		"check it in the service's app or website, then remove this channel and add it again with the right details"
	if words != want {
		t.Errorf("words\n%q\nwant\n%q", words, want)
	}
	c = model.ChannelState{LastSent: t0.Add(-90 * 60 * 1e9)}
	if _, words := channelStateWords(c, time.Time{}, t0); words != "Last push delivered today 12:30." {
		t.Errorf("words %q", words)
	}
}

// Choosing another service shows that service's entries, not the first one's
// under new labels (seen in the real window).
func TestAddFormShowsTheChosenServicesEntries(t *testing.T) {
	h, _ := withChannels(t)
	test.Tap(h.u.settings.channels.addBtn)
	f := h.u.settings.channels.form
	for _, tc := range []struct {
		service string
		shown   []*keyEntry
		hidden  []*keyEntry
	}{
		{formTelegram, []*keyEntry{f.botToken, f.chat}, []*keyEntry{f.server, f.topic, f.appToken, f.rawURL}},
		{formPushover, []*keyEntry{f.appToken, f.userKey}, []*keyEntry{f.botToken, f.topic, f.rawURL}},
		{formOther, []*keyEntry{f.rawURL}, []*keyEntry{f.server, f.botToken, f.appToken}},
		{formNtfy, []*keyEntry{f.server, f.topic}, []*keyEntry{f.botToken, f.appToken, f.rawURL}},
	} {
		f.service.SetSelected(tc.service)
		visible := map[*keyEntry]bool{}
		walkVisible(h.u.win.Canvas().Overlays().Top(), func(o fyne.CanvasObject) {
			if e, ok := o.(*keyEntry); ok {
				visible[e] = true
			}
		})
		for _, e := range tc.shown {
			if !visible[e] {
				t.Errorf("%s: the entry %q is not shown", tc.service, e.PlaceHolder)
			}
		}
		for _, e := range tc.hidden {
			if visible[e] {
				t.Errorf("%s: the entry %q of another service is shown", tc.service, e.PlaceHolder)
			}
		}
	}
}
