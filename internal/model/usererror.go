package model

import (
	"strings"
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

// NewUserError is a UserError with its cause.
func NewUserError(cause error, msg, hint string) *UserError {
	return &UserError{Msg: msg, Hint: hint, Err: cause}
}
