package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"

	"notifio/internal/model"
)

// shownText is what a label or quiet label draws now (after truncation).
func shownText(l fyne.Widget) string {
	var out []string
	walkVisible(test.WidgetRenderer(l).Objects()[0], func(o fyne.CanvasObject) {
		if t, ok := o.(*canvas.Text); ok {
			out = append(out, t.Text)
		}
	})
	return strings.Join(out, "")
}

func TestARowOnANarrowWindowIsCutNotSpilled(t *testing.T) {
	h := newHarness(t, sample())
	w := h.app.NewWindow("row")
	o := newSearchRowObject()
	w.SetContent(o)
	w.Resize(fyne.NewSize(320, 80))
	h.u.searches.updateRowObject(2, o) // Madrid centro: idealista.com is rate-limiting us — next try in 4:31
	r := o.(*searchRowWidget)

	if got := shownText(r.name); got != "Madrid centro" {
		t.Errorf("the name reads %q on a narrow window, want it whole", got)
	}
	if got := shownText(r.status); !strings.HasPrefix(got, "idealista.com is rate-limiting") || !strings.HasSuffix(got, "…") {
		t.Errorf("the long reason reads %q, want it cut with an ellipsis", got)
	}
	if r.detail.Visible() {
		t.Errorf("the detail shows %q with no room left for it", shownText(r.detail))
	}
	width := o.Size().Width
	for _, l := range []fyne.Widget{r.name, r.site, r.status} {
		if end := fyne.CurrentApp().Driver().AbsolutePositionForObject(l).X + l.Size().Width; l.Visible() && end > width+1 {
			t.Errorf("%q ends at %v, beyond the row's %v", shownText(l), end, width)
		}
	}

	w.Resize(fyne.NewSize(1200, 80)) // room for everything again
	h.u.searches.updateRowObject(2, o)
	if !r.detail.Visible() || strings.HasSuffix(shownText(r.status), "…") {
		t.Errorf("on a wide window the row reads %q / %q", shownText(r.status), shownText(r.detail))
	}
}

func TestListingsOpenOnTheSearchTheUserIsLookingAt(t *testing.T) {
	h := newHarness(t, sample())
	h.u.selectView(viewListings) // nothing selected: the search with new listings
	if got := h.u.listings.searchID; got != "a" {
		t.Errorf("the listings opened on %q, want the search with new listings (a)", got)
	}

	h = newHarness(t, sample())
	h.u.searches.selectSearch("c")
	h.u.selectView(viewListings)
	if got := h.u.listings.searchID; got != "c" {
		t.Errorf("the listings opened on %q, want the selected search (c)", got)
	}
}

func TestARetryingEmailShowsItsLastProblemNotTheServersWords(t *testing.T) {
	s := sample()
	s.Outbox = model.OutboxSnapshot{Pending: 1, LastError: "dial tcp 127.0.0.1:2525: connect: connection refused"}
	h := newHarness(t, s)
	// Issue 37, item 8: in words, not Go's "dial tcp 127.0.0.1:2525: connect: …".
	h.requireText("1 email is waiting to be sent; Notifio keeps trying. Last attempt: The server did not accept a connection on that port.")
	if h.hasText("dial tcp") {
		t.Error("the banner shows the raw network error")
	}
	if h.hasText("The mail server said") {
		t.Error("a connection that never reached the server is reported as the server's words")
	}
}
