package notify

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/nicholas-fedor/shoutrrr/pkg/format"
	"github.com/nicholas-fedor/shoutrrr/pkg/router"
	"github.com/nicholas-fedor/shoutrrr/pkg/types"
	"github.com/nicholas-fedor/shoutrrr/pkg/util/jsonclient"

	"notifio/internal/model"

	"notifio/internal/pushurl"
)

// PushTimeout bounds one push to a service.
const PushTimeout = 30 * time.Second

// PushMessage is what one push says: fit for a lock screen.
type PushMessage struct {
	Title string
	Body  string
	// Link is the one listing's link, for services that open it on a tap.
	Link string
}

// ComposePush builds one push for items (one channel's due items): for one
// listing its title, price, size and rooms, district and link; for several the
// count and the first three. Several items (after quiet hours) make one summary.
func ComposePush(items []model.OutboxItem) (PushMessage, error) {
	if len(items) > 0 && items[0].Alert != nil {
		return composeAlertPush(items)
	}
	type entry struct {
		l    model.Listing
		link string
	}
	var all []entry
	searches := map[string]string{}
	for _, it := range items {
		base := httpURL(it.SearchURL)
		searches[it.SearchID] = searchName(it, base)
		for _, l := range it.Listings {
			all = append(all, entry{l, listingLink(l.URL, base)})
		}
	}
	if len(all) == 0 {
		return PushMessage{}, errors.New("the outbox items have no listings")
	}
	var m PushMessage
	if len(searches) == 1 {
		for _, name := range searches {
			m.Title = fmt.Sprintf("%s on %s", pushCount(items), name)
			if allPriceChanges(items) {
				_, head := headline(items[0], len(all), name)
				m.Title = head + " " + name
			}
		}
	} else {
		m.Title = fmt.Sprintf("%s on %d searches", pushCount(items), len(searches))
	}
	var b strings.Builder
	for i, e := range all {
		if i == 3 {
			fmt.Fprintf(&b, "… and %d more\n", len(all)-3)
			break
		}
		b.WriteString(orDefault(model.SanitizeLine(e.l.Title, 120), "(no title)") + "\n")
		if facts := pushFacts(e.l); facts != "" {
			b.WriteString(facts + "\n")
		}
		if notes := listingNotes(e.l); len(notes) > 0 {
			b.WriteString(notes[0] + "\n") // the change, or the mark: one line on a lock screen
		}
		if e.link != "" {
			b.WriteString(e.link + "\n")
		}
	}
	m.Body = strings.TrimRight(b.String(), "\n")
	if len(all) == 1 {
		m.Link = all[0].link
	}
	return m, nil
}

// pushFacts is "900 € · 60 m² · 2 rooms · Kreuzberg".
func pushFacts(l model.Listing) string {
	var parts []string
	for _, s := range []string{model.SanitizeLine(l.Price, 40), details(l), model.SanitizeLine(l.Location, 60)} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, " · ")
}

// SendPush sends m to the service at rawURL. Every error is a *DeliveryError
// (Code the HTTP status where the service answered with one) with the secret
// parts of the URL taken out of its words.
func SendPush(ctx context.Context, rawURL string, m PushMessage) error {
	r, _ := router.New(nil)
	svc, err := r.Locate(rawURL)
	if err != nil {
		return pushFail(fmt.Errorf("the service URL is not valid: %w", err), rawURL)
	}
	params := types.Params{}
	body := m.Body
	keys := format.NewPropKeyResolver(format.GetServiceConfig(svc))
	if _, err := keys.Get("title"); err == nil {
		params.SetTitle(m.Title)
	} else {
		body = m.Title + "\n" + body
	}
	if _, err := keys.Get("click"); err == nil && m.Link != "" {
		params["click"] = m.Link
	}
	rec, since := recordRetryAfter(svc), time.Now()
	ctx, cancel := context.WithTimeout(ctx, PushTimeout)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- svc.Send(body, &params) }()
	select {
	case err = <-done:
	case <-ctx.Done():
		// The send goes on (shoutrrr takes no context) and ends with the
		// services' own 10 s client timeouts.
		err = ctx.Err()
	}
	if err != nil {
		d := pushFail(err, rawURL)
		d.RetryAfter = rec.retryAfter(serviceHost(rawURL), since, time.Now())
		return d
	}
	return nil
}

