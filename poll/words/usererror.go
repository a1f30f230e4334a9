package words

import (
	"errors"
	"strings"

	"notifio/internal/model"
)

// Unexpected is what the window says of an error nobody worded for the user
// (a failing disk, a bug), whose whole text goes to the log.
const Unexpected = "Something unexpected went wrong. Notifio's log has the details."

// UserWords is what the user reads of err: the words of the *UserError in its
// chain, or of a model.FieldError (the email settings' own typed error). ok
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

// fieldProblems are the problems of every model.FieldError in err's tree:
// the email settings report all their problems at once, joined.
func fieldProblems(err error) []string {
	switch u := err.(type) {
	case *model.FieldError:
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
