package fetch

import (
	"net"
	"strings"

	"golang.org/x/net/publicsuffix"
)

// SiteOf returns the site of a host: its registrable domain (eTLD+1), lowercased,
// without port or trailing dot. IP literals, localhost and single-label hosts are
// their own site, so 127.0.0.2 and 127.0.0.3 are different sites. It follows the
// same rules as hostbackoff.SiteOf.
func SiteOf(host string) string {
	host = strings.ToLower(strings.TrimSpace(host))
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.Trim(host, "[]"), ".")
	if host == "" || net.ParseIP(host) != nil || !strings.Contains(host, ".") {
		return host
	}
	site, err := publicsuffix.EffectiveTLDPlusOne(host)
	if err != nil {
		return host // a public suffix itself, or malformed: its own site
	}
	return site
}
