package words

import (
	"fmt"
	"regexp"
	"strings"

	"notifio/internal/model"
)

// The words of a delivery problem: what a relay's error text means.

// lookupHost finds the name in Go's "lookup NAME: no such host".
var lookupHost = regexp.MustCompile(`lookup ([^\s:]+)`)

// NetworkWords says in plain words why a mail or push server could not be
// reached, from the error text the relay keeps ("dial tcp: lookup
// smtp.gmx.nett: no such host"); "" when the text is not about reaching it
// (then it is the server's own words, worth showing as they are).
func NetworkWords(raw string) string {
	low := strings.ToLower(raw)
	switch {
	case strings.Contains(low, "no such host"):
		if m := lookupHost.FindStringSubmatch(raw); m != nil {
			return "Notifio could not find a server named “" + m[1] + "”."
		}
		return "Notifio could not find the server by its name."
	case strings.Contains(low, "connection refused"):
		return "The server did not accept a connection on that port."
	case strings.Contains(low, "i/o timeout"), strings.Contains(low, "deadline exceeded"):
		return "The server did not answer in time."
	case strings.Contains(low, "network is unreachable"), strings.Contains(low, "no route to host"):
		return "Notifio could not reach the network: it seems to be offline."
	}
	return ""
}

// MailProblem is a relay's error text for the user: plain words for a server
// that could not be reached, else "The mail server said: …".
func MailProblem(raw string) string {
	if w := NetworkWords(raw); w != "" {
		return w
	}
	return "The mail server said: " + raw
}

// OutboxWords is the email problems banner of the window: how many emails
// could not be sent or are still tried, why, and what to do; "" when the
// emails are going out.
func OutboxWords(o model.OutboxSnapshot) string {
	var text string
	switch {
	case o.NeedsAttention > 0:
		text = fmt.Sprintf("%s could not be sent.", Plural(o.NeedsAttention, "email", "emails"))
		if o.LastError != "" {
			text += " " + MailProblem(o.LastError)
		}
	case o.Pending > 0 && o.LastError != "":
		// Still retrying, and the error may not come from the server at all
		// (it may not be reachable).
		last := o.LastError
		if w := NetworkWords(last); w != "" {
			last = w
		}
		text = fmt.Sprintf("%s waiting to be sent; Notifio keeps trying. Last attempt: %s",
			Plural(o.Pending, "email is", "emails are"), last)
	}
	if text != "" && o.Hint != "" {
		text += "\n" + o.Hint
	}
	return text
}
