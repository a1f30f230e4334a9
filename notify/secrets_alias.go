package notify

import (
	"notifio/internal/model"
	"notifio/internal/secrets"
)

// The secrets store lives in internal/secrets (the watcher keeps site cookies
// there too); these names keep old callers compiling until nouns-rewrite.sh
// has rewritten them.
type (
	Secrets = secrets.Secrets
	Source  = secrets.Source
)

const (
	KeyringService = secrets.KeyringService
	PasswordEnv    = secrets.PasswordEnv
	PasswordFile   = secrets.PasswordFile
	CookieFile     = secrets.CookieFile
	PushURLFile    = secrets.PushURLFile
	SourceNone     = secrets.SourceNone
	SourceKeyring  = secrets.SourceKeyring
	SourceEnv      = secrets.SourceEnv
	SourceFile     = secrets.SourceFile
)

var (
	NewSecrets      = secrets.NewSecrets
	ErrNoPassword   = model.ErrNoPassword
	ErrNoServiceURL = model.ErrNoServiceURL
	ErrNoCookie     = model.ErrNoCookie
)
