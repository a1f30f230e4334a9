package poll

import (
	"testing"

	"notifio/poll/browser"
)

// Done pressed while the browser window is still opening (it takes seconds)
// ends the window once it is open; before, the press found no window and
// was lost, and the window stayed open until the user closed it.
func TestSolveDoneWhileTheWindowOpens(t *testing.T) {
	var w solveWindows
	if w.requestDone("a.test") != nil {
		t.Fatal("a Done with no window asked for returned a session")
	}
	w.begin("a.test")
	if w.requestDone("a.test") != nil {
		t.Fatal("a Done while the window opens returned a session")
	}
	sess := &browser.Session{}
	if !w.opened("a.test", sess) {
		t.Error("the window opened after Done was pressed, but it is not told to end")
	}
	w.end("a.test")

	w.begin("a.test")
	if w.opened("a.test", sess) {
		t.Error("a Done pressed for an earlier window ends the next one")
	}
	if w.requestDone("a.test") != sess {
		t.Error("a Done on an open window does not reach its session")
	}
	w.end("a.test")
	if w.requestDone("a.test") != nil {
		t.Error("a Done after the window ended reached a session")
	}
}
