package notify

// photoLink is the listing's photo address as the digest's <img> may load it:
// an absolute http(s) URL without user info (httpURL), else "". Unlike a
// listing's link it may be on another host: portals serve photos from their
// own image hosts. The HTML template escapes it.
func photoLink(raw string) string {
	if u := httpURL(raw); u != nil {
		return u.String()
	}
	return ""
}
