package words

import (
	"strconv"

	"notifio/internal/model"
)

// RecoveryWords says what opening the database restored, in one sentence; ""
// for nil (nothing had to be restored).
func RecoveryWords(r *model.Recovery) string {
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
