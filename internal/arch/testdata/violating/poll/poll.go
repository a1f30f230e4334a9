// Package poll is a stub for the import rules' own test.
package poll

import (
	_ "notifio/notify"
	_ "notifio/storage"
)
