package model

import (
	"net"
	"net/netip"
	"strings"

	"golang.org/x/net/idna"
	"golang.org/x/net/publicsuffix"
)

// SiteOf returns the site a host belongs to: its registrable domain (eTLD+1 by the
// Public Suffix List, private section included), lowercased, with any port and
// trailing dot removed. So www.example.de and m.example.de are both example.de,
// while a.github.io and b.github.io are different sites, as github.io is a public
// suffix. A host that has no registrable domain — an IP literal (returned without
// brackets or port), localhost, a single-label name, or a public suffix itself — is
// its own site. Internationalised names are returned in their ASCII (punycode)
// form, so müller.de and xn--mller-kva.de are one site. An empty host gives "".
//
// host may be a URL's Host (with a port) or Hostname.
func SiteOf(host string) string {
	h := strings.TrimSpace(host)
	if h == "" {
		return ""
	}
	if strings.HasPrefix(h, "[") {
		// [v6] or [v6]:port
		if end := strings.IndexByte(h, ']'); end > 0 {
			h = h[1:end]
		}
	} else if strings.Count(h, ":") == 1 {
		if hh, _, err := net.SplitHostPort(h); err == nil {
			h = hh
		}
	}
	if a, err := netip.ParseAddr(h); err == nil {
		return a.String()
	}
	h = strings.TrimSuffix(strings.ToLower(h), ".")
	if !isASCII(h) {
		if a, err := idna.Lookup.ToASCII(h); err == nil {
			h = a
		}
	}
	if h == "" || !strings.Contains(h, ".") {
		return h // localhost, single-label names
	}
	if isDigits(h[strings.LastIndexByte(h, '.')+1:]) {
		return h // no top-level domain is numeric: an unusual IPv4 spelling such as 10.0.010.1
	}
	if site, err := publicsuffix.EffectiveTLDPlusOne(h); err == nil {
		return site
	}
	return h // a public suffix itself, or a malformed name
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// isDigits reports whether s is one or more ASCII digits.
func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
