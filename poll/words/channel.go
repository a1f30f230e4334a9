package words

import (
	"strings"
	"time"

	"notifio/internal/model"
)

// The words of a push channel's row in Settings: what it gets and how its
// pushes are doing.

// ChannelDetail is "Gets new listings, price drops and health alerts of
// every search · quiet hours 23:00–07:00". names are the names of the
// channel's searches (c.Searches), "" for one that was removed.
func ChannelDetail(c model.ChannelState, names []string) string {
	what := EventsWords(c.Events)
	gets := "Gets " + what + " of every search"
	if len(c.Searches) > 0 {
		quoted := make([]string, len(names))
		for i, n := range names {
			quoted[i] = "“" + n + "”"
			if n == "" {
				quoted[i] = "a search that was removed"
			}
		}
		gets = "Gets " + what + " of " + strings.Join(quoted, ", ")
	}
	if c.Quiet != "" {
		gets += " · quiet hours " + strings.Replace(c.Quiet, "-", "–", 1) + " (pushes wait and arrive as one summary)"
	}
	return gets
}

// ChannelCondition is how a channel's pushes are doing, as its row shows it.
type ChannelCondition int

// The conditions of a channel, in the order they are told: the first that
// holds is the one.
const (
	ChannelUntested  ChannelCondition = iota // nothing sent yet
	ChannelFailing                           // pushes need attention
	ChannelRetrying                          // pushes are not delivered yet; Notifio keeps trying
	ChannelQuiet                             // new listings wait for quiet hours to end
	ChannelDelivered                         // the last push went through
	ChannelTested                            // a test push went through
)

// ChannelConditionOf is the condition of channel c; tested is when a test
// push went through, zero if none did.
func ChannelConditionOf(c model.ChannelState, tested time.Time) ChannelCondition {
	switch {
	case c.NeedsAttention > 0:
		return ChannelFailing
	case c.Pending > 0 && c.LastError != "":
		return ChannelRetrying
	case !c.HeldUntil.IsZero():
		return ChannelQuiet
	case !c.LastSent.IsZero():
		return ChannelDelivered
	case !tested.IsZero():
		return ChannelTested
	}
	return ChannelUntested
}

// ChannelStateWords says how a channel's pushes are doing
// (ChannelConditionOf). tested is when a test push went through, zero if
// none did.
func ChannelStateWords(c model.ChannelState, tested, now time.Time) string {
	switch ChannelConditionOf(c, tested) {
	case ChannelFailing:
		text := "Needs attention: " + Plural(c.NeedsAttention, "push was", "pushes were") + " not delivered: " + c.LastError
		if h := ChannelHint(c.Hint); h != "" {
			text += " — " + h
		}
		return text
	case ChannelRetrying:
		return Plural(c.Pending, "push is", "pushes are") + " not delivered yet; Notifio keeps trying: " + c.LastError
	case ChannelQuiet:
		return "Quiet hours: new listings wait until " + ClockTime(c.HeldUntil) + " and then arrive as one push."
	case ChannelDelivered:
		return "Last push delivered " + DayAndTime(c.LastSent, now) + "."
	case ChannelTested:
		return "Test push delivered " + DayAndTime(tested, now) + ". New listings will arrive the same way."
	}
	return "No push sent yet. Send a test to check that it reaches your phone."
}

// ChannelHint is a push failure's hint in the window's words: the hints are
// written for the command line.
func ChannelHint(hint string) string {
	return strings.NewReplacer(
		`then run "notifio push remove NAME" and "notifio push add" with the right URL`, "then remove this channel and add it again with the right details",
		`Run "notifio push remove NAME" and add the channel again with a complete URL`, "Remove this channel and add it again with complete details",
		`Add the channel again with "notifio push add"`, "Remove this channel and add it again",
	).Replace(hint)
}

// ServiceWords names a service URL's scheme for the user.
func ServiceWords(scheme string) string {
	switch scheme {
	case "ntfy":
		return "ntfy"
	case "telegram":
		return "Telegram"
	case "pushover":
		return "Pushover"
	case "gotify":
		return "Gotify"
	case "discord":
		return "Discord"
	case "slack":
		return "Slack"
	case "matrix":
		return "Matrix"
	case "generic":
		return "a web address (webhook)"
	}
	return scheme
}

// EventsWords is what a channel gets: "new listings, price drops and health
// alerts" (no choice: every event).
func EventsWords(events []model.Event) string {
	if len(events) == 0 {
		events = model.Events
	}
	var ws []string
	for _, e := range events {
		switch e {
		case model.EventNewListings:
			ws = append(ws, "new listings")
		case model.EventPriceDrop:
			ws = append(ws, "price drops")
		case model.EventHealth:
			ws = append(ws, "health alerts")
		}
	}
	if len(ws) > 1 {
		return strings.Join(ws[:len(ws)-1], ", ") + " and " + ws[len(ws)-1]
	}
	return strings.Join(ws, "")
}