// Hints for push failures.
const (
	hintPushAuth        = "The service refused the token or password in the channel's URL: check it in the service's app or website, then run \"notifio push remove NAME\" and \"notifio push add\" with the right URL"
	hintPushNotFound    = "The service does not know this topic, chat or webhook: check the channel's URL (for Telegram: send /start to your bot and check the chat ID)"
	hintPushRefused     = "The service refused the message; see its words above, and check the channel's URL"
	hintPushBusy        = "The service is temporarily unavailable; Notifio retries automatically"
	hintPushNetwork     = "Could not reach the service: check your internet connection and the server in the channel's URL; Notifio keeps retrying"
	hintPushTestNetwork = "Could not reach the service: check the server's address and port in the channel's URL and that the server is running " +
		"(for a service on the internet, also your connection); this test is not retried"
	hintPushURL = "Run \"notifio push remove NAME\" and add the channel again with a complete URL"
)

// pushFail classifies a push error as temporary or not, with a hint.
func pushFail(err error, rawURL string) *DeliveryError {
	code := httpStatus(err)
	d := &DeliveryError{Err: &redactedError{msg: pushurl.RedactURL(err.Error(), rawURL), err: err}, Code: code}
	msg := strings.ToLower(err.Error())
	switch {
	case errors.Is(err, router.ErrUnknownService) || errors.Is(err, router.ErrInitializeFailed) ||
		errors.Is(err, router.ErrParseURLFailed):
		d.Hint = hintPushURL
	case code == http.StatusUnauthorized || code == http.StatusForbidden || strings.Contains(msg, "unauthorized"):
		d.Hint = hintPushAuth
	case code == http.StatusNotFound || strings.Contains(msg, "chat not found"):
		d.Hint = hintPushNotFound
	case code == http.StatusTooManyRequests || code == http.StatusRequestTimeout || code >= 500:
		d.Temporary, d.Hint = true, hintPushBusy
	case code >= 400:
		d.Hint = hintPushRefused
	default:
		// Network trouble, timeouts and anything unknown: retry rather than
		// give up on an alert.
		d.Temporary, d.Hint = true, hintPushNetwork
	}
	return d
}

// redactedError shows words without secrets and keeps the cause for errors.Is.
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

var (
	// "401 Unauthorized", as services quote net/http's Status.
	statusText = regexp.MustCompile(`\b([1-5][0-9][0-9]) [A-Z][A-Za-z -]+`)
	// ntfy's own error codes: 40101 is HTTP 401.
	ntfyCode = regexp.MustCompile(`\(([1-5][0-9][0-9])[0-9][0-9]\)`)
	httpWord = regexp.MustCompile(`(?i)\b(?:HTTP|status(?: code)?)[: ]+([1-5][0-9][0-9])\b`)
)

// httpStatus finds the HTTP status a service answered with in err, 0 if none.
func httpStatus(err error) int {
	var je jsonclient.Error
	if errors.As(err, &je) && je.StatusCode != 0 {
		return je.StatusCode
	}
	s := err.Error()
	for _, m := range statusText.FindAllStringSubmatch(s, -1) {
		code, _ := strconv.Atoi(m[1])
		if t := http.StatusText(code); t != "" && strings.Contains(s, m[1]+" "+t) {
			return code
		}
	}
	for _, re := range []*regexp.Regexp{ntfyCode, httpWord} {
		if m := re.FindStringSubmatch(s); m != nil {
			code, _ := strconv.Atoi(m[1])
			return code
		}
	}
	return 0
}
