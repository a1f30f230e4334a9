package poll

import "maps"

// pagePrint is what the watcher remembers of a search's last committed page
// (searchRun.bodyHash and structure), saved by search ID under the setting
// printsKey when the watcher closes and with the hourly housekeeping — never
// per poll: a lost print costs one parse, a lost structure one poll read
// without it. (Prints saved by older versions also hold "links": ignored.)
type pagePrint struct {
	Page      uint64 `json:"page,omitempty,string"`
	Structure string `json:"structure,omitempty"`
}

const printsKey = "page_prints"

// restorePrints reads the saved prints. Called with s.mu held.
func (s *Service) restorePrints() {
	var saved map[string]pagePrint
	if ok, err := s.db.GetSetting(printsKey, &saved); err != nil || !ok {
		if err != nil {
			s.log.Warn("could not read the last page prints; pages will be read in full once", "err", err)
		}
		return
	}
	s.savedPrints = saved
	for id, p := range saved {
		if r := s.searches[id]; r != nil {
			r.bodyHash, r.structure = p.Page, p.Structure
		}
	}
}

// savePrints writes the prints of the current searches when they differ from
// those last saved.
func (s *Service) savePrints() {
	s.mu.Lock()
	all := make(map[string]pagePrint, len(s.searches))
	for id, r := range s.searches {
		if p := (pagePrint{Page: r.bodyHash, Structure: r.structure}); p != (pagePrint{}) {
			all[id] = p
		}
	}
	same := maps.Equal(all, s.savedPrints)
	s.mu.Unlock()
	if same {
		return
	}
	if err := s.db.PutSetting(printsKey, all); err != nil {
		s.log.Warn("could not save the last page prints", "err", err)
		return
	}
	s.mu.Lock()
	s.savedPrints = all
	s.mu.Unlock()
}
