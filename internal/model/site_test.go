package model_test

import (
	"testing"

	"notifio/internal/model"
)

func TestSiteOf(t *testing.T) {
	tests := []struct{ host, want string }{
		{"www.immo.example.de", "example.de"},
		{"www.x.de", "x.de"},
		{"m.x.de", "x.de"},
		{"x.de", "x.de"},
		{"WWW.X.DE", "x.de"},
		{"www.x.de:8443", "x.de"},
		{"www.x.de.", "x.de"},
		{" www.x.de ", "x.de"},
		{"shop.example.co.uk", "example.co.uk"},
		{"example.co.uk:443", "example.co.uk"},
		{"a.github.io", "a.github.io"},
		{"b.github.io", "b.github.io"},
		{"deep.a.github.io", "a.github.io"},
		{"github.io", "github.io"},
		{"co.uk", "co.uk"},
		{"localhost", "localhost"},
		{"LOCALHOST:8080", "localhost"},
		{"intranet", "intranet"},
		{"nas:5000", "nas"},
		{"printer.internal", "printer.internal"},
		{"192.168.1.10", "192.168.1.10"},
		{"192.168.1.10:8080", "192.168.1.10"},
		{"10.0.010.1", "10.0.010.1"},
		{"[::1]:8080", "::1"},
		{"[::1]", "::1"},
		{"::1", "::1"},
		{"[2001:DB8::1]:443", "2001:db8::1"},
		{"fe80::1%eth0", "fe80::1%eth0"},
		{"www.müller.de", "xn--mller-kva.de"},
		{"xn--mller-kva.de", "xn--mller-kva.de"},
		{"WWW.MÜLLER.DE", "xn--mller-kva.de"},
		{"", ""},
	}
	for _, tc := range tests {
		if got := model.SiteOf(tc.host); got != tc.want {
			t.Errorf("SiteOf(%q) = %q, want %q", tc.host, got, tc.want)
		}
	}
	if model.SiteOf("www.x.de") != model.SiteOf("m.x.de") {
		t.Error("www.x.de and m.x.de must share a site")
	}
	if model.SiteOf("a.github.io") == model.SiteOf("b.github.io") {
		t.Error("a.github.io and b.github.io must not share a site")
	}
}
