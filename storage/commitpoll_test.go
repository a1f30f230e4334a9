package storage

import (
	"time"

	"notifio/internal/model"
	"notifio/poll/decide"
)

// PollRules are the poll's rules the storage tests give decide.Page.
type PollRules struct {
	SameFlat decide.SameFlat
}

// decideWith is poll's decision over a page with these rules, at now.
func decideWith(r PollRules, now time.Time) Decide {
	return func(tx *PollTx, page []model.Listing) (model.CommitResult, error) {
		return decide.Page(tx, page, r.SameFlat, now)
	}
}

// CommitPoll is SavePoll of one successful poll's page as the watcher decides
// it (poll/decide), without a same-flat rule: the storage tests' poll.
func (d *DB) CommitPoll(searchID string, found []model.Listing, now time.Time) (model.CommitResult, error) {
	return d.SavePoll(PollWrite{SearchID: searchID, Page: &PollPage{Found: found, Decide: decideWith(PollRules{}, now)}})
}
