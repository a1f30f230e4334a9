package words

import (
	"fmt"
	"strings"

	"notifio/internal/model"
)

// What a test of a search (a dry run) came to, as the search's dialog says
// it above the listings it found (their lines: PageListingLine, VerdictLine).

// ScriptsOnly reports whether the test's page showed its listings only to
// the browser that tried it: read plainly it did not look like results.
func ScriptsOnly(res model.DryRun) bool {
	return !res.Browser && res.BrowserTry != nil && res.BrowserTry.Outcome == model.OutcomeOK
}

// DryRunMessage is what the test came to: the watcher's message, said once
// (a message followed by the same in its detail's words is said by the
// outcome alone), and a page whose listings only the browser found in one
// wording, not "did not look like results" beside what the browser found.
func DryRunMessage(res model.DryRun) string {
	if ScriptsOnly(res) {
		return "This page shows its listings only with JavaScript."
	}
	msg := res.Message
	if head := msg[:min(len(msg), 30)]; msg == "" || strings.Count(msg, head) > 1 {
		msg = OutcomeMessage(res.Site, res.Outcome, len(res.Listings), res.NoResults)
	}
	return msg
}

// DryRunSummary is the line under the message, its parts joined by " · ":
// what saving does with the listings found (the message counts them), or
// the status and evidence of a page that was not results; how the page was
// read, its note, and what the filters let through.
func DryRunSummary(res model.DryRun) string {
	var sum []string
	ok, scripts := res.Outcome == model.OutcomeOK, ScriptsOnly(res)
	if ok {
		sum = append(sum, "Nothing is saved yet. After you save, the first check quietly records these as the baseline; "+
			"you hear about every listing that appears after that.")
	}
	if !ok && res.Status != 0 && !scripts {
		sum = append(sum, fmt.Sprintf("status %d", res.Status))
	}
	if !ok && res.Signal != "" && !scripts {
		sum = append(sum, "decided by: "+res.Signal)
	}
	if ok && res.Method != "" {
		sum = append(sum, MethodWords(res.Method))
	}
	if res.Note != "" {
		sum = append(sum, res.Note)
	}
	if v := VerdictSummary(res); v != "" {
		sum = append(sum, v)
	}
	return strings.Join(sum, " · ")
}
