// Package storage is a stub for the import rules' own test.
package storage

import (
	_ "notifio/hostbackoff"
)
