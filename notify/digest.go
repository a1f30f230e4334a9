package notify

import (
	"errors"
	"fmt"
	htmltemplate "html/template"
	netmail "net/mail"
	"net/url"
	"strconv"
	"strings"
	texttemplate "text/template"
	"time"
	"unicode"
	"unicode/utf8"

	mail "github.com/wneessen/go-mail"

	"notifio/internal/model"
)

// Length limits (in characters) for what goes into a digest.
const (
	maxSubjectName = 80
	maxTitle       = 300
	maxField       = 120
	maxURL         = 2000
)

// digestData is what both templates render. Every string in it is already one
// line without control characters; URLs are empty unless they are http(s) links
// on the search's own site.
type digestData struct {
	Subject    string
	Headline   string // before the search's name: "2 new listings on", "Price dropped on"
	Count      int
	SearchName string
	SearchURL  string
	Site       string
	Listings   []digestListing
}

type digestListing struct {
	Title    string
	Price    string
	Details  string // size and rooms
	Location string
	URL      string
	Photo    string   // the listing's photo address, "" for none (photo.go)
	Notes    []string // price changes, marks, the same flat elsewhere (notes.go)
}

var textTmpl = texttemplate.Must(texttemplate.New("digest.txt").Parse(
	`{{.Headline}} {{.SearchName}}
{{range .Listings}}
* {{.Title}}{{range .Notes}}
  {{.}}{{end}}
{{- if .Price}}
  Price: {{.Price}}{{end}}
{{- if .Details}}
  {{.Details}}{{end}}
{{- if .Location}}
  Location: {{.Location}}{{end}}
{{- if .URL}}
  {{.URL}}{{end}}
{{end}}
{{- if .SearchURL}}
All results: {{.SearchURL}}
{{end}}
-- 
Sent by Notifio, which watches your searches{{if .Site}} on {{.Site}}{{end}}.
`))

var htmlTmpl = htmltemplate.Must(htmltemplate.New("digest.html").Parse(`<!DOCTYPE html>
<html>
<head><meta charset="utf-8"><title>{{.Subject}}</title></head>
<body style="margin:0;padding:16px;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#222;">
<h2 style="font-size:18px;margin:0 0 12px 0;">{{.Headline}}
{{if .SearchURL}}<a href="{{.SearchURL}}" style="color:#1a5fb4;">{{.SearchName}}</a>{{else}}{{.SearchName}}{{end}}</h2>
<table role="presentation" cellpadding="0" cellspacing="0" style="border-collapse:collapse;width:100%;max-width:640px;">
{{- range .Listings}}
<tr>{{if .Photo}}<td width="128" style="padding:10px 12px 10px 0;border-bottom:1px solid #ddd;vertical-align:top;width:128px;">
<img src="{{.Photo}}" width="120" alt="" style="display:block;width:120px;max-height:90px;object-fit:cover;border:0;border-radius:4px;"></td>{{end}}
<td{{if not .Photo}} colspan="2"{{end}} style="padding:10px 0;border-bottom:1px solid #ddd;vertical-align:top;">
<div style="font-size:16px;font-weight:bold;">{{if .URL}}<a href="{{.URL}}" style="color:#1a5fb4;">{{.Title}}</a>{{else}}{{.Title}}{{end}}</div>
{{- range .Notes}}
<div style="color:#a33;">{{.}}</div>{{end}}
{{- if .Price}}
<div style="font-size:15px;">{{.Price}}</div>{{end}}
{{- if .Details}}
<div style="color:#555;">{{.Details}}</div>{{end}}
{{- if .Location}}
<div style="color:#555;">{{.Location}}</div>{{end}}
</td></tr>
{{- end}}
</table>
<p style="color:#888;font-size:12px;margin-top:16px;">Sent by Notifio, which watches your searches{{if .Site}} on {{.Site}}{{end}}.</p>
</body>
</html>
`))

// ComposeDigest builds the digest email for one outbox item: subject "N new on
// <search name>", a text part and an HTML part listing each listing's title,
// price, size/rooms, location and link, From and To from cfg, Message-ID
// item.MessageID (so a resend after a crash is recognisable as the same message)
// and Date the item's creation time.
//
// Everything from the web page is treated as hostile: control characters are
// stripped (no header injection through a title or search name), the HTML part
// escapes everything, and a link survives only if it is a plain http(s) link
// (javascript:, data:, credentials and hidden characters are dropped, the
// listing shown without one). A link to a partner site is kept: extraction
// keeps such listings on purpose, and the user needs the link to open them.
func ComposeDigest(item model.OutboxItem, cfg model.Config) (*mail.Msg, error) {
	if item.Alert != nil {
		return composeAlert(item, cfg)
	}
	if len(item.Listings) == 0 {
		return nil, errors.New("the outbox item has no listings")
	}
	base := httpURL(item.SearchURL)
	data := digestData{
		Count:      len(item.Listings),
		SearchName: searchName(item, base),
	}
	if base != nil {
		data.SearchURL = model.Truncate(base.String(), maxURL)
		data.Site = strings.TrimPrefix(base.Hostname(), "www.")
	}
	data.Subject, data.Headline = headline(item, data.Count, data.SearchName)
	for _, l := range item.Listings {
		data.Listings = append(data.Listings, digestListing{
			Title:    orDefault(model.SanitizeLine(l.Title, maxTitle), "(no title)"),
			Price:    model.SanitizeLine(l.Price, maxField),
			Details:  details(l),
			Location: model.SanitizeLine(l.Location, maxField),
			URL:      listingLink(l.URL, base),
			Photo:    photoLink(l.Image),
			Notes:    listingNotes(l),
		})
	}

	m, err := newMsg(cfg)
	if err != nil {
		return nil, err
	}
	m.Subject(data.Subject)
	m.SetMessageIDWithValue(messageID(item))
	date := item.Created
	if date.IsZero() {
		date = time.Now()
	}
	m.SetDateWithValue(date)
	if err := m.SetBodyTextTemplate(textTmpl, data); err != nil {
		return nil, fmt.Errorf("rendering the text part: %w", err)
	}
	if err := m.AddAlternativeHTMLTemplate(htmlTmpl, data); err != nil {
		return nil, fmt.Errorf("rendering the HTML part: %w", err)
	}
	return m, nil
}

