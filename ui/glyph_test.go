package ui

import (
	"bytes"
	"fmt"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"github.com/go-text/typesetting/font"

	"notifio/internal/model"
)

// missingGlyphs lists the characters of s that the window's bundled text font
// cannot draw. Fyne then falls back to its symbol font, and the result showed
// as "Google account →� Security →�" on screen (issue 19, rough edge 10).
func missingGlyphs(t *testing.T, s string) []string {
	t.Helper()
	face, err := font.ParseTTF(bytes.NewReader(theme.DefaultTextFont().Content()))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range s {
		if _, ok := face.NominalGlyph(r); !ok && r != '\n' {
			out = append(out, fmt.Sprintf("%q", r))
		}
	}
	return out
}

func TestEmailHintsUseOnlyCharactersTheFontHas(t *testing.T) {
	for _, p := range model.Presets {
		if m := missingGlyphs(t, p.Name+p.Hint); len(m) > 0 {
			t.Errorf("the %s preset's hint has characters the window cannot draw: %v", p.Name, m)
		}
	}
	if m := missingGlyphs(t, model.ErrNotConfigured.Error()); len(m) > 0 {
		t.Errorf("%q has characters the window cannot draw: %v", model.ErrNotConfigured, m)
	}
}

func TestEmailPresetsForGermanAndOtherProviders(t *testing.T) {
	h := newHarness(t, model.Snapshot{})
	h.u.selectView(viewSettings)
	v := h.u.settings
	for _, tc := range []struct{ name, host, port string }{
		{"GMX", "mail.gmx.net", "587"},
		{"WEB.DE", "smtp.web.de", "587"},
		{"T-Online", "securesmtp.t-online.de", "465"},
		{"Outlook.com", "smtp-mail.outlook.com", "587"},
		{"Yahoo", "smtp.mail.yahoo.com", "465"},
	} {
		v.preset.SetSelected(tc.name)
		if v.preset.Selected != tc.name || v.host.Text != tc.host || v.port.Text != tc.port || v.presetHint.Text == "" {
			t.Errorf("%s: chose %q, server %q port %q, hint %q", tc.name, v.preset.Selected, v.host.Text, v.port.Text, v.presetHint.Text)
		}
	}
}

func TestCustomProviderClearsThePresetServer(t *testing.T) {
	h := newHarness(t, model.Snapshot{})
	h.u.selectView(viewSettings)
	v := h.u.settings
	v.preset.SetSelected("Gmail")
	v.preset.SetSelected("Custom")
	if v.host.Text != "" || v.port.Text != "" {
		t.Errorf("Custom left server %q port %q from Gmail", v.host.Text, v.port.Text)
	}
	// A server the user typed is theirs: choosing Custom keeps it.
	test.Type(v.host, "mail.example.org")
	v.preset.SetSelected("Gmail")
	v.host.SetText("mail.example.org")
	v.preset.SetSelected("Custom")
	if v.host.Text != "mail.example.org" {
		t.Errorf("Custom cleared the user's own server: %q", v.host.Text)
	}
}
