package poll

import (
	"hash/crc32"
	"maps"
	"sync"
)

// print64 is the hash behind pageHash and linkPrint: two CRC-32s (IEEE and
// Castagnoli, both done in hardware on amd64 and arm64) side by side. It is the
// same in every process, so a search's last page print can be saved and
// compared after a restart or by the next `notifio once`. Not a defence against
// a site crafting collisions: a site can only hide its own listings anyway.
type print64 struct {
	a, b uint32
	buf  []byte // small writes, hashed in one go (no allocation per write)
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

func (h *print64) update(p []byte) {
	h.a = crc32.Update(h.a, crc32.IEEETable, p)
	h.b = crc32.Update(h.b, castagnoli, p)
}

func (h *print64) flush() {
	h.update(h.buf)
	h.buf = h.buf[:0]
}

// Write adds p; a CRC is a stream, so how writes are split does not matter.
func (h *print64) Write(p []byte) {
	if len(p) >= 4<<10 {
		h.flush()
		h.update(p)
		return
	}
	h.buf = append(h.buf, p...)
}

func (h *print64) WriteString(s string) { h.buf = append(h.buf, s...) }

func (h *print64) writeByte(c byte) { h.buf = append(h.buf, c) }

// Sum64 is the print; never 0 (0 means "no print").
func (h *print64) Sum64() uint64 {
	h.flush()
	return (uint64(h.a)<<32 | uint64(h.b)) | 1
}

// scanState is what linkPrint needs per page, reused across polls.
type scanState struct {
	h     print64
	links []span
}

var scanPool = sync.Pool{New: func() any { return &scanState{h: print64{buf: make([]byte, 0, 16<<10)}} }}

func getScan() *scanState {
	st := scanPool.Get().(*scanState)
	st.h.a, st.h.b, st.h.buf, st.links = 0, 0, st.h.buf[:0], st.links[:0]
	return st
}

func putScan(st *scanState) {
	if cap(st.h.buf) <= 1<<20 && cap(st.links) <= 1<<16 {
		scanPool.Put(st)
	}
}

// pagePrints is what is saved of searchRun.bodyHash and linkHash, by search ID,
// under the setting printsKey. Saved when the watcher closes and with the hourly
// housekeeping (never per poll: a lost print only costs one parse).
type pagePrint struct {
	Page  uint64 `json:"page,omitempty,string"`
	Links uint64 `json:"links,omitempty,string"`
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
			r.bodyHash, r.linkHash = p.Page, p.Links
		}
	}
}

// savePrints writes the prints of the current searches when they differ from
// those last saved.
func (s *Service) savePrints() {
	s.mu.Lock()
	all := make(map[string]pagePrint, len(s.searches))
	for id, r := range s.searches {
		if p := (pagePrint{Page: r.bodyHash, Links: r.linkHash}); p != (pagePrint{}) {
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
