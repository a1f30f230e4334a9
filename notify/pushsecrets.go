package notify

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/zalando/go-keyring"
)

// PushURLFile is the fallback file in the data directory (mode 0600, a JSON
// object of channel name → service URL) used, with a warning, where there is
// no keyring.
const PushURLFile = "push-urls"

// ErrNoServiceURL means no service URL is saved for the channel.
var ErrNoServiceURL = errors.New("no service URL is saved for this channel")

// A push service URL is a secret as a whole: tokens sit in its user info, host,
// path or query depending on the service, and an ntfy topic is a password in
// all but name. So the whole URL goes where the SMTP password goes.
func pushAccount(name string) string { return "push:" + strings.TrimSpace(name) }

// SetServiceURL keeps a channel's service URL in the keyring, else (no usable
// keyring) in PushURLFile, and then returns a warning for the user.
func (s *Secrets) SetServiceURL(name, rawURL string) (warning string, err error) {
	_, kerr := keyringCall(func() (string, error) { return "", keyring.Set(KeyringService, pushAccount(name), rawURL) })
	if kerr == nil {
		return "", s.editURLFile(func(m map[string]string) { delete(m, name) })
	}
	if err := s.editURLFile(func(m map[string]string) { m[name] = rawURL }); err != nil {
		return "", fmt.Errorf("no system keyring is available (%v) and the file for service URLs could not be written: %w", kerr, err)
	}
	return fmt.Sprintf("No system keyring is available, so the service URL of %q is stored unencrypted in %s (readable only by you).",
		name, filepath.Join(s.dir, PushURLFile)), nil
}

// ServiceURL returns a channel's service URL: from the keyring, else from
// PushURLFile; ErrNoServiceURL if neither has it.
func (s *Secrets) ServiceURL(name string) (string, error) {
	v, kerr := keyringCall(func() (string, error) { return keyring.Get(KeyringService, pushAccount(name)) })
	if kerr == nil && v != "" {
		return v, nil
	}
	m, err := s.readURLFile()
	if err != nil {
		return "", err
	}
	if v := m[name]; v != "" {
		return v, nil
	}
	return "", fmt.Errorf("channel %q: %w", name, ErrNoServiceURL)
}

// DeleteServiceURL forgets a channel's service URL, wherever it is kept.
func (s *Secrets) DeleteServiceURL(name string) error {
	_, _ = keyringCall(func() (string, error) { return "", keyring.Delete(KeyringService, pushAccount(name)) })
	return s.editURLFile(func(m map[string]string) { delete(m, name) })
}

func (s *Secrets) readURLFile() (map[string]string, error) {
	p := filepath.Join(s.dir, PushURLFile)
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

// editURLFile changes the fallback file; an empty result removes it.
func (s *Secrets) editURLFile(edit func(map[string]string)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, err := s.readURLFile()
	if err != nil {
		return err
	}
	edit(m)
	p := filepath.Join(s.dir, PushURLFile)
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
