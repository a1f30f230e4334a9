// Package polltest records a poll's page the way the watcher does, for the
// tests of the packages that read what a poll stored (delivery, the watcher).
package polltest

import (
	"time"

	"notifio/internal/model"
	"notifio/poll/decide"
	"notifio/storage"
)

// Commit saves one successful poll of searchID that found found, decided by
// poll/decide without a same-flat rule, in one transaction.
func Commit(db *storage.DB, searchID string, found []model.Listing, now time.Time) (model.CommitResult, error) {
	return db.SavePoll(storage.PollWrite{SearchID: searchID, Page: &storage.PollPage{Found: found,
		Decide: func(tx *storage.PollTx, page []model.Listing) (model.CommitResult, error) {
			return decide.Page(tx, page, nil, now)
		}}})
}
