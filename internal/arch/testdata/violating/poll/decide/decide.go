// Package decide is a stub for the import rules' own test.
package decide

import (
	_ "notifio/storage"
)
