package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
)

// Keys for dialogs: Escape closes the dialog on top, Enter submits it. Fyne's
// dialogs do neither; a focused widget gets every key (the canvas's
// OnTypedKey only those nobody focused takes), and its Entry ignores Escape,
// so the dialogs' entries are keyEntry values that pass Escape on.

// keyedDialog is an open dialog and what Enter and Escape do in it.
type keyedDialog struct {
	d               dialog.Dialog
	submit, dismiss func()
}

// showKeyed shows d and lets Enter call submit and Escape call dismiss while it
// is on top. onClosed (may be nil) runs when it closes, however it closes.
func (u *UI) showKeyed(d dialog.Dialog, submit, dismiss, onClosed func()) {
	u.dialogs = append(u.dialogs, keyedDialog{d: d, submit: submit, dismiss: dismiss})
	d.SetOnClosed(func() {
		for i := len(u.dialogs) - 1; i >= 0; i-- {
			if u.dialogs[i].d == d {
				u.dialogs = append(u.dialogs[:i], u.dialogs[i+1:]...)
				break
			}
		}
		if onClosed != nil {
			onClosed()
		}
	})
	d.Show()
}

// typedKey is the window's handler for keys no focused widget took, and the
// dialogs' entries' for Escape.
func (u *UI) typedKey(ev *fyne.KeyEvent) {
	if len(u.dialogs) == 0 {
		return
	}
	top := u.dialogs[len(u.dialogs)-1]
	switch ev.Name {
	case fyne.KeyEscape:
		top.dismiss()
	case fyne.KeyReturn, fyne.KeyEnter:
		top.submit()
	}
}

// keyEntry is an entry that hands Escape to the window's dialog keys.
type keyEntry struct {
	widget.Entry
	u *UI
}

// newKeyEntry makes an entry of a dialog; Enter calls submit.
func newKeyEntry(u *UI, submit func()) *keyEntry {
	e := &keyEntry{u: u}
	e.Wrapping = fyne.TextWrap(fyne.TextTruncateClip)
	e.OnSubmitted = func(string) { submit() }
	e.ExtendBaseWidget(e)
	return e
}

// newKeyPasswordEntry makes a password entry of a dialog (Fyne adds the
// reveal button when it draws one).
func newKeyPasswordEntry(u *UI, submit func()) *keyEntry {
	e := newKeyEntry(u, submit)
	e.Password = true
	return e
}

// TypedKey passes Escape on to the dialog, everything else to the entry.
func (e *keyEntry) TypedKey(ev *fyne.KeyEvent) {
	if ev.Name == fyne.KeyEscape {
		e.u.typedKey(ev)
		return
	}
	e.Entry.TypedKey(ev)
}

// keySelectEntry is a select entry that hands Escape to the dialog keys.
type keySelectEntry struct {
	widget.SelectEntry
	u *UI
}

// newKeySelectEntry makes a select entry of a dialog; Enter calls submit.
func newKeySelectEntry(u *UI, options []string, submit func()) *keySelectEntry {
	e := &keySelectEntry{u: u}
	e.ExtendBaseWidget(e)
	e.Wrapping = fyne.TextWrap(fyne.TextTruncateClip)
	e.SetOptions(options)
	e.OnSubmitted = func(string) { submit() }
	return e
}

// TypedKey passes Escape on to the dialog, everything else to the entry.
func (e *keySelectEntry) TypedKey(ev *fyne.KeyEvent) {
	if ev.Name == fyne.KeyEscape {
		e.u.typedKey(ev)
		return
	}
	e.SelectEntry.TypedKey(ev)
}
