package filter_test

import (
	"net/url"
	"testing"

	"notifio/poll/extract"
	"notifio/poll/filter"

	"notifio/internal/model"
)

// promotedPage has a plain result, a result whose card says "sponsored" in
// its class, and results with a visible "Anzeige", "Gesponsert" or
// "Sponsored" badge, as portals mark paid highlights in the list.
const promotedPage = `<html><body><ul id="results">
<li class="result"><a href="/expose/1"><h2>Altbau am Park</h2></a><p>950 €</p><p>Berlin-Mitte</p></li>
<li class="result sponsored"><a href="/expose/2"><h2>Neubau mit Balkon</h2></a><p>990 €</p><p>Berlin-Pankow</p></li>
<li class="result"><a href="/expose/3"><h2>Dachgeschoss hell</h2></a><span class="badge">Anzeige</span><p>1.010 €</p><p>Berlin-Wedding</p></li>
<li class="result"><a href="/expose/4"><h2>Gartenwohnung ruhig</h2></a><span class="tag">Gesponsert</span><p>1.020 €</p><p>Berlin-Steglitz</p></li>
<li class="result"><a href="/expose/5"><h2>Loft im Hinterhof</h2></a><div><small>Sponsored</small></div><p>1.030 €</p><p>Berlin-Moabit</p></li>
<li class="result"><a href="/expose/6"><h2>Zwei Zimmer Küche Bad</h2></a><p>1.040 €</p><p>Berlin-Neukölln</p></li>
</ul></body></html>`

// TestHidePromotedHoldsBackPaidResultsOnly (issue 35 item 8): with
// --hide-promoted, cards with an "Anzeige"/"Gesponsert"/"Sponsored" badge came
// through, and a card whose class says sponsored was dropped even without the
// flag. Now a result the list highlights as paid (its class says sponsored,
// an "Anzeige" badge) is read and marked promoted: shown without the flag,
// held back with it; a card labelled "Gesponsert" or "Sponsored" in a line of
// its own is a paid placement, not a result (extract's adLabels: immowelt's
// answer key leaves out its "Gesponsert" suggestion cards), never shown.
func TestHidePromotedHoldsBackPaidResultsOnly(t *testing.T) {
	u, _ := url.Parse("https://www.example-immo.de/suche")
	res, err := extract.Extract([]byte(promotedPage), u, model.PageSelectors{})
	if err != nil {
		t.Fatal(err)
	}
	pass := func(f model.Filters) map[string]bool {
		out := map[string]bool{}
		for _, l := range res.Listings {
			if filter.Match(f, model.Listing{Title: l.Title, Promoted: l.Promoted}).Pass() {
				out[l.Title] = true
			}
		}
		return out
	}
	all := pass(model.Filters{})
	if len(all) != 4 || !all["Neubau mit Balkon"] || !all["Dachgeschoss hell"] {
		t.Errorf("without --hide-promoted these pass: %v (method %s); want the two plain and the two highlighted results", all, res.Method)
	}
	plain := pass(model.Filters{HidePromoted: true})
	if len(plain) != 2 || !plain["Altbau am Park"] || !plain["Zwei Zimmer Küche Bad"] {
		t.Errorf("with --hide-promoted these pass: %v; want only the two plain results", plain)
	}
}
