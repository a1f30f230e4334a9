package notify

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/zalando/go-keyring"
)

// CookieFile is the fallback file in the data directory (mode 0600, a JSON
// object of site → Cookie header) used, with a warning, where there is no
// keyring.
const CookieFile = "site-cookies"

// ErrNoCookie means no cookie is saved for the site.
var ErrNoCookie = errors.New("no cookie is saved for this site")

// A portal's login cookie is a password in all but name: it is kept where push
// service URLs are, in the keyring under "cookie:SITE" (one per site).
func cookieAccount(site string) string { return "cookie:" + site }

// SetCookie keeps a site's Cookie header in the keyring, else (no usable
// keyring) in CookieFile, and then returns a warning for the user.
func (s *Secrets) SetCookie(site, cookie string) (warning string, err error) {
	if site == "" || cookie == "" {
		return "", errors.New("notify: a cookie needs a site and a value")
	}
	_, kerr := keyringCall(func() (string, error) { return "", keyring.Set(KeyringService, cookieAccount(site), cookie) })
	if kerr == nil {
		return "", s.editCookieFile(func(m map[string]string) { delete(m, site) })
	}
	if err := s.editCookieFile(func(m map[string]string) { m[site] = cookie }); err != nil {
		return "", fmt.Errorf("no system keyring is available (%v) and the file for cookies could not be written: %w", kerr, err)
	}
	return fmt.Sprintf("No system keyring is available, so the cookie for %s is stored unencrypted in %s (readable only by you).",
		site, filepath.Join(s.dir, CookieFile)), nil
}

// Cookie returns a site's Cookie header: from the keyring, else from
// CookieFile; ErrNoCookie if neither has it.
func (s *Secrets) Cookie(site string) (string, error) {
	v, kerr := keyringCall(func() (string, error) { return keyring.Get(KeyringService, cookieAccount(site)) })
	if kerr == nil && v != "" {
		return v, nil
	}
	m, err := s.readCookieFile()
	if err != nil {
		return "", err
	}
	if v := m[site]; v != "" {
		return v, nil
	}
	return "", fmt.Errorf("site %s: %w", site, ErrNoCookie)
}

// DeleteCookie forgets a site's cookie, wherever it is kept.
func (s *Secrets) DeleteCookie(site string) error {
	_, _ = keyringCall(func() (string, error) { return "", keyring.Delete(KeyringService, cookieAccount(site)) })
	return s.editCookieFile(func(m map[string]string) { delete(m, site) })
}

func (s *Secrets) readCookieFile() (map[string]string, error) {
	p := filepath.Join(s.dir, CookieFile)
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", p, err)
	}
	m := map[string]string{}
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("reading %s: %w", p, err)
	}
	return m, nil
}

// editCookieFile changes the fallback file; an empty result removes it.
func (s *Secrets) editCookieFile(edit func(map[string]string)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, err := s.readCookieFile()
	if err != nil {
		return err
	}
	edit(m)
	p := filepath.Join(s.dir, CookieFile)
	if len(m) == 0 {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return s.writePrivate(p, b)
}
