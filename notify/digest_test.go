package notify

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"notifio/internal/model"
)

func TestHostileContentRenderedSafely(t *testing.T) {
	ts := startServer(t, serverOpts{mode: modePlain})
	cfg := ts.config(model.SecurityNone)
	item := model.OutboxItem{
		ID: 9, SearchName: "Flats\r\nBcc: victim@evil.example\r\n\r\n<b>x</b>",
		SearchURL: "https://www.example-immo.de/search?x=1",
		MessageID: "<outbox-9.s1.zz@notifio.local>",
		Listings: []model.Listing{
			{Title: "<script>alert('x')</script>\r\nBcc: spy@evil.example", URL: "javascript:alert(document.cookie)",
				Price: "<img src=x onerror=alert(1)>", Location: "Berlin\u202Egnp.exe"},
			// Links to other sites are kept (a partner portal's listing, issue 33).
			{Title: "Scheme-relative", URL: "//partner.example/expose/9"},
			{Title: "Other site", URL: "https://partner.example/expose/1"},
			{Title: "Lookalike", URL: "https://www.example-immo.de.partner.example/expose/1"},
			{Title: "Userinfo trick", URL: "https://www.example-immo.de@evil.example/"},
			{Title: "Tab trick", URL: "java\tscript:alert(1)"},
			{Title: "Data", URL: "data:text/html,<script>alert(1)</script>"},
			{Title: "Good one", URL: "https://example-immo.de/expose/42?ref=a&b=\"c\""},
		},
	}
	msg, err := ComposeDigest(item, cfg)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSender(cfg, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Send(context.Background(), msg); err != nil {
		t.Fatal(err)
	}
	msgs := ts.Messages()
	if len(msgs) != 1 {
		t.Fatalf("%d messages", len(msgs))
	}
	// Nobody but the configured recipient got it.
	if len(msgs[0].To) != 1 || msgs[0].To[0] != "me@example.com" {
		t.Errorf("envelope recipients = %v", msgs[0].To)
	}
	raw := string(msgs[0].Data)
	p := parseMIME(t, msgs[0].Data)
	if _, ok := p.Header["Bcc"]; ok {
		t.Errorf("a Bcc header was injected:\n%s", raw)
	}
	headerEnd := strings.Index(raw, "\r\n\r\n")
	for _, line := range strings.Split(raw[:headerEnd], "\r\n") {
		if strings.HasPrefix(strings.ToLower(line), "bcc") || strings.HasPrefix(line, "<b>") {
			t.Errorf("injected header line %q in:\n%s", line, raw[:headerEnd])
		}
	}
	if strings.ContainsAny(p.Subject, "\r\n") || !strings.HasPrefix(p.Subject, "8 new on Flats Bcc: victim@evil.example") {
		t.Errorf("subject = %q", p.Subject)
	}
	if len(p.Types) != 2 {
		t.Fatalf("parts %v", p.Types)
	}

	// HTML: no live markup from the page, no link that is not plain http(s).
	lower := strings.ToLower(p.HTML)
	for _, bad := range []string{"<script", "<img", "javascript:", "evil.example/", "href=\"//", "data:text", "onerror=alert(1)>"} {
		if strings.Contains(lower, bad) {
			t.Errorf("HTML part contains %q:\n%s", bad, p.HTML)
		}
	}
	if strings.Contains(p.HTML, "evil.example\"") || strings.Contains(p.HTML, "href=\"https://evil") {
		t.Errorf("evil link in HTML:\n%s", p.HTML)
	}
	if !strings.Contains(p.HTML, "&lt;script&gt;") {
		t.Errorf("the title should be shown escaped:\n%s", p.HTML)
	}
	if got := strings.Count(p.HTML, "<a href="); got != 5 { // the search, the three partner links and "Good one"
		t.Errorf("%d links in HTML, want 5:\n%s", got, p.HTML)
	}
	if !strings.Contains(p.HTML, `href="https://example-immo.de/expose/42?ref=a&amp;b=%22c%22"`) {
		t.Errorf("the same-site link is missing or badly escaped:\n%s", p.HTML)
	}
	if strings.ContainsRune(p.HTML, '\u202E') || strings.ContainsRune(p.Text, '\u202E') {
		t.Error("a bidi override survived")
	}
	// Text: the titles are there (as text), the hostile links are not.
	for _, bad := range []string{"javascript:", "evil.example/", "data:text"} {
		if strings.Contains(p.Text, bad) {
			t.Errorf("text part contains %q:\n%s", bad, p.Text)
		}
	}
	if !strings.Contains(p.Text, "* <script>alert('x')</script> Bcc: spy@evil.example\r\n") {
		t.Errorf("the title should be one line of text:\n%s", p.Text)
	}
	if !strings.Contains(p.Text, "https://example-immo.de/expose/42") {
		t.Errorf("the same-site link is missing from the text:\n%s", p.Text)
	}
}

func TestListingLink(t *testing.T) {
	base, _ := url.Parse("https://www.immobilienscout24.de/Suche/de/berlin/wohnung-mieten")
	cases := map[string]string{
		"https://www.immobilienscout24.de/expose/1":     "https://www.immobilienscout24.de/expose/1",
		"http://immobilienscout24.de/expose/2":          "http://immobilienscout24.de/expose/2",
		"/expose/3":                                     "https://www.immobilienscout24.de/expose/3",
		"expose/4":                                      "https://www.immobilienscout24.de/Suche/de/berlin/expose/4",
		"https://m.immobilienscout24.de/x":              "https://m.immobilienscout24.de/x",
		"HTTPS://WWW.IMMOBILIENSCOUT24.DE/expose/5":     "https://WWW.IMMOBILIENSCOUT24.DE/expose/5",
		"javascript:alert(1)":                           "",
		"JaVaScRiPt:alert(1)":                           "",
		" javascript:alert(1)":                          "",
		"//partner.example/x":                           "https://partner.example/x",
		"https://partner.example/x":                     "https://partner.example/x",
		"https://immobilienscout24.de.other.example/":   "https://immobilienscout24.de.other.example/",
		"https://www.immobilienscout24.de@evil.example": "",
		"https://user:pw@www.immobilienscout24.de/":     "",
		"ftp://www.immobilienscout24.de/x":              "",
		"data:text/html,hi":                             "",
		"java\nscript:alert(1)":                         "",
		"https://www.immobilienscout24.de/\u200bx":      "",
		"": "",
	}
	for in, want := range cases {
		if got := listingLink(in, base); got != want {
			t.Errorf("listingLink(%q) = %q, want %q", in, got, want)
		}
	}
	// Without a search URL, only absolute links.
	if got := listingLink("/expose/1", nil); got != "" {
		t.Errorf("a relative link without a base: %q", got)
	}
	if got := listingLink("https://x.example/1", nil); got != "https://x.example/1" {
		t.Errorf("an absolute link without a base: %q", got)
	}
	// A non-http search URL allows no links at all.
	if httpURL("javascript:alert(1)") != nil || httpURL("file:///etc/passwd") != nil {
		t.Error("httpURL accepted a non-http URL")
	}
}

func TestSubject(t *testing.T) {
	item := digestItem()
	item.SearchName = "  Berlin\t\t2 rooms\x00\x1b[31m  " + strings.Repeat("very long ", 30)
	msg, err := ComposeDigest(item, model.Config{From: "a@example.com", To: []string{"b@example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	subj := msg.GetGenHeader("Subject")
	if len(subj) != 1 {
		t.Fatalf("subject header %v", subj)
	}
	var p strings.Builder
	if _, err := msg.WriteTo(&p); err != nil {
		t.Fatal(err)
	}
	got := parseMIME(t, []byte(p.String())).Subject
	if !strings.HasPrefix(got, "2 new on Berlin 2 rooms [31m very long") {
		t.Errorf("subject = %q", got)
	}
	if n := utf8.RuneCountInString(got); n > len("2 new on ")+maxSubjectName {
		t.Errorf("subject has %d characters", n)
	}
	if !strings.HasSuffix(got, "…") {
		t.Errorf("a cut subject should end with …: %q", got)
	}

	// No name: the site's name stands in.
	item.SearchName = "\r\n"
	msg, _ = ComposeDigest(item, model.Config{From: "a@example.com", To: []string{"b@example.com"}})
	p.Reset()
	_, _ = msg.WriteTo(&p)
	if got := parseMIME(t, []byte(p.String())).Subject; got != "2 new on example-immo.de" {
		t.Errorf("subject without a name = %q", got)
	}
}

func TestMessageIDIsStable(t *testing.T) {
	item := digestItem()
	if got := messageID(item); got != "outbox-7.s1.abc123@notifio.local" {
		t.Errorf("messageID = %q", got)
	}
	item.MessageID = "bad id\r\nBcc: x@y"
	a, b := messageID(item), messageID(item)
	if a != b || strings.ContainsAny(a, " \r\n") || !strings.Contains(a, "@") {
		t.Errorf("fallback messageID %q / %q", a, b)
	}
	if _, err := ComposeDigest(model.OutboxItem{ID: 1}, model.Config{From: "a@example.com", To: []string{"b@example.com"}}); err == nil {
		t.Error("a digest without listings was composed")
	}
}

func TestSanitizeLine(t *testing.T) {
	cases := map[string]string{
		"a\r\nb":          "a b",
		"  x  ":           "x",
		"a\u2028b\u2029c": "a b c",
		"bidi\u202Eevil":  "bidi evil",
		"tab\tsep":        "tab sep",
		"bad\xffutf8":     "bad\uFFFDutf8",
		"ok – Ümlaut €":   "ok – Ümlaut €",
		"zero\u200bwidth": "zero width",
		"\x00\x01\x02":    "",
	}
	for in, want := range cases {
		if got := model.SanitizeLine(in, 100); got != want {
			t.Errorf("sanitizeLine(%q) = %q, want %q", in, got, want)
		}
	}
	if got := model.SanitizeLine("abcdef", 4); got != "abc…" {
		t.Errorf("truncate: %q", got)
	}
}
