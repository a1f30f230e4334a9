package notify

import (
	"context"
	"strings"
	"testing"
	"time"

	"notifio/storage"

	"notifio/internal/model"
	"notifio/internal/polltest"
)

// partnerListing is a listing of a search on example-immo.de whose link is on
// a partner portal, as extraction keeps it on purpose (issue 33).
const partnerURL = "https://www.partner-portal.example/expose/77"

// TestPartnerSiteLinkArrivesByEmailAndPush: a listing found on the search's
// page but published on a partner site arrives with its link, by email (a
// go-smtp server in process) and by push (a loopback ntfy server).
func TestPartnerSiteLinkArrivesByEmailAndPush(t *testing.T) {
	now := time.Now()
	ts := startServer(t, serverOpts{mode: modePlain})
	ob := newMemOutbox()
	id := ob.Add("Kreuzberg flats", 1, now)
	item := ob.Get(id)
	item.Listings[0].URL = partnerURL
	ob.Put(item)
	relay := NewRelay(ob, staticCfg(ts.config(model.SecurityNone), ""), RelayOptions{Logger: quietLogger()})
	if sent, err := relay.SendDue(context.Background()); sent != 1 || err != nil {
		t.Fatalf("email: sent %d, %v", sent, err)
	}
	msgs := ts.Messages()
	if len(msgs) != 1 {
		t.Fatalf("%d emails, want 1", len(msgs))
	}
	p := parseMIME(t, msgs[0].Data)
	if !strings.Contains(p.Text, partnerURL) || !strings.Contains(p.HTML, partnerURL) {
		t.Errorf("the email lacks the partner link %s:\ntext:\n%s\nhtml:\n%s", partnerURL, p.Text, p.HTML)
	}

	ps := startPushServer(t, nil)
	db, err := storage.Open(t.TempDir(), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.AddChannel(model.Channel{Name: "phone", Service: "ntfy"}); err != nil {
		t.Fatal(err)
	}
	s, err := db.AddSearch(model.Search{Name: "Kreuzberg flats", URL: "https://www.example-immo.de/search?q=kreuzberg"})
	if err != nil {
		t.Fatal(err)
	}
	base := []model.Listing{{ID: "example-immo.de:1", URL: "https://www.example-immo.de/expose/1", Title: "Old one"}}
	if _, err := polltest.Commit(db, s.ID, base, now); err != nil {
		t.Fatal(err)
	}
	fresh := append(base, model.Listing{ID: "example-immo.de:77-" + s.ID, URL: partnerURL, Title: "Partner flat"})
	if _, err := polltest.Commit(db, s.ID, fresh, now); err != nil {
		t.Fatal(err)
	}
	pr := NewPushRelay(db, urlsOf(map[string]string{"phone": ps.ntfyURL()}), RelayOptions{Logger: quietLogger()})
	if sent, err := pr.SendDue(context.Background()); sent != 1 || err != nil {
		t.Fatalf("push: sent %d, %v", sent, err)
	}
	posts := ps.Posts()
	if len(posts) != 1 || !strings.Contains(posts[0].Body+posts[0].Click, partnerURL) {
		t.Errorf("the push lacks the partner link %s: %+v", partnerURL, posts)
	}
}
