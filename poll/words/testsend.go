package words

import (
	"errors"

	"notifio/internal/model"
)

// A test email or test push that did not get through, as Settings says it:
// what happened, what to do, and the server's own words, apart, so a view
// lays them out without cutting a sentence.

// SendFailure is a failed test send in words.
type SendFailure struct {
	Message string // what happened: "The test email was not sent: 535 …"
	Hint    string // what to do; "" when nothing is known
	Details string // the server's or the network's own words when Message says them plainly; else ""
}

// Words is the failure as one text: the message, then "What to do: …" and
// "(Details: …)", each on its own line when there is one.
func (f SendFailure) Words() string {
	text := f.Message
	if f.Hint != "" {
		text += "\nWhat to do: " + f.Hint
	}
	if f.Details != "" {
		text += "\n(Details: " + f.Details + ")"
	}
	return text
}

// EmailTestFailed is a failed test email in words: what the server said (a
// server that could not be reached in plain words first), then what to do.
func EmailTestFailed(err error) SendFailure {
	return sendFailed("The test email was not sent", err)
}

// PushTestFailed is a failed test push to the channel named name, its hint
// in the window's words (ChannelHint).
func PushTestFailed(name string, err error) SendFailure {
	f := sendFailed("The test push to "+name+" was not delivered", err)
	f.Hint = ChannelHint(f.Hint)
	return f
}

// sendFailed words err after what, "The test email was not sent".
func sendFailed(what string, err error) SendFailure {
	said, hint := saidAndHint(err)
	if plain := NetworkWords(said); plain != "" {
		return SendFailure{Message: what + ". " + plain, Hint: hint, Details: said}
	}
	return SendFailure{Message: what + ": " + said, Hint: hint}
}

// saidAndHint is what the server said and what to do, from a delivery's
// failure (model.DeliveryWords: notify's DeliveryError, and the same come
// back over the watcher's socket), else the error's text and "open the
// settings" when email is not set up.
func saidAndHint(err error) (said, hint string) {
	var de model.DeliveryWords
	if errors.As(err, &de) {
		s, h := de.SaidAndHint()
		if s == "" {
			s = err.Error()
		}
		return s, h
	}
	return err.Error(), model.SetUpHint(err)
}
