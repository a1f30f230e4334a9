package fetch

import (
	"net/http"
	"net/url"

	"notifio/internal/model"
)

// SetCookies puts cookies into the jar of u's site, as if u had set them: the
// cookies of a check the user solved in a browser, so that plain fetches of the
// site carry them too.
func (f *Fetcher) SetCookies(u *url.URL, cookies []*http.Cookie) {
	f.jarFor(model.SiteOf(u.Hostname())).SetCookies(u, cookies)
}
