// Package filter is a stub for the import rules' own test.
package filter

import (
	_ "notifio/internal/model"
)
