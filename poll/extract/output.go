package extract

import (
	"notifio/internal/model"
)

// JSONOutput is the object `notifio extract --json` prints:
// {"site","method","listings":[{"id","url","title","price","price_value",
// "currency","location","size","size_value","rooms","rooms_value","image",
// "promoted"}],"no_results":bool}.
// listings is [] (never null) when there are none.
type JSONOutput struct {
	Site      string              `json:"site"`
	Method    string              `json:"method"`
	Listings  []model.PageListing `json:"listings"`
	NoResults bool                `json:"no_results"`
	Fallback  string              `json:"fallback,omitempty"` // the profile that found nothing
	Note      string              `json:"note,omitempty"`
}

// JSON returns the --json object for r (encode it with encoding/json).
func JSON(r model.PageResult) any {
	ls := r.Listings
	if ls == nil {
		ls = []model.PageListing{}
	}
	return JSONOutput{Site: r.Site, Method: r.Method, Listings: ls, NoResults: r.NoResults, Fallback: r.Fallback, Note: r.Note}
}
