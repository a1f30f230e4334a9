package secrets

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/zalando/go-keyring"
)

// keptSecret is one kind of secret kept by name (a push channel's service URL,
// a site's cookie): in the keyring under account(name), else — no usable
// keyring — in file, a 0600 JSON object of name → value in the data directory.
type keptSecret struct {
	file    string
	account func(name string) string
}

// setKept keeps value: in the keyring (then the file forgets it), else in the
// file; kerr says why the keyring was not used (nil: it was).
func (s *Secrets) setKept(k keptSecret, name, value string) (kerr, err error) {
	_, kerr = keyringCall(func() (string, error) { return "", keyring.Set(KeyringService, k.account(name), value) })
	if kerr == nil {
		return nil, s.editKeptFile(k.file, func(m map[string]string) { delete(m, name) })
	}
	return kerr, s.editKeptFile(k.file, func(m map[string]string) { m[name] = value })
}

// getKept returns the value from the keyring, else from the file ("" when
// neither has it).
func (s *Secrets) getKept(k keptSecret, name string) (string, error) {
	v, kerr := keyringCall(func() (string, error) { return keyring.Get(KeyringService, k.account(name)) })
	if kerr == nil && v != "" {
		return v, nil
	}
	m, err := s.readKeptFile(k.file)
	if err != nil {
		return "", err
	}
	return m[name], nil
}

// deleteKept forgets the value, wherever it is kept.
func (s *Secrets) deleteKept(k keptSecret, name string) error {
	_, _ = keyringCall(func() (string, error) { return "", keyring.Delete(KeyringService, k.account(name)) })
	return s.editKeptFile(k.file, func(m map[string]string) { delete(m, name) })
}

func (s *Secrets) readKeptFile(file string) (map[string]string, error) {
	p := filepath.Join(s.dir, file)
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

// editKeptFile changes a fallback file; an empty result removes it.
func (s *Secrets) editKeptFile(file string, edit func(map[string]string)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, err := s.readKeptFile(file)
	if err != nil {
		return err
	}
	edit(m)
	p := filepath.Join(s.dir, file)
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
