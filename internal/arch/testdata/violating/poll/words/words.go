// Package words is a stub for the import rules' own test.
package words

import (
	_ "notifio/internal/model"
)
