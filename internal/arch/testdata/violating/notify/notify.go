// Package notify is a stub for the import rules' own test.
package notify

import (
	_ "notifio/internal/model"
)
