package api

import (
	"time"

	"notifio/internal/model"
)

// Version is the API's version: the path prefix (/v1/) and the Notifio-API
// header of every answer. A client and a watcher of different versions tell
// the user so in words (VersionError) instead of failing to decode.
const Version = 1

// prefix is the path prefix of this version.
const prefix = "/v1"

// Headers every answer carries, so a client can tell which watcher answered.
const (
	HeaderAPI     = "Notifio-API"
	HeaderVersion = "Notifio-Version"
)

// Info is who answers on the socket (GET /v1/info).
type Info struct {
	API     int    `json:"api"`
	Version string `json:"version"` // the program's version
	PID     int    `json:"pid"`
	DataDir string `json:"data_dir"`
}

// Quitting answers POST /v1/quit: the watcher (its pid) is stopping.
type Quitting struct {
	PID int `json:"pid"`
}

// DesktopNotifications is whether the watcher shows desktop notifications
// (GET and PUT /v1/desktop-notifications).
type DesktopNotifications struct {
	On bool `json:"on"`
}

// Paused is the body of the pause requests.
type Paused struct {
	Paused bool `json:"paused"`
}

// SiteRate is the answer to GET /v1/site-rate.
type SiteRate struct {
	PerMinute float64 `json:"per_minute"`
	Warning   string  `json:"warning,omitempty"`
}

// ProbeAt is when a site's probe goes (POST /v1/sites/{site}/probe).
type ProbeAt struct {
	At time.Time `json:"at"`
}

// BrowserState answers GET /v1/browser: Problem is nil when a browser is
// installed, else the error saying what to install.
type BrowserState struct {
	Problem *Error `json:"problem,omitempty"`
}

// BrowserDefault answers GET /v1/browser-default.
type BrowserDefault struct {
	Browser bool `json:"browser"`
}

// RefusalPage answers GET /v1/sites/{site}/refusal-page: the path of the
// saved copy on the watcher's machine.
type RefusalPage struct {
	Path string `json:"path"`
	OK   bool   `json:"ok"`
}

// EmailSet is the body of PUT /v1/email and POST /v1/email/test: the SMTP
// settings and the password, as notify.Ops takes them ("" in a test: the
// saved one). The socket is the user's own, so the password crosses it plain.
type EmailSet struct {
	Config   model.Config `json:"config"`
	Password string       `json:"password,omitempty"`
}

// Warning is an answer that may carry a warning (no keyring).
type Warning struct {
	Warning string `json:"warning,omitempty"`
}

// ChannelAdded answers POST /v1/channels.
type ChannelAdded struct {
	Channel model.Channel `json:"channel"`
	Warning string        `json:"warning,omitempty"`
}

// Count answers the requests that say how many things they did.
type Count struct {
	Count int `json:"count"`
}

// The nouns carried as they are (checked to survive JSON in the tests).
type (
	// Snapshot is the watcher's whole state (GET /v1/snapshot, /v1/events).
	Snapshot = model.Snapshot
	// SearchInput is what adds or edits a search.
	SearchInput = model.SearchInput
)
