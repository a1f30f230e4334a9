// Package hostbackoff is a stub for the import rules' own test.
package hostbackoff

import (
	_ "notifio/internal/model"
)
