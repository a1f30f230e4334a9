package notify

import (
	"errors"
	"fmt"
	"strings"
	"time"

	mail "github.com/wneessen/go-mail"

	"notifio/internal/model"
)

// Health alerts arrive with their words composed by the watcher (one wording
// for window, email and push); here they only become an email or a push.

// maxAlertLine bounds one paragraph of an alert.
const maxAlertLine = 600

// composeAlert is the email of a health alert item: its subject, and its
// paragraphs as plain text (an alert is read, not scanned).
func composeAlert(item model.OutboxItem, cfg model.Config) (*mail.Msg, error) {
	a := item.Alert
	subject := model.SanitizeLine(a.Subject, 200)
	if subject == "" {
		return nil, errors.New("the alert has no subject")
	}
	m, err := newMsg(cfg)
	if err != nil {
		return nil, err
	}
	m.Subject(subject)
	m.SetMessageIDWithValue(messageID(item))
	date := item.Created
	if date.IsZero() {
		date = time.Now()
	}
	m.SetDateWithValue(date)
	var b strings.Builder
	for _, l := range a.Lines {
		b.WriteString(model.SanitizeLine(l, maxAlertLine) + "\r\n\r\n")
	}
	if u := httpURL(a.Link); u != nil {
		b.WriteString("The search: " + model.Truncate(u.String(), maxURL) + "\r\n\r\n")
	}
	b.WriteString("-- \r\nSent by Notifio, so that its silence can be trusted.\r\n")
	m.SetBodyString(mail.TypeTextPlain, b.String())
	return m, nil
}

// composeAlertPush is one push for a channel's due alert items.
func composeAlertPush(items []model.OutboxItem) (PushMessage, error) {
	var m PushMessage
	var b strings.Builder
	for i, it := range items {
		if it.Alert == nil {
			return PushMessage{}, fmt.Errorf("outbox item %d is not an alert", it.ID)
		}
		if i == 0 {
			m.Title = model.SanitizeLine(it.Alert.Subject, 120)
			if u := httpURL(it.Alert.Link); u != nil {
				m.Link = u.String()
			}
		} else {
			b.WriteString("\n" + model.SanitizeLine(it.Alert.Subject, 120) + "\n")
		}
		for _, l := range it.Alert.Lines {
			b.WriteString(model.SanitizeLine(l, 300) + "\n")
		}
	}
	if len(items) > 1 {
		m.Title = fmt.Sprintf("%d notices from Notifio: %s", len(items), m.Title)
		m.Link = ""
	}
	m.Body = strings.TrimRight(b.String(), "\n")
	return m, nil
}
