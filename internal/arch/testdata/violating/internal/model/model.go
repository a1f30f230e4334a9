// Package model is a stub for the import rules' own test.
package model

import (
	_ "notifio/internal/datadir"
)
