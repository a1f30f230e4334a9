package words

import (
	"fmt"
	"strings"

	"notifio/internal/model"
)

// What the filters said of a page's listings in a test of a search (a dry
// run), as the search's dialog shows it.

// VerdictLine is a tested listing's line with what the filters say of it.
func VerdictLine(line string, res model.DryRun, i int) string {
	if i >= len(res.Judged) {
		return line
	}
	r := res.Judged[i]
	switch {
	case r.Held != "":
		return "✗ Held back: " + r.Held + " — " + line
	case len(r.Marks) > 0:
		return "✓ " + line + " (" + strings.Join(r.Marks, ", ") + ")"
	}
	return "✓ " + line
}

// VerdictSummary counts what the filters let through, "" without filters.
func VerdictSummary(res model.DryRun) string {
	held := 0
	for _, r := range res.Judged {
		if !r.Pass() {
			held++
		}
	}
	if held == 0 {
		return ""
	}
	return fmt.Sprintf("Your filters let %d of these through and hold back %d (✗ says why).", len(res.Judged)-held, held)
}
