package extract

// Listing is one listing found on a result page. ID is the site's own identifier
// (not yet namespaced by site); URL is absolute http(s) on the page's site.
type Listing struct {
	ID         string  `json:"id"`
	URL        string  `json:"url"`
	Title      string  `json:"title"`
	Price      string  `json:"price"`
	PriceValue float64 `json:"price_value"`
	Currency   string  `json:"currency"`
	Location   string  `json:"location"`
	Size       string  `json:"size"`
	Rooms      string  `json:"rooms"`
	Image      string  `json:"image"`
	Promoted   bool    `json:"promoted"`
}

// Selectors are user CSS selectors; when Item is set they override everything.
// Empty fields mean automatic extraction.
type Selectors struct {
	Item  string
	Link  string
	Title string
	Price string
}

// Result is what extraction found on one page.
type Result struct {
	Site     string    `json:"site"`
	Method   string    `json:"method"` // e.g. "profile:kleinanzeigen.de", "jsonld", "nextdata", "cards", "selectors"
	Listings []Listing `json:"listings"`
	// NoResults is true when the page carries a recognised "no results" marker.
	NoResults bool `json:"no_results"`
	// Container is true when a results container was recognised (even if empty).
	Container bool `json:"-"`
}
