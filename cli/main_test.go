package cli

import (
	"os"
	"testing"

	"github.com/zalando/go-keyring"
)

// TestMain keeps every test off the desktop's real keyring: the SMTP
// password, push URLs and the cookies pasted for sites are kept there.
func TestMain(m *testing.M) {
	keyring.MockInit()
	os.Exit(m.Run())
}
