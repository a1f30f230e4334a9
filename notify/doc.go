// Package notify tells the user about new listings: by email, through a
// transactional outbox that the storage package keeps, and on the desktop through
// a Notifier the UI provides.
//
// The email half has four parts:
//
//   - Config, Presets and Validate: the SMTP settings the user enters, checked in
//     words a user can act on.
//   - Secrets: the SMTP password, kept in the OS keyring, else taken from
//     NOTIFIO_SMTP_PASSWORD, else (with a visible warning) from a 0600 file in the
//     data directory. The password never reaches a log or an error message.
//   - ComposeDigest and Sender: one digest email per outbox item (a text and an
//     HTML part, a stable Message-ID), sent with go-mail over STARTTLS or implicit
//     TLS, optionally pinned to a self-signed certificate of a local bridge.
//     Classify turns any failure into "temporary or not" plus a hint.
//   - Relay: drains the outbox one send at a time. An item is marked sent only
//     after the server accepted it; temporary failures are retried with capped
//     exponential backoff and jitter, permanent ones are kept as "needs attention"
//     with the server's words and a hint. Nothing is deleted unsent, so a crash
//     between the server's acceptance and the "sent" commit can only cause a
//     duplicate, which carries the same Message-ID as the first copy.
//
// The push half (shoutrrr service URLs: ntfy, Telegram, Pushover, …) shares the
// outbox, the backoff and DeliveryError: CheckServiceURL and DisplayURL for
// what the user enters, Secrets.SetServiceURL for keeping the URL (a secret as
// a whole) in the keyring, ComposePush for a lock-screen message, SendPush, and
// PushRelay, which sends each channel's due items as one push and holds them
// through the channel's quiet hours (ParseQuiet).
//
// EmailSettings is the one owner of the saved SMTP settings and their
// password; Ops are the delivery operations of the window over them and the
// push channels. Notify never imports the watcher: it is told through the
// plain hooks the composition root wires (RelayOptions.OnChange, OpsOptions).
package notify
