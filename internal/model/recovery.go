package model

import "time"

// Recovery is what opening the database did about a damaged or missing file:
// the store fills it, words.RecoveryWords says it to the user.
type Recovery struct {
	Reason      string    // what was wrong with the database
	DamagedPath string    // where the damaged file was moved ("" if it was missing)
	BackupPath  string    // the backup that was restored
	BackupTime  time.Time // when that backup was taken
	Rejected    []string  // newer backups that failed the check too
}
