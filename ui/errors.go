package ui

import (
	"log/slog"

	"notifio/internal/model"
	"notifio/poll/words"
)

// backendWords is an error from the watcher as the user reads it: the words
// of its *model.UserError, however wrapped (words.UserWords). Anything else
// is logged whole and said plainly (words.Unexpected).
func backendWords(err error) string {
	if w, ok := words.UserWords(err); ok {
		return w
	}
	slog.Error("unexpected error", "err", err)
	return words.Unexpected
}

// userError is a message a form of the window wrote for the user, shown as
// it is.
func userError(msg string) error { return &model.UserError{Msg: msg} }
