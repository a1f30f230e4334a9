// Package ui is a stub for the import rules' own test.
package ui

import (
	_ "notifio/poll"
)
