package notify

import "notifio/internal/pushurl"

// The push service URLs' forms and checks live in internal/pushurl; these
// names keep old callers compiling until nouns-rewrite.sh has rewritten them.
var (
	NtfyURL         = pushurl.NtfyURL
	TelegramURL     = pushurl.TelegramURL
	PushoverURL     = pushurl.PushoverURL
	CheckServiceURL = pushurl.CheckServiceURL
	DisplayURL      = pushurl.DisplayURL
)
