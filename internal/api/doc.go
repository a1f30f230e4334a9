// Package api is the watcher's local control API: HTTP and JSON over a Unix
// socket that only its user may open (mode 0600, and on Linux the peer's uid
// is checked), paths under /v1/. The watcher (`notifio run`, the tray) serves
// it with Server over the same operations the window and the command line
// call; the window and the command line attach with Client, which turns the
// watcher's typed errors (*model.UserError, *model.WaitError, notify's field
// problems) back into the same values.
//
// The operations (Watcher, Delivery: ops.go) and the request and response
// types live here, shared by server and client; the nouns they carry are
// internal/model's. There is no TCP listener: a watcher
// on another machine is reached by forwarding its socket (ssh -L) and
// `notifio --connect unix:PATH`.
package api
