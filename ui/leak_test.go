package ui

import (
	"runtime"
	"testing"
	"time"
)

// liveHeap is the heap in use after a full collection.
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestSearchesTabDoesNotGrowWithSnapshotsAndTicks is issue 19: the window grew
// by 1.5–2 MB a second on the Searches tab. Every poll publishes a snapshot; the
// window applies it, ticks its countdowns and draws a frame. Drawn here by the
// test driver's software painter, so text is shaped and rendered as on screen.
func TestSearchesTabDoesNotGrowWithSnapshotsAndTicks(t *testing.T) {
	s := manySearches(20)
	for i := range s.Searches { // the default 2-minute interval: countdowns in m:ss
		s.Searches[i].Interval = 2 * time.Minute
		s.Searches[i].NextCheck = t0.Add(time.Duration(5+i*6) * time.Second)
	}
	h := newHarness(t, s)
	c := h.u.win.Canvas()
	round := func() {
		h.clock.Advance(time.Second)
		s.At = h.clock.Now()
		s.Searches[0].LastChecked = s.At
		h.publish(s)
		h.u.tick()
		c.Capture()
	}
	for range 10 { // warm Fyne's caches
		round()
	}
	before := liveHeap()
	const rounds = 40
	for range rounds {
		round()
	}
	after := liveHeap()
	grew := int64(after) - int64(before)
	t.Logf("live heap %.1f MB → %.1f MB over %d snapshots, ticks and frames", mb(before), mb(after), rounds)
	if grew > 4<<20 {
		t.Errorf("the live heap grew by %.1f MB over %d snapshots and ticks (%.0f KB each); want under 4 MB",
			float64(grew)/(1<<20), rounds, float64(grew)/rounds/1024)
	}
}

func mb(b uint64) float64 { return float64(b) / (1 << 20) }
