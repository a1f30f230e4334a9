package fetch

import (
	"bytes"
	"unicode/utf8"

	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding/charmap"
)

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// DecodePage converts a page's raw bytes to UTF-8: the one decoder for a page,
// fetched (contentType from the response) or saved to a file (contentType "").
// The encoding comes from, in order: a BOM, the Content-Type charset, a <meta>
// charset in the first 1024 bytes, sniffing
// (golang.org/x/net/html/charset.DetermineEncoding). Two corrections follow,
// both reported in note:
//
//   - labelled (or sniffed as) UTF-8 but the bytes are not valid UTF-8 and contain
//     not one valid multi-byte sequence: the page is really a single-byte
//     encoding (typically Latin-1 behind a "charset=utf-8" header), so it is
//     re-decoded as windows-1252. When valid and invalid sequences are mixed, the
//     label is kept and each invalid byte becomes U+FFFD, as a browser does.
//   - no BOM or header charset, sniffed or meta-declared windows-1252, but the
//     whole body is valid UTF-8 with non-ASCII in it (sniffing only looks at the
//     first 1024 bytes): decoded as UTF-8.
//
// An empty body gives an empty, non-nil slice.
func DecodePage(raw []byte, contentType string) (body []byte, name, note string) {
	if len(raw) == 0 {
		return []byte{}, "", ""
	}
	enc, name, certain := charset.DetermineEncoding(raw, contentType)
	hasBOM := bytes.HasPrefix(raw, utf8BOM)
	switch name {
	case "utf-8":
		raw = bytes.TrimPrefix(raw, utf8BOM)
		if utf8.Valid(raw) {
			return raw, "utf-8", ""
		}
		if !hasBOM && !hasValidMultibyte(raw) {
			out, _ := charmap.Windows1252.NewDecoder().Bytes(raw)
			return out, "windows-1252", "labelled utf-8 but not UTF-8; decoded as windows-1252"
		}
		return bytes.ToValidUTF8(raw, []byte("\uFFFD")), "utf-8", "invalid UTF-8 bytes replaced with U+FFFD"
	case "windows-1252":
		high := hasHighBit(raw)
		if !high {
			return raw, name, "" // ASCII reads the same in windows-1252: no copy
		}
		if !certain && utf8.Valid(raw) {
			return raw, "utf-8", "sniffed as windows-1252 but the whole page is valid UTF-8"
		}
	}
	out, err := enc.NewDecoder().Bytes(raw)
	if err != nil {
		// Decoders from x/text replace rather than fail; keep the bytes as a
		// last resort, made valid.
		return bytes.ToValidUTF8(raw, []byte("\uFFFD")), name, "could not decode as " + name
	}
	return out, name, ""
}

func hasHighBit(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return true
		}
	}
	return false
}

// hasValidMultibyte reports whether b holds at least one valid multi-byte UTF-8
// sequence.
func hasValidMultibyte(b []byte) bool {
	for len(b) > 0 {
		if b[0] < utf8.RuneSelf {
			b = b[1:]
			continue
		}
		r, size := utf8.DecodeRune(b)
		if r != utf8.RuneError || size > 1 {
			return true
		}
		b = b[size:]
	}
	return false
}
