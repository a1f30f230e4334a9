package notify

import (
	"errors"
	"strings"
	"testing"

	"notifio/internal/model"
)

func validConfig() model.Config {
	return model.Config{Host: "smtp.gmail.com", Port: 587, Security: model.SecurityStartTLS, Username: "me@gmail.com",
		From: "Me <me@gmail.com>", To: []string{"me@gmail.com", "partner@example.org"}}
}

func TestValidate(t *testing.T) {
	if err := validConfig().Validate(); err != nil {
		t.Fatalf("valid config: %v", err)
	}
	cases := []struct {
		name  string
		edit  func(*model.Config)
		field string
		words string
	}{
		{"no host", func(c *model.Config) { c.Host = "" }, "host", "Enter the SMTP server"},
		{"url as host", func(c *model.Config) { c.Host = "smtp://smtp.gmail.com" }, "host", "without"},
		{"bad host", func(c *model.Config) { c.Host = "smtp..gmail.com" }, "host", "not a valid server name"},
		{"no port", func(c *model.Config) { c.Port = 0 }, "port", "587"},
		{"port range", func(c *model.Config) { c.Port = 70000 }, "port", "between 1 and 65535"},
		{"starttls on 465", func(c *model.Config) { c.Port = 465 }, "security", "Port 465 uses TLS, 587 uses STARTTLS"},
		{"tls on 587", func(c *model.Config) { c.Security = model.SecurityTLS }, "security", "Port 465 uses TLS, 587 uses STARTTLS"},
		{"none remote", func(c *model.Config) { c.Security = model.SecurityNone; c.Port = 25 }, "security", "only allowed for a server on this computer"},
		{"no security", func(c *model.Config) { c.Security = "" }, "security", "Choose the security"},
		{"odd security", func(c *model.Config) { c.Security = "ssl" }, "security", "Unknown security"},
		{"no from", func(c *model.Config) { c.From = "" }, "from", "sender address"},
		{"bad from", func(c *model.Config) { c.From = "me at gmail" }, "from", "not a valid email address"},
		{"header injection in from", func(c *model.Config) { c.From = "me@gmail.com\r\nBcc: x@evil.example" }, "from", "not a valid"},
		{"no to", func(c *model.Config) { c.To = nil }, "to", "at least one recipient"},
		{"bad to", func(c *model.Config) { c.To = []string{"me@gmail.com", "nope"}; c.Username = "u" }, "to", `"nope"`},
		{"bad pin", func(c *model.Config) { c.PinnedCertSHA256 = "abcd" }, "pinned_cert_sha256", "64 hex digits"},
		{"username control", func(c *model.Config) { c.Username = "me\r\n" }, "username", "line breaks"},
		{"negative timeout", func(c *model.Config) { c.Timeout = -1 }, "timeout", "negative"},
	}
	for _, tc := range cases {
		c := validConfig()
		tc.edit(&c)
		err := c.Validate()
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		var fe *model.FieldError
		if !errors.As(err, &fe) || fe.Field != tc.field || !strings.Contains(err.Error(), tc.words) {
			t.Errorf("%s: %v (field %v), want field %s with %q", tc.name, err, fe, tc.field, tc.words)
		}
	}

	// "none" is fine on loopback, and a pin in any common notation is accepted.
	for _, host := range []string{"localhost", "127.0.0.1", "::1", "[::1]", "bridge.localhost"} {
		c := validConfig()
		c.Host, c.Port, c.Security = host, 1025, model.SecurityNone
		c.PinnedCertSHA256 = "SHA256:" + strings.Repeat("AB:", 31) + "AB"
		if err := c.Validate(); err != nil {
			t.Errorf("none on %s: %v", host, err)
		}
	}
	if model.IsLoopbackHost("127.0.0.1.nip.io") || model.IsLoopbackHost("localhost.evil.example") || model.IsLoopbackHost("10.0.0.1") {
		t.Error("a non-loopback host counted as loopback")
	}
}

func TestPresets(t *testing.T) {
	want := map[string]struct {
		host string
		port int
		sec  model.Security
	}{
		"Gmail":                {"smtp.gmail.com", 587, model.SecurityStartTLS},
		"Outlook / Office 365": {"smtp.office365.com", 587, model.SecurityStartTLS},
		"Fastmail":             {"smtp.fastmail.com", 465, model.SecurityTLS},
		"iCloud":               {"smtp.mail.me.com", 587, model.SecurityStartTLS},
		"Outlook.com":          {"smtp-mail.outlook.com", 587, model.SecurityStartTLS},
		"GMX":                  {"mail.gmx.net", 587, model.SecurityStartTLS},
		"WEB.DE":               {"smtp.web.de", 587, model.SecurityStartTLS},
		"T-Online":             {"securesmtp.t-online.de", 465, model.SecurityTLS},
		"Yahoo":                {"smtp.mail.yahoo.com", 465, model.SecurityTLS},
		"Custom":               {"", 0, ""},
	}
	if len(model.Presets) != len(want) {
		t.Fatalf("%d presets", len(model.Presets))
	}
	for _, p := range model.Presets {
		w, ok := want[p.Name]
		if !ok || p.Host != w.host || p.Port != w.port || p.Security != w.sec || p.Hint == "" {
			t.Errorf("preset %+v", p)
		}
		if p.Host == "" {
			continue
		}
		c := model.Config{Host: p.Host, Port: p.Port, Security: p.Security, From: "a@example.com", To: []string{"a@example.com"}}
		if err := c.Validate(); err != nil {
			t.Errorf("preset %s does not validate: %v", p.Name, err)
		}
		if got, ok := model.PresetFor(strings.ToUpper(p.Host) + "."); !ok || got.Name != p.Name {
			t.Errorf("PresetFor(%s) = %v %v", p.Host, got, ok)
		}
	}
	if !strings.Contains(model.Presets[0].Hint, "app password") {
		t.Errorf("Gmail hint: %q", model.Presets[0].Hint)
	}
}
