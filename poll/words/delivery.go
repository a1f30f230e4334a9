package words

import (
	"regexp"
	"strings"
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
