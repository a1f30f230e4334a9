package words

import (
	"testing"

	"notifio/internal/model"
)

func TestMethodWords(t *testing.T) {
	for method, want := range map[string]string{
		"profile:kleinanzeigen.de": "Read by what Notifio knows of kleinanzeigen.de.",
		model.MethodSelectors:      "Read by your selectors (Advanced).",
		model.MethodCards:          "Read by the page's result list, found automatically.",
		model.MethodLearnt:         "Read by the result list this search learnt on its earlier checks.",
		model.MethodJSONLD:         "Read by the listings the page carries as data, found automatically.",
		"":                         "Read by nothing Notifio recognised.",
	} {
		if got := MethodWords(method); got != want {
			t.Errorf("MethodWords(%q) = %q, want %q", method, got, want)
		}
	}
}
