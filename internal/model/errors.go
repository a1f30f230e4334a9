package model

import "errors"

// Errors callers test with errors.Is, on either side of the control API.

// ErrBadURL is wrapped by every error about a search URL the user typed.
var ErrBadURL = errors.New("poll: not a usable search URL")

// ErrDuplicate is wrapped by the error about a search URL another search
// already watches.
var ErrDuplicate = errors.New("poll: already watched")

// ErrNotFound: no search, outbox item or setting with that key.
var ErrNotFound = errors.New("not found")

// ErrDiskFull: a write failed because the disk (or the size limit) is full.
var ErrDiskFull = errors.New("the disk holding the data directory is full")

// ErrExists means a channel of that name exists already.
var ErrExists = errors.New("it exists already")

// ErrNoCookie means no cookie is saved for the site.
var ErrNoCookie = errors.New("no cookie is saved for this site")

// ErrNoServiceURL means no service URL is saved for the channel.
var ErrNoServiceURL = errors.New("no service URL is saved for this channel")

// ErrNoPassword means no password is saved for the account.
var ErrNoPassword = errors.New("no SMTP password is saved")
