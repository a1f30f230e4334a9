package extract

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// A small JSON reader for the scripts extraction reads (JSON-LD, app state). It
// builds exactly what encoding/json builds when it decodes into an `any`
// (map[string]any, []any, string, float64 or json.Number, bool, nil), and fails
// where encoding/json fails, but in one pass without reflection: on the small
// pages of unknown sites, decoding JSON with encoding/json cost as much as
// parsing the page. TestJSONMatchesEncodingJSON and FuzzJSONDecode compare the two.

// maxJSONDepth is encoding/json's nesting limit.
const maxJSONDepth = 10000

// unmarshalJSON is json.Unmarshal(s, &v) into v any: s must hold one value and
// nothing but JSON white space after it.
func unmarshalJSON(s string) (any, bool) {
	d := jsonReader{s: s}
	v, ok := d.value()
	if !ok {
		return nil, false
	}
	d.space()
	if d.i != len(d.s) {
		return nil, false
	}
	return v, true
}

// decodeFirstJSON is json.NewDecoder(strings.NewReader(s)) with UseNumber,
// then Decode(&v) into v any: the first value of s, whatever follows it.
func decodeFirstJSON(s string) (any, bool) {
	d := jsonReader{s: s, useNumber: true}
	return d.value()
}

type jsonReader struct {
	s         string
	i         int
	depth     int
	useNumber bool
}

func (d *jsonReader) space() {
	for d.i < len(d.s) {
		switch d.s[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

func (d *jsonReader) value() (any, bool) {
	d.space()
	if d.i >= len(d.s) {
		return nil, false
	}
	switch c := d.s[d.i]; c {
	case '{':
		return d.object()
	case '[':
		return d.array()
	case '"':
		s, ok := d.str()
		if !ok {
			return nil, false
		}
		return s, true // may share the script's memory: see detach
	case 't':
		return d.literal("true", true)
	case 'f':
		return d.literal("false", false)
	case 'n':
		return d.literal("null", nil)
	default:
		if c == '-' || c >= '0' && c <= '9' {
			return d.number()
		}
		return nil, false
	}
}

func (d *jsonReader) literal(lit string, v any) (any, bool) {
	if !strings.HasPrefix(d.s[d.i:], lit) {
		return nil, false
	}
	d.i += len(lit)
	return v, true
}

// number reads a number with JSON's grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (d *jsonReader) number() (any, bool) {
	s, i := d.s, d.i
	start := i
	if s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	default:
		return nil, false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if i >= len(s) || s[i] < '0' || s[i] > '9' {
			return nil, false
		}
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i >= len(s) || s[i] < '0' || s[i] > '9' {
			return nil, false
		}
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	d.i = i
	lit := s[start:i]
	if d.useNumber {
		return json.Number(lit), true
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil {
		return nil, false // out of range: encoding/json fails too
	}
	return f, true
}

func (d *jsonReader) object() (any, bool) {
	d.depth++
	if d.depth > maxJSONDepth {
		return nil, false
	}
	d.i++ // '{'
	m := make(map[string]any)
	d.space()
	if d.i < len(d.s) && d.s[d.i] == '}' {
		d.i++
		d.depth--
		return m, true
	}
	for {
		d.space()
		if d.i >= len(d.s) || d.s[d.i] != '"' {
			return nil, false
		}
		k, ok := d.str()
		if !ok {
			return nil, false
		}
		d.space()
		if d.i >= len(d.s) || d.s[d.i] != ':' {
			return nil, false
		}
		d.i++
		v, ok := d.value()
		if !ok {
			return nil, false
		}
		m[k] = v
		d.space()
		if d.i >= len(d.s) {
			return nil, false
		}
		switch d.s[d.i] {
		case ',':
			d.i++
		case '}':
			d.i++
			d.depth--
			return m, true
		default:
			return nil, false
		}
	}
}

func (d *jsonReader) array() (any, bool) {
	d.depth++
	if d.depth > maxJSONDepth {
		return nil, false
	}
	d.i++ // '['
	a := []any{}
	d.space()
	if d.i < len(d.s) && d.s[d.i] == ']' {
		d.i++
		d.depth--
		return a, true
	}
	for {
		v, ok := d.value()
		if !ok {
			return nil, false
		}
		a = append(a, v)
		d.space()
		if d.i >= len(d.s) {
			return nil, false
		}
		switch d.s[d.i] {
		case ',':
			d.i++
		case ']':
			d.i++
			d.depth--
			return a, true
		default:
			return nil, false
		}
	}
}

// str reads a string literal at d.i (on its opening quote) and returns its
// value as encoding/json unquotes it (invalid UTF-8 and lone surrogates become
// U+FFFD). Without escapes and invalid bytes the result is a part of d.s.
func (d *jsonReader) str() (string, bool) {
	s := d.s
	i := d.i + 1
	start := i
	simple := true
	for {
		if i >= len(s) {
			return "", false
		}
		c := s[i]
		switch {
		case c == '"':
			d.i = i + 1
			if simple {
				return s[start:i], true
			}
			return unquoteJSON(s[start:i]), true
		case c == '\\':
			simple = false
			i++
			if i >= len(s) {
				return "", false
			}
			switch s[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i++
			case 'u':
				if i+5 > len(s) {
					return "", false
				}
				for _, h := range []byte(s[i+1 : i+5]) {
					if !isHex(h) {
						return "", false
					}
				}
				i += 5
			default:
				return "", false
			}
		case c < ' ':
			return "", false
		case c < utf8.RuneSelf:
			i++
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				simple = false
			}
			i += size
		}
	}
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// unquoteJSON decodes the body of a string literal already checked by str.
func unquoteJSON(s string) string {
	b := make([]byte, 0, len(s)+2*utf8.UTFMax)
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\':
			i++
			switch s[i] {
			case '"', '\\', '/':
				b = append(b, s[i])
				i++
			case 'b':
				b = append(b, '\b')
				i++
			case 'f':
				b = append(b, '\f')
				i++
			case 'n':
				b = append(b, '\n')
				i++
			case 'r':
				b = append(b, '\r')
				i++
			case 't':
				b = append(b, '\t')
				i++
			case 'u':
				rr := getu4(s[i-1:])
				i += 5
				if utf16.IsSurrogate(rr) {
					rr1 := getu4(s[i:])
					if dec := utf16.DecodeRune(rr, rr1); dec != utf8.RuneError {
						i += 6
						b = utf8.AppendRune(b, dec)
						break
					}
					rr = utf8.RuneError
				}
				b = utf8.AppendRune(b, rr)
			}
		case c < utf8.RuneSelf:
			b = append(b, c)
			i++
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			i += size
			b = utf8.AppendRune(b, r)
		}
	}
	return string(b)
}

// getu4 decodes \uXXXX from the beginning of s, returning the hex value, or -1.
func getu4(s string) rune {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return -1
	}
	var r rune
	for _, c := range []byte(s[2:6]) {
		switch {
		case '0' <= c && c <= '9':
			c = c - '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}
