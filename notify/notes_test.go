package notify

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"notifio/storage"

	"notifio/internal/model"
	"notifio/internal/polltest"
)

func renderText(t *testing.T, item model.OutboxItem) (subject, body string) {
	t.Helper()
	m, err := ComposeDigest(item, model.Config{From: "notifio@example.org", To: []string{"me@example.org"}})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := m.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	p := parseMIME(t, b.Bytes())
	return p.Subject, p.Text + "\n" + p.HTML
}

// A price drop says from what to what, in the subject and the body.
func TestDigestSaysPriceDropped(t *testing.T) {
	item := model.OutboxItem{ID: 7, Event: model.EventPriceDrop, SearchName: "Kreuzberg", SearchURL: "https://www.example-immo.de/s",
		Created: time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC),
		Listings: []model.Listing{{ID: "example-immo.de:1", Title: "Altbau mit Balkon", Price: "1.100 €", PriceValue: 1100,
			Verdict: model.Verdict{Change: model.ChangePriceDrop, OldPrice: "1.200 €"}}}}
	subject, body := renderText(t, item)
	if subject != "Altbau mit Balkon: 1.200 € → 1.100 €" {
		t.Errorf("subject = %q", subject)
	}
	for _, want := range []string{"Price dropped on Kreuzberg", "Price dropped from 1.200 € to 1.100 €"} {
		if !strings.Contains(body, want) {
			t.Errorf("body lacks %q:\n%s", want, body)
		}
	}
	push, err := ComposePush([]model.OutboxItem{item})
	if err != nil || push.Title != "Price dropped on Kreuzberg" || !strings.Contains(push.Body, "Price dropped from 1.200 € to 1.100 €") {
		t.Errorf("push = %+v, %v", push, err)
	}
	// After quiet hours one summary holds new listings and the drop.
	fresh := model.OutboxItem{ID: 6, SearchName: "Kreuzberg", SearchURL: item.SearchURL,
		Listings: []model.Listing{{ID: "example-immo.de:2", Title: "Dachgeschoss"}, {ID: "example-immo.de:3", Title: "Souterrain"}}}
	if push, err := ComposePush([]model.OutboxItem{fresh, item}); err != nil || push.Title != "2 new, 1 price change on Kreuzberg" {
		t.Errorf("summary title %q, %v", push.Title, err)
	}
}

// New listings carry their marks and the other searches and sites that found them.
func TestDigestNotesMarksAndDuplicates(t *testing.T) {
	item := model.OutboxItem{ID: 8, SearchName: "Kreuzberg", SearchURL: "https://www.example-immo.de/s",
		Listings: []model.Listing{{ID: "example-immo.de:2", Title: "Dachgeschoss", Verdict: model.Verdict{
			Marks: []string{"price not shown"}, AlsoIn: []string{"Altbau"},
			AlsoOn: []model.SameFlat{{Site: "immowelt.de", URL: "https://www.immowelt.de/expose/9"}, {Site: "evil.example", URL: "https://phish.example/x"}}}}}}
	subject, body := renderText(t, item)
	if subject != "1 new on Kreuzberg" {
		t.Errorf("subject = %q", subject)
	}
	for _, want := range []string{"Note: price not shown", "Also found by your search “Altbau”",
		"Also on immowelt.de: https://www.immowelt.de/expose/9", "Also on evil.example"} {
		if !strings.Contains(body, want) {
			t.Errorf("body lacks %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, "phish.example") {
		t.Error("a link off the named site reached the email")
	}
}

// Two searches find the same listing before the relay runs: one email over
// real SMTP, naming both searches.
func TestTwoSearchesOneEmailNamingBoth(t *testing.T) {
	ts := startServer(t, serverOpts{mode: modePlain})
	db, err := storage.Open(t.TempDir(), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	now := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	x := []model.Listing{{ID: "example-immo.de:77", URL: "https://www.example-immo.de/expose/77", Title: "Altbau mit Balkon", Price: "1.100 €", PriceValue: 1100}}
	for _, name := range []string{"Kreuzberg", "Altbau"} {
		s, err := db.AddSearch(model.Search{Name: name, URL: "https://www.example-immo.de/s?q=" + name})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := polltest.Commit(db, s.ID, nil, now); err != nil { // baseline
			t.Fatal(err)
		}
		if _, err := polltest.Commit(db, s.ID, x, now.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	r := NewRelay(db, staticCfg(ts.config(model.SecurityNone), ""), RelayOptions{Logger: quietLogger()})
	if sent, err := r.SendDue(context.Background()); sent != 1 || err != nil {
		t.Fatalf("sent %d, %v; want one email", sent, err)
	}
	msgs := ts.Messages()
	if len(msgs) != 1 {
		t.Fatalf("%d emails, want 1", len(msgs))
	}
	p := parseMIME(t, msgs[0].Data)
	if p.Subject != "1 new on Kreuzberg" || !strings.Contains(p.Text, "Also found by your search “Altbau”") {
		t.Errorf("subject %q, text:\n%s", p.Subject, p.Text)
	}
}
