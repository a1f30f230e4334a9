package poll

import (
	"errors"
	"fmt"
	"strings"

	"notifio/internal/model"

	"notifio/internal/secrets"
)

// The cookie a user pasted for a site: one per site, every search of the site
// sends it. It is a secret (a login in all but name), so it is kept where the
// SMTP password and push URLs are, in the keyring (secrets.Secrets); a search
// keeps only a reference to it (CookieRef). Older databases kept it in plain
// text in the settings: it moves to the keyring when it is first read.

// cookieRef is the reference a search keeps to its site's cookie.
func cookieRef(site string) string { return "cookie:" + site }

// secrets is where cookies are kept: Options.Secrets, else the data folder's;
// nil without either (a dry run without a data folder keeps no cookie).
func (s *Service) secrets() *secrets.Secrets {
	if s.opts.Secrets != nil {
		return s.opts.Secrets
	}
	if s.opts.DataDir == "" {
		return nil
	}
	s.secretsOnce.Do(func() { s.ownSecrets = secrets.NewSecrets(s.opts.DataDir) })
	return s.ownSecrets
}

// saveCookie keeps a pasted Cookie header for site and returns the reference
// the site's searches keep.
func (s *Service) saveCookie(site, cookie string) (string, error) {
	cookie = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(cookie), "Cookie:"))
	if strings.ContainsAny(cookie, "\r\n") {
		return "", model.NewUserError(nil, "The cookie must be on one line.", "Copy the value of the Cookie header.")
	}
	sec := s.secrets()
	if sec == nil {
		return "", fmt.Errorf("poll: save the cookie for %s: no data folder to keep it in", site)
	}
	warning, err := sec.SetCookie(site, cookie)
	if err != nil {
		return "", fmt.Errorf("poll: save the cookie for %s: %w", site, err)
	}
	if warning != "" {
		s.log.Warn(warning, "site", site)
	}
	if s.db != nil {
		if err := s.db.DeleteSetting(cookieRef(site)); err != nil { // a plain-text copy of an older version
			s.log.Warn("could not remove the old plain-text cookie", "site", site, "err", err)
		}
	}
	return cookieRef(site), nil
}

// siteCookie is the cookie kept for site, "" when none.
func (s *Service) siteCookie(site string) string {
	sec := s.secrets()
	if sec == nil {
		return ""
	}
	c, err := sec.Cookie(site)
	if err == nil {
		return c
	}
	if !errors.Is(err, model.ErrNoCookie) {
		s.log.Warn("could not read the site's cookie", "site", site, "err", err)
		return ""
	}
	return s.moveOldCookie(site)
}

// moveOldCookie moves a cookie an older version kept in plain text in the
// settings into the keyring, and returns it.
func (s *Service) moveOldCookie(site string) string {
	if s.db == nil {
		return ""
	}
	var c string
	if ok, err := s.db.GetSetting(cookieRef(site), &c); err != nil || !ok || c == "" {
		return ""
	}
	if _, err := s.saveCookie(site, c); err != nil {
		s.log.Warn("could not move the site's cookie into the keyring", "site", site, "err", err)
	}
	return c
}

// existingCookieRef is the reference to site's cookie when one is kept.
func (s *Service) existingCookieRef(site string) string {
	if s.siteCookie(site) == "" {
		return ""
	}
	return cookieRef(site)
}

// cookie is the Cookie header a search's reference names ("" when none). Read
// when the poll starts, not when it is planned: plan runs under the Service's
// lock and reads no storage.
func (s *Service) cookie(ref string) string {
	site, ok := strings.CutPrefix(ref, "cookie:")
	if !ok || site == "" {
		return ""
	}
	return s.siteCookie(site)
}
