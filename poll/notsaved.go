package poll

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// notSavedFile names, beside the database, the searches whose last poll
// could not be saved (a full disk): the database could not be written, so
// it cannot say so itself, and a later `notifio status` in another process
// must still know. The next saved poll of a search takes it off; the file
// goes when none is left.
const notSavedFile = "not-saved.json"

// notSavedMark is why one search's last poll could not be saved.
type notSavedMark struct {
	At    time.Time `json:"at"`
	Error string    `json:"error"`
}

// unknownSearch stands for every search in a marker file that exists but
// could not be read (a disk too full even for its few bytes leaves it
// empty): a save failed, which one is not known.
const unknownSearch = "*"

// notSavedMarks keeps the marker file. It is safe for concurrent use.
type notSavedMarks struct {
	mu   sync.Mutex
	path string // "": no data directory, nothing kept
}

func (m *notSavedMarks) read() map[string]notSavedMark {
	raw, err := os.ReadFile(m.path)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]notSavedMark{}
	}
	marks := map[string]notSavedMark{}
	if err != nil || json.Unmarshal(raw, &marks) != nil {
		return map[string]notSavedMark{unknownSearch: {Error: "the last check could not be saved"}}
	}
	return marks
}

// write replaces the file atomically (a temporary file renamed over it);
// none left removes it. When the disk has no room for it, an empty file
// still says that a save failed.
func (m *notSavedMarks) write(marks map[string]notSavedMark) error {
	if len(marks) == 0 {
		if err := os.Remove(m.path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		return nil
	}
	raw, err := json.Marshal(marks)
	if err != nil {
		return err
	}
	tmp := m.path + ".tmp"
	err = os.WriteFile(tmp, raw, 0o600)
	if err == nil {
		err = os.Rename(tmp, m.path)
	}
	if err != nil {
		_ = os.Remove(tmp)
		if f, cerr := os.OpenFile(m.path, os.O_CREATE|os.O_WRONLY, 0o600); cerr == nil {
			_ = f.Close() // an older marker stays as it is; a new one is empty
		}
	}
	return err
}

// mark records that searchID's poll could not be saved.
func (m *notSavedMarks) mark(searchID string, cause error, now time.Time) error {
	if m.path == "" {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	marks := m.read()
	marks[searchID] = notSavedMark{At: now, Error: cause.Error()}
	return m.write(marks)
}

// clear takes searchID off after a poll of it was saved.
func (m *notSavedMarks) clear(searchID string) error {
	if m.path == "" {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	marks := m.read()
	if _, ok := marks[searchID]; !ok {
		return nil
	}
	delete(marks, searchID)
	return m.write(marks)
}

// restoreNotSaved shows the searches whose last poll, in this process or an
// earlier one, could not be saved (health "not saved", with its hint).
// Called with s.mu held, when the searches are loaded.
func (s *Service) restoreNotSaved() {
	if s.opts.DataDir == "" {
		return
	}
	s.notSaved.path = filepath.Join(s.opts.DataDir, notSavedFile)
	s.notSaved.mu.Lock()
	defer s.notSaved.mu.Unlock()
	marks := s.notSaved.read()
	if unknown, ok := marks[unknownSearch]; ok {
		delete(marks, unknownSearch)
		for id := range s.searches {
			if _, ok := marks[id]; !ok {
				marks[id] = unknown
			}
		}
		if err := s.notSaved.write(marks); err != nil {
			s.log.Warn("could not rewrite the marker of checks not saved", "path", s.notSaved.path, "err", err)
		}
	}
	for id, mk := range marks {
		if r := s.searches[id]; r != nil {
			r.saveErr = errors.New(mk.Error)
		}
	}
}

// clearNotSaved takes a search off the marker file once a poll of it was saved.
func (s *Service) clearNotSaved(searchID string) {
	if err := s.notSaved.clear(searchID); err != nil {
		s.log.Warn("could not update the marker of checks not saved", "search_id", searchID, "err", err)
	}
}
