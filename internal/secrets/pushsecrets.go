package secrets

import (
	"fmt"
	"path/filepath"
	"strings"

	"notifio/internal/model"
)

// PushURLFile is the fallback file in the data directory (mode 0600, a JSON
// object of channel name → service URL) used, with a warning, where there is
// no keyring.
const PushURLFile = "push-urls"

// A push service URL is a secret as a whole: tokens sit in its user info, host,
// path or query depending on the service, and an ntfy topic is a password in
// all but name. So the whole URL goes where the SMTP password goes.
var pushURLs = keptSecret{file: PushURLFile, account: func(name string) string { return "push:" + strings.TrimSpace(name) }}

// SetServiceURL keeps a channel's service URL in the keyring, else (no usable
// keyring) in PushURLFile, and then returns a warning for the user.
func (s *Secrets) SetServiceURL(name, rawURL string) (warning string, err error) {
	kerr, err := s.setKept(pushURLs, name, rawURL)
	switch {
	case kerr == nil:
		return "", err
	case err != nil:
		return "", fmt.Errorf("no system keyring is available (%v) and the file for service URLs could not be written: %w", kerr, err)
	}
	return fmt.Sprintf("No system keyring is available, so the service URL of %q is stored unencrypted in %s (readable only by you).",
		name, filepath.Join(s.dir, PushURLFile)), nil
}

// ServiceURL returns a channel's service URL: from the keyring, else from
// PushURLFile; model.ErrNoServiceURL if neither has it.
func (s *Secrets) ServiceURL(name string) (string, error) {
	v, err := s.getKept(pushURLs, name)
	if err != nil || v != "" {
		return v, err
	}
	return "", fmt.Errorf("channel %q: %w", name, model.ErrNoServiceURL)
}

// DeleteServiceURL forgets a channel's service URL, wherever it is kept.
func (s *Secrets) DeleteServiceURL(name string) error { return s.deleteKept(pushURLs, name) }
