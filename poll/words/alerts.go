package words

import (
	"fmt"
	"strings"

	"notifio/internal/model"
)

// AlertSettingsWords says the alert settings in a few lines, for `notifio
// alerts show` (the window shows them as a form).
func AlertSettingsWords(a model.AlertSettings) string {
	if a.Off {
		return "Health alerts are off: Notifio shows troubles in the window only.\nTurn them on: notifio alerts set --on"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Health alerts are on.\n")
	fmt.Fprintf(&b, "Blocked, failing or no results: told after %s of trying.\n", DurationWords(a.AfterOrDefault()))
	fmt.Fprintf(&b, "Login expired, messages not going out: told at once.\n")
	if r := a.RemindEvery(); r > 0 {
		fmt.Fprintf(&b, "Reminder while it lasts: every %s.\n", DurationWords(r))
	} else {
		fmt.Fprintf(&b, "Reminders: off.\n")
	}
	if a.Summary {
		fmt.Fprintf(&b, "Daily summary: at %s.", a.SummaryClock())
	} else {
		fmt.Fprintf(&b, "Daily summary: off (turn it on: notifio alerts set --summary on).")
	}
	return b.String()
}