// newMsg starts a message from cfg.From to cfg.To with Notifio's fixed headers.
func newMsg(cfg model.Config) (*mail.Msg, error) {
	m := mail.NewMsg(mail.WithNoDefaultUserAgent(), mail.WithCharset(mail.CharsetUTF8))
	from, err := model.ParseAddress(cfg.From)
	if err != nil {
		return nil, &model.FieldError{Field: "from", Problem: "The sender address is not a valid email address."}
	}
	m.FromMailAddress(from)
	var to []*netmail.Address
	for _, t := range cfg.To {
		a, err := model.ParseAddress(t)
		if err != nil {
			return nil, &model.FieldError{Field: "to", Problem: "A recipient address is not a valid email address."}
		}
		to = append(to, a)
	}
	if len(to) == 0 {
		return nil, &model.FieldError{Field: "to", Problem: "Enter at least one recipient address (To)."}
	}
	m.ToMailAddress(to...)
	m.SetUserAgent("Notifio")
	// RFC 3834: an automatic message; no vacation replies to it, please.
	m.SetGenHeader(mail.Header("Auto-Submitted"), "auto-generated")
	return m, nil
}

// composeTest is the "send test email" message.
func composeTest(cfg model.Config, now time.Time) (*mail.Msg, error) {
	m, err := newMsg(cfg)
	if err != nil {
		return nil, err
	}
	m.Subject("Notifio test email")
	m.SetMessageID()
	m.SetDateWithValue(now)
	m.SetBodyString(mail.TypeTextPlain, "This is a test email from Notifio.\r\n\r\n"+
		"If you can read it, email alerts for new listings will reach you here.\r\n")
	return m, nil
}

// messageID is the item's stable Message-ID (without angle brackets). If storage
// gave none, or an unusable one, a stable one is derived from the item.
func messageID(item model.OutboxItem) string {
	id := strings.TrimSpace(item.MessageID)
	id = strings.TrimSuffix(strings.TrimPrefix(id, "<"), ">")
	at := strings.LastIndexByte(id, '@')
	ok := at > 0 && at < len(id)-1 && len(id) <= 250 &&
		!strings.ContainsFunc(id, func(r rune) bool {
			return r <= ' ' || r >= 0x7f || strings.ContainsRune("<>()[]\\,;:\"", r)
		})
	if ok {
		return id
	}
	return fmt.Sprintf("outbox.%d.%d@notifio.invalid", item.ID, item.Created.UnixNano())
}

func searchName(item model.OutboxItem, base *url.URL) string {
	if n := model.SanitizeLine(item.SearchName, maxSubjectName); n != "" {
		return n
	}
	if base != nil {
		return strings.TrimPrefix(base.Hostname(), "www.")
	}
	return "your search"
}

func details(l model.Listing) string {
	var parts []string
	if s := model.SanitizeLine(l.Size, maxField); s != "" {
		parts = append(parts, s)
	}
	if r := model.SanitizeLine(l.Rooms, maxField); r != "" {
		if _, err := strconv.ParseFloat(strings.Replace(r, ",", ".", 1), 64); err == nil {
			r += " rooms"
		}
		parts = append(parts, r)
	}
	return strings.Join(parts, " · ")
}

// httpURL parses an absolute http(s) URL with a host and no user info, else nil.
func httpURL(raw string) *url.URL {
	raw = strings.TrimSpace(raw)
	if raw == "" || len(raw) > maxURL || strings.ContainsFunc(raw, unsafeURLRune) {
		return nil
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || u.Opaque != "" {
		return nil
	}
	return u
}

// listingLink returns the listing's link, resolved against the search URL
// (base; nil when it has none), if it is a plain http(s) link; else "".
// javascript:, data:, links with user info, whitespace or invisible characters
// all come out empty. Links to other sites are kept: a results page may list
// a partner portal's listings, and extraction keeps them on purpose (issue 33).
func listingLink(raw string, base *url.URL) string {
	raw = strings.TrimSpace(raw)
	if raw == "" || len(raw) > maxURL || strings.ContainsFunc(raw, unsafeURLRune) {
		return ""
	}
	ref, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	if base != nil {
		ref = base.ResolveReference(ref)
	}
	u := httpURL(ref.String())
	if u == nil {
		return ""
	}
	return u.String()
}

// unsafeURLRune is whitespace, control and invisible formatting characters,
// none of which belongs in a link (browsers strip some of them, which is how
// "java\tscript:" tricks work).
func unsafeURLRune(r rune) bool {
	return unicode.IsSpace(r) || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == utf8.RuneError
}

// sameSite reports whether two host names belong to the same site — the
// product's one definition, model.SiteOf (the registrable domain: www.
// and m. share it; a public suffix's tenants and IP addresses do not).
func sameSite(a, b string) bool {
	sa := model.SiteOf(a)
	return sa != "" && sa == model.SiteOf(b)
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
