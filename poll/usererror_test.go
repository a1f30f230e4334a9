package poll

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"notifio/internal/model"
	"notifio/poll/words"
)

// TestUserWordsSurviveWrapping: an operation's worded error keeps its message
// and hint however often it is wrapped on its way to the window or the CLI,
// and says nothing of the packages it passed. Cutting "poll: " off the front,
// as both did, left "poll: " inside when a caller wrapped it again.
func TestUserWordsSurviveWrapping(t *testing.T) {
	_, bad := words.ParseSearchURL("kleinanzeigen.de/s-wohnung-mieten")
	twice := fmt.Errorf("cli: add: %w", fmt.Errorf("poll: add search: %w", bad))
	w, ok := words.UserWords(twice)
	if !ok || w != "The address must start with https:// (or http://). Copy the whole address from your browser's address bar." {
		t.Errorf("the user reads %q (worded %v)", w, ok)
	}
	if !errors.Is(twice, model.ErrBadURL) {
		t.Error("the cause is lost: errors.Is(err, ErrBadURL) is false")
	}
	if !strings.Contains(twice.Error(), "not a usable search URL") {
		t.Errorf("the log loses the cause: %v", twice)
	}
	joined := fmt.Errorf("poll: save email settings: %w", errors.Join(
		&model.FieldError{Field: "host", Problem: "Enter the SMTP server."},
		&model.FieldError{Field: "to", Problem: "Enter at least one recipient address (To)."}))
	if w, ok := words.UserWords(joined); !ok || w != "Enter the SMTP server.\nEnter at least one recipient address (To)." {
		t.Errorf("the settings' problems read %q (worded %v)", w, ok)
	}
	if w, ok := words.UserWords(fmt.Errorf("poll: save search: %w", errors.New("storage: tx closed"))); ok {
		t.Errorf("an error nobody worded reads %q as if it were for the user", w)
	}
}
