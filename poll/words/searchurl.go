package words

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"notifio/internal/model"
)

// Search URLs: the one validator and normaliser, and the site a URL belongs to.

// SearchSite returns the site (registrable domain) of a URL.
func SearchSite(raw string) (string, *url.URL, error) {
	u, err := ParseSearchURL(raw)
	if err != nil {
		return "", nil, err
	}
	return model.SiteOf(u.Host), u, nil
}

// CheckSearchURL checks what the user pasted as a search address (as
// ParseSearchURL does) and returns it trimmed, as typed otherwise.
func CheckSearchURL(raw string) (string, error) {
	if _, err := ParseSearchURL(raw); err != nil {
		return "", err
	}
	return strings.TrimSpace(raw), nil
}

// copyAgain is what to do about most addresses that are not one.
const copyAgain = "Copy the whole address from your browser's address bar."

// ParseSearchURL checks a URL a user pasted: http or https, with a host. Its
// errors are *UserError wrapping ErrBadURL.
func ParseSearchURL(raw string) (*url.URL, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return nil, model.NewUserError(model.ErrBadURL, "The address is empty.",
			"Paste the address of a search results page (copy it from your browser's address bar).")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, model.NewUserError(model.ErrBadURL, "That does not look like a web address.",
			"Copy the whole address from your browser's address bar; it starts with https://.")
	}
	switch u.Scheme {
	case "http", "https":
	case "":
		return nil, model.NewUserError(model.ErrBadURL, "The address must start with https:// (or http://).", copyAgain)
	default:
		return nil, model.NewUserError(model.ErrBadURL, fmt.Sprintf("Notifio can only watch web pages (addresses starting with https:// or http://), not %q addresses.", u.Scheme+":"), "")
	}
	if u.Hostname() == "" {
		return nil, model.NewUserError(model.ErrBadURL, "The address has no website name after "+u.Scheme+"://.", copyAgain)
	}
	if u.User != nil {
		return nil, model.NewUserError(model.ErrBadURL, "The address contains a user name or password.", "Paste the plain search address.")
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return nil, model.NewUserError(model.ErrBadURL, fmt.Sprintf("The address has the port %s, but a port is a number from 1 to 65535.", p),
				"Copy the address again from your browser.")
		}
	}
	normaliseSearchURL(u)
	return u, nil
}

// normaliseSearchURL writes a parsed search URL as a browser sends it: scheme and
// host in lower case, no fragment (it never reaches the server), and the query
// percent-encoded where it holds spaces, non-ASCII or other bytes a server
// refuses raw (a pasted "a=1 b=2&c=ä" is sent as "a=1%20b=2&c=%C3%A4").
func normaliseSearchURL(u *url.URL) {
	u.Scheme = strings.ToLower(u.Scheme)
	u.Host = strings.ToLower(u.Host)
	u.Fragment, u.RawFragment = "", ""
	u.ForceQuery = false
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(u.RawQuery); i++ {
		c := u.RawQuery[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte("\"<>`{}|\\^", c) >= 0 {
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
			continue
		}
		b.WriteByte(c)
	}
	u.RawQuery = b.String()
}

// SameSearchURL reports whether two search URLs name the same page, as
// ParseSearchURL writes them (case of scheme and host, fragment and encoding do
// not matter).
func SameSearchURL(a, b string) bool {
	ua, err1 := ParseSearchURL(a)
	ub, err2 := ParseSearchURL(b)
	return err1 == nil && err2 == nil && ua.String() == ub.String()
}
