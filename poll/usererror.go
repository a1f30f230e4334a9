package poll

import (
	"errors"
	"strings"
	"unicode"
	"unicode/utf8"

	"notifio/notify"
)

// UserError is an error the user caused or can act on (an address that is
// not a web page, a name on two lines, a page another search watches), in
// plain words for the window and the command line alike. The operations
// return it, however often it is wrapped on the way; readers take its words
// with UserWords instead of cutting package prefixes off Error.
type UserError struct {
	Msg  string // what is wrong, as a sentence
	Hint string // what the user can do about it, "" when Msg says it
	Err  error  // the cause, for errors.Is and the log (ErrBadURL, ErrDuplicate, …); never shown
}

// Error is the words and, for the log, the cause.
func (e *UserError) Error() string {
	if e.Err == nil {
		return e.Words()
	}
	return e.Words() + " (" + e.Err.Error() + ")"
}

// Unwrap returns the cause.
func (e *UserError) Unwrap() error { return e.Err }

// Words is the message and the hint, as the user reads them.
func (e *UserError) Words() string {
	return strings.TrimSpace(e.Msg + " " + e.Hint)
}

// userErr is a UserError with its cause.
func userErr(cause error, msg, hint string) *UserError {
	return &UserError{Msg: msg, Hint: hint, Err: cause}
}

// badSelectors is the user's CSS selectors refused (extract says which and why).
func badSelectors(err error) *UserError {
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
	var ue *UserError
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
