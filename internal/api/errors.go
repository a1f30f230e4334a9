package api

import (
	"errors"
	"time"

	"notifio/internal/model"
)

// Error is an error as it crosses the socket: the watcher's typed errors
// keep their kind and words, and Client.decode makes the same values of them
// again, so the window and the command line word them as for a local call.
type Error struct {
	// Kind is "user" (a *model.UserError: Message and Hint), "wait" (a
	// *model.WaitError), "fields" (notify's field problems), "delivery" (a
	// failed delivery, model.DeliveryWords: Message is what the server said,
	// Hint what to do), "version" (client and watcher differ) or "internal"
	// (nobody worded it: Message is Error()).
	Kind    string `json:"kind"`
	Message string `json:"message"`
	Hint    string `json:"hint,omitempty"`
	// Cause names the sentinel the error wraps (see sentinels), so
	// errors.Is holds across the socket; "" for none known.
	Cause  string        `json:"cause,omitempty"`
	Wait   *WaitDetail   `json:"wait,omitempty"`
	Fields []FieldDetail `json:"fields,omitempty"`
}

// WaitDetail is a *model.WaitError's fields.
type WaitDetail struct {
	Site   string         `json:"site"`
	Until  time.Time      `json:"until"`
	Wait   model.WaitKind `json:"wait"`
	Reason string         `json:"reason"`
}

// FieldDetail is one model.FieldError.
type FieldDetail struct {
	Field   string `json:"field"`
	Problem string `json:"problem"`
}

// Error is the message, for a value read as an error.
func (e *Error) Error() string { return e.Message }

// sentinels are the errors callers branch on with errors.Is, by wire name.
var sentinels = map[string]error{
	"bad_url":        model.ErrBadURL,
	"duplicate":      model.ErrDuplicate,
	"site_waiting":   model.ErrSiteWaiting,
	"not_found":      model.ErrNotFound,
	"exists":         model.ErrExists,
	"not_configured": model.ErrNotConfigured,
	"no_password":    model.ErrNoPassword,
	"no_service_url": model.ErrNoServiceURL,
	"disk_full":      model.ErrDiskFull,
	"version":        ErrVersion,
}

// ErrVersion is wrapped by the error of a client and a watcher of different
// API versions.
var ErrVersion = errors.New("api: the window and the watcher are different versions")

func causeOf(err error) string {
	for name, s := range sentinels {
		if errors.Is(err, s) {
			return name
		}
	}
	return ""
}

// wireError is err as it crosses the socket.
func wireError(err error) *Error {
	var we *model.WaitError
	if errors.As(err, &we) {
		return &Error{Kind: "wait", Message: we.Error(), Cause: "site_waiting",
			Wait: &WaitDetail{Site: we.Site, Until: we.Until, Wait: we.Wait, Reason: we.Reason}}
	}
	var ue *model.UserError
	if errors.As(err, &ue) {
		return &Error{Kind: "user", Message: ue.Msg, Hint: ue.Hint, Cause: causeOf(err)}
	}
	if fields := fieldDetails(err); len(fields) > 0 {
		return &Error{Kind: "fields", Message: err.Error(), Fields: fields, Cause: causeOf(err)}
	}
	var dw model.DeliveryWords
	if errors.As(err, &dw) {
		said, hint := dw.SaidAndHint()
		return &Error{Kind: "delivery", Message: said, Hint: hint, Cause: causeOf(err)}
	}
	return &Error{Kind: "internal", Message: err.Error(), Cause: causeOf(err)}
}

// fieldDetails are the notify.FieldErrors in err's tree.
func fieldDetails(err error) []FieldDetail {
	switch u := err.(type) {
	case *model.FieldError:
		return []FieldDetail{{Field: u.Field, Problem: u.Problem}}
	case interface{ Unwrap() []error }:
		var out []FieldDetail
		for _, e := range u.Unwrap() {
			out = append(out, fieldDetails(e)...)
		}
		return out
	case interface{ Unwrap() error }:
		return fieldDetails(u.Unwrap())
	}
	return nil
}

// Err is the error e stands for, typed as the watcher had it: a
// *model.UserError, a *model.WaitError, notify.FieldErrors joined, a failed
// delivery (model.DeliveryWords), or a plain error of the watcher's words.
// Sentinels named by Cause stay errors.Is.
func (e *Error) Err() error {
	cause := sentinels[e.Cause]
	switch e.Kind {
	case "wait":
		if e.Wait != nil {
			return &model.WaitError{Site: e.Wait.Site, Until: e.Wait.Until, Wait: e.Wait.Wait, Reason: e.Wait.Reason}
		}
	case "user", "version":
		return &model.UserError{Msg: e.Message, Hint: e.Hint, Err: cause}
	case "fields":
		errs := make([]error, 0, len(e.Fields)+1)
		for _, f := range e.Fields {
			errs = append(errs, &model.FieldError{Field: f.Field, Problem: f.Problem})
		}
		if cause != nil {
			errs = append(errs, cause)
		}
		return errors.Join(errs...)
	case "delivery":
		return &deliveryError{said: e.Message, hint: e.Hint, cause: cause}
	}
	return &remoteError{msg: e.Message, cause: cause}
}

// remoteError is an error the watcher did not word for the user: its
// message as the watcher had it, its sentinel (if known) for errors.Is.
type remoteError struct {
	msg   string
	cause error
}

func (r *remoteError) Error() string { return r.msg }
func (r *remoteError) Unwrap() error { return r.cause }

// deliveryError is a failed delivery of the watcher's (notify's
// DeliveryError): what the server said and what to do, apart, as
// model.DeliveryWords, so a view words it as it would the watcher's own.
type deliveryError struct {
	said, hint string
	cause      error
}

// Error is what the server said, then what to do, as the watcher's reads.
func (d *deliveryError) Error() string {
	if d.hint == "" {
		return d.said
	}
	return d.said + ". " + d.hint
}

func (d *deliveryError) Unwrap() error { return d.cause }

// SaidAndHint is what the server said and what to do (model.DeliveryWords).
func (d *deliveryError) SaidAndHint() (said, hint string) { return d.said, d.hint }
