package storage

import (
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"notifio/internal/model"
)

// PollWrite is everything one poll records. SavePoll writes it in one
// transaction, so a crash never keeps part of a poll: the listings without the
// site's backoff wait, or a last answer the listings contradict. A nil field
// leaves what is stored.
type PollWrite struct {
	// SearchID is the search polled.
	SearchID string
	// Page is the listings of a poll that read a results page; nil when it has
	// none to record (a refusal, an error, a page unchanged since the last one).
	Page *PollPage
	// Backoff returns the per-site backoff snapshot (opaque bytes). It is called
	// inside the transaction: write transactions run one at a time, so the
	// snapshot stored last is also the newest one taken.
	Backoff func() ([]byte, error)
	// Site and SiteInfo are the site's information (JSON), as SaveSiteInfo was.
	Site     string
	SiteInfo any
	// SettingKey and Setting are one setting (JSON), e.g. the search's last answer.
	SettingKey string
	Setting    any
}

// PollPage is the listings a poll found and the poll's decision over them.
type PollPage struct {
	// Found is in page order (top first); empty is a page without results.
	Found []model.Listing
	// Decide makes every choice about the page (poll/decide.Page): SavePoll
	// runs it inside its transaction over Found, without the listings storage
	// cannot keep.
	Decide Decide
}

// Decide decides a page inside a poll's transaction, reading and writing
// through tx only. An error aborts the transaction.
type Decide func(tx *PollTx, page []model.Listing) (model.CommitResult, error)

// SavePoll records one poll in one transaction (see PollWrite): the page as
// its Decide function writes it, the backoff snapshot, the site's information and the
// setting. Either all of it is stored or, on an error, none of it.
//
// A page that would change nothing but LastPolled (baselined, every listing
// already seen at its price, the same count) is checked in a read-only
// transaction and not written — a watcher polling every minute would
// otherwise fsync the file on every poll (docs/PERFORMANCE.md);
// when nothing else is to be written either, no write transaction runs at all.
// A search deleted meanwhile records no page: SavePoll returns ErrNotFound when
// that was all, else it writes the rest (the site's) and says so in
// CommitResult.SearchGone.
func (d *DB) SavePoll(w PollWrite) (model.CommitResult, error) {
	if !w.hasState() && (w.Page == nil || d.pollChangesNothing(w.SearchID, w.Page.Found)) {
		return model.CommitResult{}, nil
	}
	var res model.CommitResult
	err := d.update("saving the poll of search "+w.SearchID, func(tx *bolt.Tx) (err error) {
		if res, err = d.savePage(tx, w); err != nil {
			return err
		}
		return w.saveState(tx)
	})
	if err != nil {
		return model.CommitResult{}, err
	}
	return res, nil
}

// savePage is the listings part of SavePoll's transaction.
func (d *DB) savePage(tx *bolt.Tx, w PollWrite) (model.CommitResult, error) {
	if w.Page == nil {
		return model.CommitResult{}, nil
	}
	if _, err := getSearch(tx.Bucket(bucketSearches), w.SearchID); errors.Is(err, model.ErrNotFound) && w.hasState() {
		return model.CommitResult{SearchGone: true}, nil
	}
	if changesNothing(tx, w.SearchID, w.Page.Found) {
		return model.CommitResult{}, nil
	}
	if w.Page.Decide == nil {
		return model.CommitResult{}, errors.New("the page has no decide function")
	}
	return d.commitPoll(tx, w.SearchID, w.Page.Found, w.Page.Decide)
}

// hasState reports whether w holds more than a page.
func (w PollWrite) hasState() bool {
	return w.Backoff != nil || w.SiteInfo != nil || w.Setting != nil
}

// saveState is the rest of SavePoll's transaction: backoff, site, setting.
func (w PollWrite) saveState(tx *bolt.Tx) error {
	if w.Backoff != nil {
		raw, err := w.Backoff()
		if err != nil {
			return fmt.Errorf("the site backoff state: %w", err)
		}
		if err := tx.Bucket(bucketBackoff).Put(keyBackoffSnapshot, raw); err != nil {
			return err
		}
	}
	if w.SiteInfo != nil {
		if err := putValue(tx.Bucket(bucketSites), "site info", w.Site, w.SiteInfo); err != nil {
			return err
		}
	}
	if w.Setting != nil {
		return putValue(tx.Bucket(bucketSettings), "setting", w.SettingKey, w.Setting)
	}
	return nil
}

// putValue stores v as JSON under a key that must not be empty.
func putValue(b *bolt.Bucket, what, key string, v any) error {
	if key == "" {
		return errors.New(what + ": the key is empty")
	}
	if err := putJSON(b, []byte(key), v); err != nil {
		return fmt.Errorf("%s %s: %w", what, key, err)
	}
	return nil
}
