package notify

import (
	"bytes"
	"strings"
	"testing"

	"notifio/internal/model"
)

// Issue 37, item 9: the digest shows each listing's own photo (an <img> of its
// address, which may be on the portal's image host); a listing without one,
// or with an address that is not http(s), gets no image and a full-width cell.
func TestDigestShowsTheListingsPhoto(t *testing.T) {
	item := model.OutboxItem{ID: 1, SearchName: "Kreuzberg", SearchURL: "https://www.example-immo.de/s",
		MessageID: "<outbox-1@notifio.local>",
		Listings: []model.Listing{
			{Title: "Altbau", URL: "https://www.example-immo.de/e/1", Image: "https://img.example-cdn.net/p/1.jpg?w=400&h=300"},
			{Title: "No photo", URL: "https://www.example-immo.de/e/2"},
			{Title: "Bad photo", URL: "https://www.example-immo.de/e/3", Image: "javascript:alert(1)"},
		}}
	msg, err := ComposeDigest(item, model.Config{From: "me@example.com", To: []string{"me@example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := msg.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	html := parseMIME(t, buf.Bytes()).HTML
	if got := strings.Count(html, "<img "); got != 1 {
		t.Errorf("%d images in the digest, want 1 (the Altbau's):\n%s", got, html)
	}
	if !strings.Contains(html, `<img src="https://img.example-cdn.net/p/1.jpg?w=400&amp;h=300"`) {
		t.Errorf("the photo's address is missing or badly escaped:\n%s", html)
	}
	if strings.Contains(html, "javascript:") {
		t.Errorf("a javascript: photo address survived:\n%s", html)
	}
	if got := strings.Count(html, `colspan="2"`); got != 2 {
		t.Errorf("%d listings without a photo span the row, want 2:\n%s", got, html)
	}
}
