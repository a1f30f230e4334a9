package words

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"notifio/internal/model"
)

// delivered is a delivery's failure as model.DeliveryWords gives it (notify's
// DeliveryError, which this package may not import, is one).
type delivered struct{ said, hint string }

func (d delivered) Error() string                    { return d.said + ". " + d.hint }
func (d delivered) SaidAndHint() (said, hint string) { return d.said, d.hint }

// Issue 37, item 8: a mail server that cannot be found is said in words
// first; Go's "dial tcp: lookup …" comes last, as a detail.
func TestTestEmailSaysAnUnknownServerInWords(t *testing.T) {
	got := EmailTestFailed(errors.New("dial tcp: lookup smtp.gmx.nett: no such host")).Words()
	if !strings.HasPrefix(got, "The test email was not sent. Notifio could not find a server named “smtp.gmx.nett”.") {
		t.Errorf("the test email says %q", got)
	}
	if i := strings.Index(got, "dial tcp"); i >= 0 && !strings.Contains(got[:i], "(Details: ") {
		t.Errorf("the raw error comes before the words: %q", got)
	}
}

func TestSendFailureKeepsMessageHintAndDetailsApart(t *testing.T) {
	for _, tc := range []struct {
		name string
		got  SendFailure
		want SendFailure
	}{
		{"the server's words and its hint",
			EmailTestFailed(fmt.Errorf("notify: send: %w", delivered{"535 5.7.8 Username and Password not accepted", "Use an app password"})),
			SendFailure{Message: "The test email was not sent: 535 5.7.8 Username and Password not accepted", Hint: "Use an app password"}},
		{"not set up",
			EmailTestFailed(fmt.Errorf("notify: %w", model.ErrNotConfigured)),
			SendFailure{Message: "The test email was not sent: notify: " + model.ErrNotConfigured.Error(), Hint: model.HintNotSetUp}},
		{"a push whose server is not found: a push, not an email",
			PushTestFailed("ntfy", delivered{"dial tcp: lookup ntfy.shh: no such host", "Check the server"}),
			SendFailure{Message: "The test push to ntfy was not delivered. Notifio could not find a server named “ntfy.shh”.",
				Hint: "Check the server", Details: "dial tcp: lookup ntfy.shh: no such host"}},
		{"a push's hint in the window's words",
			PushTestFailed("ntfy", delivered{"401 Unauthorized", `Check the token, then run "notifio push remove NAME" and "notifio push add" with the right URL`}),
			SendFailure{Message: "The test push to ntfy was not delivered: 401 Unauthorized",
				Hint: "Check the token, then remove this channel and add it again with the right details"}},
	} {
		if tc.got != tc.want {
			t.Errorf("%s:\n got %#v\nwant %#v", tc.name, tc.got, tc.want)
		}
	}
}

func TestSendFailureWordsALineEach(t *testing.T) {
	f := SendFailure{Message: "The test email was not sent. The server did not answer in time.", Hint: "Check the port", Details: "i/o timeout"}
	want := "The test email was not sent. The server did not answer in time.\nWhat to do: Check the port\n(Details: i/o timeout)"
	if got := f.Words(); got != want {
		t.Errorf("Words() = %q, want %q", got, want)
	}
	if got := (SendFailure{Message: "The test email was not sent: 550 no"}).Words(); got != "The test email was not sent: 550 no" {
		t.Errorf("without hint or details: %q", got)
	}
}
