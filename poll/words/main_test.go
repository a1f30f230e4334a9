package words

import (
	"os"
	"testing"
	"time"
)

// TestMain makes UTC the local zone, as the window's tests do, so the clock
// words of the rows' tables read the same on every machine.
func TestMain(m *testing.M) {
	time.Local = time.UTC
	os.Exit(m.Run())
}
