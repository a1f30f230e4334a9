package poll

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"notifio/internal/model"
)

// badSelectors is the user's CSS selectors refused (extract says which and why).
func badSelectors(err error) *model.UserError {
	return model.NewUserError(err, sentence(err.Error()), "Correct the selector, or leave the selectors out to let Notifio read the page by itself.")
}

// sentence makes a clause in another package's words into a sentence: a
// capital first letter and a full stop.
func sentence(s string) string {
	if r, n := utf8.DecodeRuneInString(s); n > 0 {
		s = string(unicode.ToUpper(r)) + s[n:]
	}
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}
