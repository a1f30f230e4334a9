package secrets

import (
	"errors"
	"fmt"
	"path/filepath"

	"notifio/internal/model"
)

// CookieFile is the fallback file in the data directory (mode 0600, a JSON
// object of site → Cookie header) used, with a warning, where there is no
// keyring.
const CookieFile = "site-cookies"

// A portal's login cookie is a password in all but name: it is kept where push
// service URLs are, in the keyring under "cookie:SITE" (one per site).
var siteCookies = keptSecret{file: CookieFile, account: func(site string) string { return "cookie:" + site }}

// SetCookie keeps a site's Cookie header in the keyring, else (no usable
// keyring) in CookieFile, and then returns a warning for the user.
func (s *Secrets) SetCookie(site, cookie string) (warning string, err error) {
	if site == "" || cookie == "" {
		return "", errors.New("notify: a cookie needs a site and a value")
	}
	kerr, err := s.setKept(siteCookies, site, cookie)
	switch {
	case kerr == nil:
		return "", err
	case err != nil:
		return "", fmt.Errorf("no system keyring is available (%v) and the file for cookies could not be written: %w", kerr, err)
	}
	return fmt.Sprintf("No system keyring is available, so the cookie for %s is stored unencrypted in %s (readable only by you).",
		site, filepath.Join(s.dir, CookieFile)), nil
}

// Cookie returns a site's Cookie header: from the keyring, else from
// CookieFile; model.ErrNoCookie if neither has it.
func (s *Secrets) Cookie(site string) (string, error) {
	v, err := s.getKept(siteCookies, site)
	if err != nil || v != "" {
		return v, err
	}
	return "", fmt.Errorf("site %s: %w", site, model.ErrNoCookie)
}

// DeleteCookie forgets a site's cookie, wherever it is kept.
func (s *Secrets) DeleteCookie(site string) error { return s.deleteKept(siteCookies, site) }
