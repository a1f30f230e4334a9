package poll

import (
	"os"
	"testing"

	"github.com/zalando/go-keyring"
)

// TestMain keeps the tests off the desktop's real keyring: the cookies users
// paste are kept there (cookies.go).
func TestMain(m *testing.M) {
	keyring.MockInit()
	os.Exit(m.Run())
}
