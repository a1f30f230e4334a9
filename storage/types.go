package storage

import (
	"strconv"
	"time"

	"notifio/internal/model"
)

// CommitResult is what one CommitPoll or SavePoll recorded.
type CommitResult struct {
	// New are the listings not seen before, in page order, with FirstSeen set. On
	// a baseline poll it is empty: nothing is announced.
	New []model.Listing
	// Baseline is true when this was the search's first successful poll: its
	// listings were recorded silently; BaselineCount says how many.
	Baseline      bool
	BaselineCount int
	// OutboxID is the first digest queued for New (0 when nothing was queued):
	// email's when email gets it, else the first push channel's.
	OutboxID uint64
	// OutboxIDs are all the items queued for New and Changed, one per channel each.
	OutboxIDs []uint64
	// Changed are the listings seen before announced as a price change.
	Changed []model.Listing
	// Held is how many new listings the filters held back (recorded, not
	// announced); Merged how many were already announced by another search or
	// as the same flat on another site.
	Held, Merged int
	// SearchGone is true when the search was deleted during its poll: none of
	// its listings were recorded.
	SearchGone bool
}

// Recovery tells what Open did about a damaged or missing database, so the UI or
// CLI can tell the user (String is a ready-made sentence).
type Recovery struct {
	Reason      string    // what was wrong with the database
	DamagedPath string    // where the damaged file was moved ("" if it was missing)
	BackupPath  string    // the backup that was restored
	BackupTime  time.Time // when that backup was taken
	Rejected    []string  // newer backups that failed the check too
}

func (r *Recovery) String() string {
	if r == nil {
		return ""
	}
	s := "The database was damaged (" + r.Reason + ")"
	if r.DamagedPath == "" {
		s = "The database was missing"
	} else {
		s += "; it was moved to " + r.DamagedPath
	}
	s += ". Restored the backup of " + r.BackupTime.Local().Format("2 Jan 2006 15:04") +
		" (" + r.BackupPath + "): changes since then are lost, and listings seen since then may be announced again."
	if n := len(r.Rejected); n > 0 {
		s += " " + strconv.Itoa(n) + " newer backup(s) were damaged too."
	}
	return s
}
