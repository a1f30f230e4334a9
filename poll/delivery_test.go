package poll

import (
	"sync/atomic"
	"testing"
	"time"
)

// wakeCounter is a Delivery that counts how often the watcher woke it.
type wakeCounter struct{ n atomic.Int32 }

func (w *wakeCounter) Wake() { w.n.Add(1) }

// TestDeliveryIsWokenOncePerPollWithNewListings: the watcher needs nothing of
// notify to hand over a digest; a poll that finds something new wakes the
// delivery once, a baseline or a poll with nothing new does not.
func TestDeliveryIsWokenOncePerPollWithNewListings(t *testing.T) {
	h := newHarness(t, "")
	h.svc.Close()
	wakes := &wakeCounter{}
	h.delivery = wakes
	h.svc = h.open()
	a := newSite(t, "127.0.0.1", "1", "2")
	h.add("Kreuzberg", a.srv.URL+"/search", time.Minute)

	h.runFor(5 * time.Second) // the baseline
	h.runFor(70 * time.Second)
	if n := wakes.n.Load(); n != 0 {
		t.Fatalf("baseline and a poll without new listings woke the delivery %d times, want 0", n)
	}
	a.add("3")
	h.runFor(70 * time.Second)
	if n := wakes.n.Load(); n != 1 {
		t.Fatalf("a poll with one new listing woke the delivery %d times, want 1", n)
	}
	if items := h.outbox(); len(items) != 1 {
		t.Fatalf("outbox holds %d items, want the one digest", len(items))
	}
}
