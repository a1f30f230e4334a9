package words

import (
	"strings"

	"notifio/internal/model"
)

// How a test of a search read the page's listings (model.PageResult.Method),
// as the search's dialog says it under the test's result.

// MethodWords is the sentence "Read by what Notifio knows of
// immobilienscout24.de." for a page read by method.
func MethodWords(method string) string {
	return "Read by " + methodWords(method) + "."
}

// methodWords names a method: a site's profile, the user's selectors, the
// page's own result list or data.
func methodWords(method string) string {
	switch {
	case strings.HasPrefix(method, "profile:"):
		return "what Notifio knows of " + strings.TrimPrefix(method, "profile:")
	case method == model.MethodSelectors:
		return "your selectors (Advanced)"
	case method == model.MethodCards:
		return "the page's result list, found automatically"
	case method == model.MethodLearnt:
		return "the result list this search learnt on its earlier checks"
	case method == model.MethodJSONLD, method == model.MethodNextData, method == model.MethodAppState:
		return "the listings the page carries as data, found automatically"
	}
	return "nothing Notifio recognised"
}
