// Package api is a stub for the import rules' own test.
package api

import (
	_ "notifio/poll"
)
