package poll

import (
	"errors"
	"strings"
	"unicode"
	"unicode/utf8"

	"notifio/notify"

	"notifio/internal/model"
)

// userErr is a UserError with its cause.
func userErr(cause error, msg, hint string) *model.UserError {
	return &model.UserError{Msg: msg, Hint: hint, Err: cause}
}

// badSelectors is the user's CSS selectors refused (extract says which and why).
func badSelectors(err error) *model.UserError {
	return userErr(err, sentence(err.Error()), "Correct the selector, or leave the selectors out to let Notifio read the page by itself.")
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

// UserWords is what the user reads of err: the words of the *UserError in its
// chain, or of a notify.FieldError (the email settings' own typed error). ok
// is false for an error nobody worded for the user (a failing disk, a bug):
// the caller logs it whole and says something plain.
func UserWords(err error) (words string, ok bool) {
	var ue *model.UserError
	if errors.As(err, &ue) {
		return ue.Words(), true
	}
	if ps := fieldProblems(err); len(ps) > 0 {
		return strings.Join(ps, "\n"), true
	}
	return "", false
}

// fieldProblems are the problems of every notify.FieldError in err's tree:
// the email settings report all their problems at once, joined.
func fieldProblems(err error) []string {
	switch u := err.(type) {
	case *notify.FieldError:
		return []string{u.Problem}
	case interface{ Unwrap() []error }:
		var out []string
		for _, e := range u.Unwrap() {
			out = append(out, fieldProblems(e)...)
		}
		return out
	case interface{ Unwrap() error }:
		return fieldProblems(u.Unwrap())
	}
	return nil
}
