package cli

import (
	"strings"
	"testing"

	"notifio/internal/model"
)

// What `notifio extract` prints: the summary, the note (a profile that fell
// back), the table with promoted listings starred, and why a page gave none.
func TestRenderListingsSaysHowThePageWasRead(t *testing.T) {
	var out strings.Builder
	r := model.PageResult{Site: "kleinanzeigen.de", Method: model.MethodCards, Fallback: "kleinanzeigen.de",
		Note:     "The kleinanzeigen.de profile found nothing on this page (the site may have changed its layout); automatic extraction was used.",
		Listings: []model.PageListing{{Title: "Altbau in Ehrenfeld", Price: "1.150 € VB", Size: "62 m²", Rooms: "2 Zi.", URL: "https://www.kleinanzeigen.de/s-anzeige/3300000002", Promoted: true}}}
	if err := renderListings(&out, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"kleinanzeigen.de: 1 listing (method cards)\nThe kleinanzeigen.de profile found nothing", "★ Altbau in Ehrenfeld", "62 m² · 2 Zi.", "★ = promoted by the site (1)"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("missing %q in:\n%s", want, out.String())
		}
	}
	out.Reset()
	if err := renderListings(&out, model.PageResult{Site: "example.de", Method: model.MethodNone, Blocked: "title \"Just a moment\""}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "looks like a bot check") {
		t.Errorf("a blocked page reads:\n%s", out.String())
	}
}
